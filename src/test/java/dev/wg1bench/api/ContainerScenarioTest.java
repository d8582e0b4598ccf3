package dev.wg1bench.api;

import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.postgresql.PostgreSQLContainer;

/** The API example's scenario on a Testcontainers PostgreSQL: skipped cleanly without Docker. */
@Testcontainers(disabledWithoutDocker = true)
class ContainerScenarioTest {
  @Container static final PostgreSQLContainer PG = new PostgreSQLContainer("postgres:17");

  @Test
  void onATestcontainersPostgres() {
    ApiExampleTest.assertHealthy(
        ApiExampleTest.scenario()
            .initPgbench(1)
            .against(PG.getJdbcUrl(), PG.getUsername(), PG.getPassword())
            .run());
  }
}
