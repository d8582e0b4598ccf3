package dev.wg1bench.server.window;

import static dev.wg1bench.server.window.ServerWindowTest.EVERY;
import static dev.wg1bench.server.window.ServerWindowTest.connect;
import static dev.wg1bench.server.window.ServerWindowTest.pid;
import static dev.wg1bench.server.window.ServerWindowTest.share;
import static dev.wg1bench.server.window.ServerWindowTest.statement;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.wg1bench.support.LimitedRole;
import dev.wg1bench.support.TestServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The window read by a plain login role: not a superuser, not a member of pg_read_all_stats, not
 * the owner of pg_stat_statements (a superuser created it). A run's window and its clients are one
 * role, and a role reads its own sessions and statements in full: the figures are a superuser's.
 * Only what other roles do is hidden: their sessions are {@code unknown} to it, and their
 * statements' calls are counted apart, as one line, never as figures.
 */
class ServerWindowRightsTest {
  private static final String ROLE = "window_plain";

  /** The role may not read other sessions: checked, or the test would prove nothing. */
  private static void assertPlain(String url) throws Exception {
    try (Connection c = connect(url);
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT rolsuper, pg_has_role(current_user, 'pg_read_all_stats', 'MEMBER'),"
                    + " (SELECT extowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)"
                    + " FROM pg_extension WHERE extname = 'pg_stat_statements')"
                    + " FROM pg_roles WHERE rolname = current_user")) {
      assertTrue(rs.next());
      assertEquals(false, rs.getBoolean(1), "not a superuser");
      assertEquals(false, rs.getBoolean(2), "not a member of pg_read_all_stats");
      assertEquals(false, rs.getBoolean(3), "not the extension's owner");
    }
  }

  @Test
  void aPlainRoleReadsItsOwnClientsAsASuperuserDoes() throws Exception {
    assumeTrue(ServerWindowTest.hasStatements(), "the test server has pg_stat_statements");
    try (LimitedRole plain = new LimitedRole(ROLE, 10)) {
      assertPlain(plain.url());
      try (Connection client = connect(plain.url());
          PreparedStatement sleep =
              client.prepareStatement("SELECT pg_sleep(0.02) AS window_plain_own")) {
        ServerWindow w = ServerWindow.start(() -> connect(plain.url()), Set.of(pid(client)), EVERY);
        int runs = ServerWindowTest.until(w, "Timeout:PgSleep", () -> sleep.executeQuery().close());
        ServerSide s = w.finish();
        assertNotNull(s.waits(), s.waitsWhy());
        assertNull(share(s.waits(), "unknown"), "its own session is readable: " + s.waits());
        assertNotNull(share(s.waits(), "Timeout:PgSleep"), "waits: " + s.waits());
        assertNotNull(s.statements(), s.statementsWhy());
        ServerSide.StatementFigures f = statement(s, "window_plain_own");
        assertNotNull(f, "its own statement: " + s.statements());
        assertEquals(runs, f.calls());
        assertTrue(
            s.statements().stream().noneMatch(x -> x.query().contains(ServerWindow.MARKER_TEXT)),
            "it may not SET pg_stat_statements.track: the marker keeps the window's own out");
        assertNotNull(s.database(), s.databaseWhy());
        assertNotNull(s.database().walBytes(), s.database().walWhy());
      }
    }
  }

  /**
   * Clients of another role than the window's (not what a run does, where both are the run's role):
   * their sessions are unknown to it, so there are no waits and one line why; their statements'
   * counters are visible but not which statements they are, so they are no figures and one line
   * counts their calls.
   */
  @Test
  void anotherRolesClientsAreOneLineEachNeverFigures() throws Exception {
    assumeTrue(ServerWindowTest.hasStatements(), "the test server has pg_stat_statements");
    try (LimitedRole plain = new LimitedRole(ROLE, 10);
        Connection client = connect(TestServer.url());
        PreparedStatement q = client.prepareStatement("SELECT md5('x') AS window_plain_other")) {
      assertPlain(plain.url());
      ServerWindow w = ServerWindow.start(() -> connect(plain.url()), Set.of(pid(client)), EVERY);
      long deadline = System.nanoTime() + ServerWindowTest.DEADLINE_NANOS;
      int runs = 0;
      // at least once in the window: the sampler may have its samples before the first
      do {
        assertTrue(System.nanoTime() < deadline, "the sampler took no 3 samples within 60 s");
        q.executeQuery().close();
        runs++;
      } while (w.samples() < 3);
      ServerSide s = w.finish();
      assertNull(s.waits());
      assertEquals(
          "this role may not read the clients' sessions in pg_stat_activity (a superuser or a"
              + " member of pg_read_all_stats may)",
          s.waitsWhy());
      assertNull(statement(s, "window_plain_other"), "not a figure: " + s.statements());
      Matcher m =
          Pattern.compile(
                  "(\\d+) calls of other roles' statements ran in the window, which this role may"
                      + " not read \\(a member of pg_read_all_stats may\\): not in the figures")
              .matcher(s.statementsWhy() == null ? "" : s.statementsWhy());
      assertTrue(m.matches(), s.statementsWhy());
      assertTrue(Long.parseLong(m.group(1)) >= runs, runs + " ran: " + s.statementsWhy());
    }
  }
}
