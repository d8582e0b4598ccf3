package dev.wg1bench.server.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.support.TestServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The wait sampler's loop runs on the server for the window's length only: it ends when the window
 * finishes, and when the window's own session ends without finishing it (a fork killed), so no loop
 * outlives its window; and its samples are no commits of the database's.
 */
class SamplingLoopTest {
  private static final String LOOP = "%DO $wg1bench$%";

  /** Sessions now running a sampling loop. */
  private static int loops(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '"
                    + LOOP
                    + "' AND pid <> pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** Waits under the deadline until {@code n} loops run. */
  private static void awaitLoops(Connection c, int n) throws Exception {
    long deadline = System.nanoTime() + ServerWindowTest.DEADLINE_NANOS;
    while (loops(c) != n) {
      assertTrue(System.nanoTime() < deadline, "still " + loops(c) + " loops, not " + n);
      Thread.onSpinWait();
    }
  }

  /** A window on {@code client}'s session, once its loop runs (one more than {@code before}). */
  private static ServerWindow startWatching(Connection client, Connection look, int before)
      throws Exception {
    ServerWindow w =
        ServerWindow.start(
            () -> ServerWindowTest.connect(TestServer.url()),
            Set.of(ServerWindowTest.pid(client)),
            ServerWindowTest.EVERY);
    awaitLoops(look, before + 1);
    return w;
  }

  @Test
  void theLoopEndsWithItsWindow() throws Exception {
    try (Connection client = ServerWindowTest.connect(TestServer.url());
        Connection look = ServerWindowTest.connect(TestServer.url())) {
      int before = loops(look);
      ServerWindow w = startWatching(client, look, before);
      ServerSide s = w.finish();
      assertEquals(before, loops(look), "finish returns once the loop has ended");
      assertTrue(s.samples() > 0, "the loop's last counts were read: " + s.samples());
    }
  }

  @Test
  void theLoopEndsWhenItsWindowsSessionEnds() throws Exception {
    try (Connection client = ServerWindowTest.connect(TestServer.url());
        Connection look = ServerWindowTest.connect(TestServer.url())) {
      int before = loops(look);
      ServerWindow w = startWatching(client, look, before);
      // the window's own session (the holder of the lock its loop, the one sampling this
      // client, tries) ends as a killed fork's would; other windows on a shared server live on
      try (Statement st = look.createStatement()) {
        st.execute(
            "SELECT pg_terminate_backend(l.pid) FROM pg_stat_activity a"
                + " CROSS JOIN LATERAL (SELECT substring(a.query FROM"
                + " 'pg_try_advisory_lock\\((-?[0-9]+)\\)')::bigint AS key) k"
                + " JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.pid <> a.pid"
                + " AND l.classid::bigint = (k.key >> 32) & 4294967295"
                + " AND l.objid::bigint = k.key & 4294967295"
                + " WHERE a.query LIKE '"
                + LOOP
                + "' AND a.query LIKE '%''{"
                + ServerWindowTest.pid(client)
                + "}''%'");
      }
      awaitLoops(look, before);
      w.finish(); // never throws: the figures it cannot read say why
    }
  }
}
