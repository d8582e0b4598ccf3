package dev.wg1bench.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.Bench;
import dev.wg1bench.load.PgbenchLoader;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.Secret;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.support.Plans;
import dev.wg1bench.workload.WorkloadRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The same tpcb scenario as the other tests, on a Testcontainers PostgreSQL: runs where a Docker
 * engine answers and is skipped cleanly where none does.
 */
@Testcontainers(disabledWithoutDocker = true)
class TestcontainersTpcbTest {
  @Container static final PostgreSQLContainer PG = new PostgreSQLContainer("postgres:17");

  @TempDir Path tmp;

  @Test
  void tpcbKeepsBalancesOnAContainer() throws Exception {
    TargetSpec t =
        new TargetSpec(
            "container",
            TargetSpec.Kind.EXTERNAL,
            PG.getJdbcUrl(),
            PG.getUsername(),
            null,
            Secret.of(PG.getPassword()));
    try (Connection c =
        DriverManager.getConnection(PG.getJdbcUrl(), PG.getUsername(), PG.getPassword())) {
      PgbenchLoader.init(c, 1, 100, true, null);
    }
    var plan =
        Plans.plan(
            "tpcb",
            WorkloadRegistry.sources("tpcb"),
            List.of(t),
            4,
            QueryMode.PREPARED,
            null,
            1,
            Map.of(),
            tmp.resolve("r.json"));
    Measurement m =
        new Bench(new PrintStream(new ByteArrayOutputStream()), false)
            .run(plan)
            .trials()
            .get(0)
            .measurement();
    assertTrue(m.ops() > 0);
    try (Connection c =
            DriverManager.getConnection(PG.getJdbcUrl(), PG.getUsername(), PG.getPassword());
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT (SELECT sum(abalance) FROM pgbench_accounts), (SELECT sum(tbalance) FROM pgbench_tellers),"
                        + " (SELECT sum(delta) FROM pgbench_history), (SELECT count(*) FROM pgbench_history)")) {
      rs.next();
      assertEquals(rs.getLong(3), rs.getLong(1));
      assertEquals(rs.getLong(3), rs.getLong(2));
      assertEquals(m.totalOps(), rs.getLong(4));
    }
  }
}
