package dev.wg1bench.replay.play;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.wg1bench.replay.capture.LoggedStatement;
import dev.wg1bench.replay.play.StatementSender.Route;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How each logged statement goes to the server, decided once before the replay's clock starts: the
 * same choice the sender made from the text at every send before, so the wire is unchanged.
 */
class StatementRouteTest {
  private static LoggedStatement st(String sql, List<String> parameters) {
    return new LoggedStatement(
        "log:1", Instant.EPOCH, null, sql, parameters, null, null, null, null, 0, 0);
  }

  @Test
  void valuesGoAsParseBindExecuteWhateverTheMode() {
    LoggedStatement s = st("SELECT $1", List.of("1"));
    assertEquals(Route.EXTENDED, Route.of(s, true));
    assertEquals(Route.EXTENDED, Route.of(s, false));
  }

  @Test
  void copyToStdoutGoesThroughTheCopyApi() {
    assertEquals(Route.COPY_OUT, Route.of(st("COPY t TO STDOUT", null), true));
    assertEquals(Route.COPY_OUT, Route.of(st("/* c */ copy (select 1) to stdout", null), false));
  }

  @Test
  void severalStatementsInOneStringStayOneQueryMessageInEveryMode() {
    LoggedStatement s = st("BEGIN; UPDATE t SET a = 1; COMMIT", null);
    assertEquals(Route.QUERY_MESSAGE, Route.of(s, false));
    assertEquals(Route.QUERY_MESSAGE, Route.of(s, true));
  }

  @Test
  void oneStatementFollowsTheQueryMode() {
    LoggedStatement s = st("UPDATE t SET a = 1 WHERE b = ';'", null);
    assertEquals(Route.QUERY_MESSAGE, Route.of(s, true));
    assertEquals(Route.JDBC_STATEMENT, Route.of(s, false));
  }

  /** Under -M prepared a text its session sends once goes unnamed; one it sends again, pgjdbc's. */
  @Test
  void underThePreparedModeATextSentOnceGoesUnnamed() {
    assertEquals(Route.JDBC_STATEMENT, Route.JDBC_STATEMENT.prepared(2));
    assertEquals(Route.UNNAMED, Route.JDBC_STATEMENT.prepared(1));
    assertEquals(Route.EXTENDED, Route.EXTENDED.prepared(3));
    assertEquals(Route.EXTENDED_ONCE, Route.EXTENDED.prepared(1));
    for (Route r : new Route[] {Route.QUERY_MESSAGE, Route.COPY_OUT}) {
      assertEquals(r, r.prepared(1));
      assertEquals(r, r.prepared(2));
    }
  }

  @Test
  void aSetDateStyleGoesAsItWillBeSent() {
    // sent() is the rewritten text: one statement, so the query mode decides
    LoggedStatement s =
        new LoggedStatement(
            "log:1",
            Instant.EPOCH,
            null,
            "SET DateStyle = 'SQL, DMY'",
            null,
            null,
            null,
            null,
            "SET DateStyle TO 'ISO, DMY'",
            0,
            0);
    assertEquals(Route.JDBC_STATEMENT, Route.of(s, false));
  }
}
