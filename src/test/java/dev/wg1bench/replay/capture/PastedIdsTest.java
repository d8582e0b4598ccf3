package dev.wg1bench.replay.capture;

import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which statements hold a transaction id of the capture's server, and where the replay reads its
 * own id of that transaction: the point must fall inside the transaction after the id was given,
 * whichever lines of the log show it (a statement's start, or only its end).
 */
class PastedIdsTest {
  @TempDir Path dir;

  private static final String CONNECT = "connection authorized: user=alice database=app";

  /** log_statement = all only: the id shows on the start of the statements after it was given. */
  @Test
  void anIdShownAtAStartIsReadBeforeThatStatement() throws Exception {
    Capture c =
        HandMadeLogs.capture(
            dir,
            log("1.a", "00.000", CONNECT)
                + log("1.a", "00.010", "statement: BEGIN")
                + log("1.a", "00.020", "statement: SELECT pg_current_xact_id()")
                + log("1.a", "00.030", "statement: COMMIT", 9001)
                + log("1.a", "00.040", "statement: SELECT pg_xact_status('9001'::xid8)")
                + log("1.a", "00.050", "statement: SELECT 9001 AS not_an_id_question"));
    PastedIds p = PastedIds.of(c.sessions());
    assertEquals(1, p.pasted());
    // statements: BEGIN, SELECT pg_current_xact_id(), COMMIT, the status, the plain SELECT
    assertEquals(9001, p.learnAfter(0, 1), "read after the statement that was given the id");
    assertEquals(0, p.learnAfter(0, 2), "not after the COMMIT: the transaction is over");
    assertTrue(p.pastesXids(0, 3));
    assertFalse(
        p.pastesXids(0, 4), "a statement with no word of transaction ids keeps its numbers");
  }

  /** Durations logged: the statement that was given the id shows it at its end. */
  @Test
  void anIdShownAtAnEndIsReadAfterThatStatement() throws Exception {
    Capture c =
        HandMadeLogs.capture(
            dir,
            log("1.a", "00.000", CONNECT)
                + log("1.a", "00.010", "statement: BEGIN")
                + log("1.a", "00.011", "duration: 0.1 ms")
                + log("1.a", "00.020", "statement: SELECT txid_current()")
                + log("1.a", "00.021", "duration: 0.1 ms", 77)
                + log("1.a", "00.030", "statement: SELECT txid_status(77)", 77)
                + log("1.a", "00.031", "duration: 0.1 ms", 77));
    PastedIds p = PastedIds.of(c.sessions());
    assertEquals(77, p.learnAfter(0, 1));
    assertEquals(0, p.learnAfter(0, 0));
    assertTrue(p.pastesXids(0, 2));
  }

  @Test
  void onlyWholeNumbersTheLogShowsAsIdsAreIds() {
    Set<Long> logged = Set.of(724L, 725L);
    assertEquals(
        List.of(724L, 725L),
        PastedIds.ids(st("SELECT pg_xact_status(724::text::xid8), txid_status(725 + 10)"), logged));
    assertEquals(
        List.of(),
        PastedIds.ids(st("SELECT t724.xmin, 724.5, $724 FROM t724 WHERE a = 7240"), logged));
    // a 64-bit id carries its epoch above the 32 bits the log shows
    assertEquals(
        List.of(724L), PastedIds.ids(st("SELECT txid_status(" + ((1L << 32) + 724) + ")"), logged));
    assertEquals(
        List.of(725L),
        PastedIds.ids(
            new LoggedStatement(
                "log:1",
                null,
                null,
                "SELECT txid_status($1)",
                List.of("725"),
                null,
                null,
                null,
                null,
                0,
                0),
            logged));
  }

  @Test
  void theWordsOfTransactionIdsInAnyCase() {
    for (String t :
        new String[] {
          "pg_xact_status(1)", "TXID_STATUS(1)", "x::XID8", "SELECT xmin", "t.XMax", "pg_snapshot"
        }) {
      assertTrue(PastedIds.idWords(t), t);
    }
    for (String t : new String[] {"SELECT 1", "max(x)", "ux_id", "snap shot", ""}) {
      assertFalse(PastedIds.idWords(t), t);
    }
  }

  @Test
  void theReplaysIdsGoInPlaceOfTheCapturesOfTheSameWidth() {
    Map<Long, Long> replay = Map.of(724L, (1L << 32) + 31L);
    LoggedStatement out =
        PastedIds.translated(
            st("SELECT pg_xact_status(724::xid8), txid_status(" + ((1L << 32) + 724) + "), 725"),
            id -> replay.getOrDefault(id, -1L));
    assertEquals(
        "SELECT pg_xact_status(31::xid8), txid_status(" + ((1L << 32) + 31) + "), 725", out.sent());
    assertEquals("SELECT pg_xact_status(724::xid8), txid_status(4294968020), 725", out.sql());
    assertNull(PastedIds.translated(st("SELECT pg_xact_status(725::xid8)"), id -> -1));
  }

  @Test
  void aTemporarySchemaNamedByItsNumberIsTheSessionsOwn() {
    assertTrue(PastedIds.tempSchemaNamed("REINDEX SCHEMA CONCURRENTLY pg_temp_3;"));
    assertTrue(PastedIds.tempSchemaNamed("SELECT a_b FROM Pg_Temp_3.t"), "after another '_'");
    assertFalse(PastedIds.tempSchemaNamed("SELECT * FROM pg_temp.t"), "pg_temp is already its own");
    assertFalse(PastedIds.tempSchemaNamed("SELECT nspname LIKE 'pg_temp%' FROM pg_namespace"));
    assertFalse(PastedIds.tempSchemaNamed("SELECT * FROM \"pg_temp_3\".t"), "a quoted name stays");
    LoggedStatement out =
        PastedIds.withTempSchema(
            st("SELECT pg_temp_3.f(), PG_TOAST_TEMP_3.x FROM pg_temp_3.t"), 12);
    assertEquals("SELECT pg_temp_12.f(), PG_TOAST_TEMP_12.x FROM pg_temp_12.t", out.sent());
  }

  private static LoggedStatement st(String sql) {
    return new LoggedStatement("log:1", null, null, sql, null, null, null, null, null, 0, 0);
  }
}
