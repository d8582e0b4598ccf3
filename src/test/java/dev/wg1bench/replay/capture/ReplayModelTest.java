package dev.wg1bench.replay.capture;

import static dev.wg1bench.replay.capture.HandMadeLogs.csv;
import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a log becomes what a replay sends, on small hand-made logs: statement order whatever the
 * timestamps say, which record ends which statement, what cannot be sent, transactions of
 * multi-statement strings.
 */
class ReplayModelTest {
  @TempDir Path dir;

  private Capture read(String content) throws Exception {
    return HandMadeLogs.capture(dir, content);
  }

  private static List<String> sql(Capture c, int session) {
    return c.sessions().get(session).statements().stream().map(LoggedStatement::sql).toList();
  }

  private static String durationOf(String sid, String time, double ms, String sql) {
    return log(sid, time, "duration: " + ms + " ms  statement: " + sql);
  }

  @Test
  void statementsLoggedAtTheirEndKeepTheLogsOrderWhateverTheirDurations() throws Exception {
    // log_min_duration_statement = 0 alone: each record is the statement's end; a long INSERT
    // ending at the same millisecond as the BEGIN after it must not move before it
    Capture c =
        read(
            durationOf("1.a", "00.100", 0.05, "BEGIN")
                + durationOf("1.a", "00.100", 0.08, "INSERT INTO t VALUES (10)")
                + durationOf("1.a", "00.101", 0.04, "ROLLBACK")
                + durationOf("1.a", "00.101", 3.5, "INSERT INTO t VALUES (2)")
                + durationOf("1.a", "00.102", 0.03, "COMMIT"));
    assertEquals(
        List.of(
            "BEGIN", "INSERT INTO t VALUES (10)", "ROLLBACK", "INSERT INTO t VALUES (2)", "COMMIT"),
        sql(c, 0));
    List<LoggedStatement> st = c.sessions().get(0).statements();
    for (int i = 1; i < st.size(); i++) {
      assertTrue(!st.get(i).time().isBefore(st.get(i - 1).time()), "start times never run back");
    }
    // 00.101 less 3.5 ms, to the microsecond, is before the ROLLBACK's: clamped to it
    assertEquals(st.get(2).time(), st.get(3).time());
    assertEquals(3.5, st.get(3).logDurationMs());
  }

  @Test
  void aDurationEndsTheStatementStillOpenAndAnErrorWithAnotherTextIsAStatementOfItsOwn()
      throws Exception {
    // log_statement = 'mod' with durations: an INSERT at its start then its bare duration; a
    // SELECT only at its end; an INSERT that failed: its start then its error
    Capture c =
        read(
            log("1.a", "00.100", "statement: INSERT INTO t VALUES (1)")
                + log("1.a", "00.101", "duration: 0.500 ms")
                + durationOf("1.a", "00.103", 1.0, "SELECT 1")
                + log("1.a", "00.104", "statement: INSERT INTO t VALUES (1)")
                + csv(
                    "00.105",
                    "1.a",
                    "ERROR",
                    "23505",
                    "duplicate key",
                    null,
                    "INSERT INTO t VALUES (1)",
                    "psql",
                    "client backend")
                + csv(
                    "00.106",
                    "1.a",
                    "ERROR",
                    "42P01",
                    "relation does not exist",
                    null,
                    "SELECT * FROM nowhere",
                    "psql",
                    "client backend"));
    List<LoggedStatement> st = c.sessions().get(0).statements();
    assertEquals(4, st.size(), st.toString());
    assertEquals("ok", st.get(0).logOutcome());
    assertEquals(0.5, st.get(0).logDurationMs());
    assertEquals("ok", st.get(1).logOutcome());
    assertEquals("23505", st.get(2).logOutcome());
    assertEquals("SELECT * FROM nowhere", st.get(3).sql());
    assertEquals("42P01", st.get(3).logOutcome());
    assertNull(st.get(3).parameters(), "an error's statement goes as a simple Query");
  }

