package dev.wg1bench.server.window;

import static dev.wg1bench.server.window.ServerWindowTest.EVERY;
import static dev.wg1bench.server.window.ServerWindowTest.connect;
import static dev.wg1bench.server.window.ServerWindowTest.pid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.wg1bench.support.Docker;
import dev.wg1bench.support.TestServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * pg_stat_io is PostgreSQL 16's: a window on the test server (the embedded one is 17) has its rows,
 * one on a postgres:15 container has none and the one line why, never an empty list. The same
 * container has pg_stat_statements installed but not preloaded, as a user's server may: one line,
 * no statements, no server time per op. The container part is skipped without Docker.
 */
class ServerWindowMajorsTest {
  @Test
  void theTestServersIoIsItsMajorsToHave() throws Exception {
    try (Connection c = connect(TestServer.url());
        Statement st = c.createStatement()) {
      int major = c.getMetaData().getDatabaseMajorVersion();
      ServerWindow w = ServerWindow.start(() -> connect(TestServer.url()), Set.of(pid(c)), EVERY);
      // a write the window's io and WAL see, whatever else runs on the server
      st.execute("CREATE TEMP TABLE window_io AS SELECT g FROM generate_series(1, 1000) g");
      ServerSide s = w.finish();
      ServerSide.DatabaseFigures d = s.database();
      assertNotNull(d, s.databaseWhy());
      if (major >= 16) {
        assertNotNull(d.io(), d.ioWhy());
        assertNull(d.ioWhy());
      } else {
        assertNull(d.io());
        assertEquals("pg_stat_io is PostgreSQL 16's; this server is " + major, d.ioWhy());
      }
    }
  }

  @Test
  void postgres15HasNoIoAndAnExtensionNotPreloadedIsOneLine() throws Exception {
    assumeTrue(Docker.available(), "no Docker engine answers");
    try (PostgreSQLContainer pg =
        new PostgreSQLContainer(
            DockerImageName.parse("postgres:15").asCompatibleSubstituteFor("postgres"))) {
      pg.start();
      String url = pg.getJdbcUrl();
      java.util.concurrent.Callable<Connection> open =
          () -> DriverManager.getConnection(url, pg.getUsername(), pg.getPassword());
      try (Connection c = open.call();
          Statement st = c.createStatement()) {
        assertEquals(15, c.getMetaData().getDatabaseMajorVersion());
        st.execute("CREATE EXTENSION pg_stat_statements");
        ServerWindow w = ServerWindow.start(open, Set.of(pid(c)), EVERY);
        st.execute("SELECT 1");
        ServerSide s = w.finish();
        ServerSide.DatabaseFigures d = s.database();
        assertNotNull(d, s.databaseWhy());
        assertNull(d.io(), "no pg_stat_io on 15: not an empty list");
        assertEquals("pg_stat_io is PostgreSQL 16's; this server is 15", d.ioWhy());
        assertNotNull(d.walBytes(), "pg_stat_wal is 14's: " + d.walWhy());
        assertNull(s.statements(), "installed, not preloaded: no statements");
        assertNull(s.serverMsPerOp(10), "unknown, not zero");
        assertTrue(
            s.statementsWhy().startsWith("pg_stat_statements cannot be read: ")
                && s.statementsWhy().contains("shared_preload_libraries"),
            s.statementsWhy());
        assertFalse(s.statementsWhy().contains("\n"), s.statementsWhy());
      }
    }
  }
}
