package dev.wg1bench.support;

import dev.wg1bench.plan.Secret;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.ExternalTarget;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/** Testcontainers, used only where a Docker engine answers. */
public final class Docker {
  private Docker() {}

  public static boolean available() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  static TargetSpec startPostgres() {
    PostgreSQLContainer pg = new PostgreSQLContainer("postgres:17");
    pg.start();
    Runtime.getRuntime().addShutdownHook(new Thread(pg::stop));
    return new TargetSpec(
        "test",
        ExternalTarget.EXTERNAL,
        pg.getJdbcUrl(),
        pg.getUsername(),
        null,
        Secret.of(pg.getPassword()));
  }
}