  @Test
  void whatCannotBeSentAsLoggedIsSkippedOrSentChanged() throws Exception {
    Capture c =
        read(
            log("1.a", "00.100", "statement: COPY t FROM STDIN")
                + log("1.a", "00.101", "statement: copy t from stdout")
                + log("1.a", "00.102", "statement: COPY t TO STDOUT")
                + log("1.a", "00.103", "statement: SET client_encoding TO 'LATIN9'")
                + log("1.a", "00.104", "statement: SET client_encoding = 'UTF8'")
                + log("1.a", "00.105", "statement: SET DateStyle TO 'Postgres, DMY'")
                + log("1.a", "00.106", "statement: SET datestyle = German")
                + log("1.a", "00.107", "statement: SET DateStyle = 'ISO, YMD'")
                + log("1.a", "00.108", "fastpath function call: \"lo_open\" (OID 952)"));
    List<LoggedStatement> st = c.sessions().get(0).statements();
    assertEquals(Replayable.COPY_IN, st.get(0).skip());
    assertEquals(Replayable.COPY_IN, st.get(1).skip(), "FROM STDOUT reads from the client too");
    assertNull(st.get(2).skip());
    assertTrue(Replayable.copyOut(st.get(2).sql()));
    assertEquals(Replayable.ENCODING, st.get(3).skip());
    assertNull(st.get(4).skip());
    assertEquals("SET DateStyle TO 'ISO, DMY'", st.get(5).sent());
    assertEquals("SET DateStyle TO 'ISO, DMY'", st.get(6).sent(), "German implies DMY");
    assertEquals("SET DateStyle = 'ISO, YMD'", st.get(7).sent());
    assertEquals(Replayable.FASTPATH, st.get(8).skip());
    assertEquals(4, c.notReplayable());
    assertEquals(2, c.rewritten());
  }

  @Test
  void aBlockWithACopyIsSkippedWholeWhenAsked() throws Exception {
    Capture c =
        read(
            log("1.a", "00.100", "statement: BEGIN")
                + log("1.a", "00.101", "statement: CREATE TABLE u (x int)")
                + log("1.a", "00.102", "statement: COPY u FROM STDIN")
                + log("1.a", "00.103", "statement: COMMIT")
                + log("1.a", "00.104", "statement: SELECT 1"));
    Capture skipped = c.skippingCopyBlocks();
    List<LoggedStatement> st = skipped.sessions().get(0).statements();
    assertEquals(Replayable.IN_COPY_BLOCK, st.get(0).skip());
    assertEquals(Replayable.IN_COPY_BLOCK, st.get(1).skip());
    assertEquals(Replayable.COPY_IN, st.get(2).skip());
    assertEquals(Replayable.IN_COPY_BLOCK, st.get(3).skip());
    assertNull(st.get(4).skip());
    assertEquals(1, c.notReplayable(), "by default only the COPY");
  }

  @Test
  void aMultiStatementStringIsOneTransactionUnlessItOpensOrClosesABlock() {
    assertEquals(
        1, Transactions.count(List.of("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)")));
    assertEquals(1, Transactions.count(List.of("begin; select 1; commit;")));
    assertEquals(2, Transactions.count(List.of("insert into t values (1); commit; select 2")));
    Transactions.Counter open = new Transactions.Counter();
    assertEquals(
        0, open.add("select 1; begin; select 2"), "BEGIN turns the implicit block explicit");
    assertTrue(open.inBlock());
    assertEquals(1, open.add("COMMIT"));
    assertEquals(0, Transactions.count(List.of("COMMIT")), "a COMMIT outside a block is a no-op");
  }

  @Test
  void partsSplitAtSemicolonsOutsideLiteralsQuotesAndBodies() {
    assertEquals(
        List.of(
            "SELECT ';'",
            "CREATE FUNCTION f() RETURNS int AS $b$ SELECT 1; $b$ LANGUAGE sql",
            "SELECT \"a;b\" /* ; /* nested ; */ */ FROM x -- ;"),
        SqlText.parts(
            "SELECT ';'; CREATE FUNCTION f() RETURNS int AS $b$ SELECT 1; $b$ LANGUAGE sql;"
                + " SELECT \"a;b\" /* ; /* nested ; */ */ FROM x -- ;\n"));
    assertEquals(List.of("SELECT 1"), SqlText.parts("SELECT 1;;  ;"));
  }

  /** Sessions are not clients: what a replay opens at once is the log's most concurrent ones. */
  @Test
  void concurrentSessionsAreTheMostOpenAtOnceNotTheSessionCount() throws Exception {
    assertEquals(1, read(HandMadeLogs.serialSessions(10_001)).concurrentSessions());
    // two sessions that overlap, a third after both
    Capture c =
        read(
            log("1.a", "00.100", "connection authorized: user=alice database=app")
                + log("1.b", "00.110", "connection authorized: user=alice database=app")
                + log("1.a", "00.120", "statement: SELECT 1")
                + log("1.a", "00.130", "disconnection: session time: 0:00:00.030")
                + log("1.b", "00.140", "statement: SELECT 2")
                + log("1.c", "00.150", "statement: SELECT 3"));
    assertEquals(3, c.sessions().size());
    assertEquals(2, c.concurrentSessions());
  }
}
