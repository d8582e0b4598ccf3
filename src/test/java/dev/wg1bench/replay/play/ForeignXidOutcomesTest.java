package dev.wg1bench.replay.play;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.replay.capture.LoggedStatement;
import dev.wg1bench.replay.result.ReplayResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A transaction id the capture's server assigned, pasted into a later statement (PostgreSQL's own
 * xid test reads {@code pg_current_xact_id()} with psql's \gset), is "in the future" on a replay
 * cluster that has not reached it, and the rest of its block then fails with 25P02: the replay
 * counts those as divergences, as before, and names why; anything else failing in the replay only
 * keeps its plain cause.
 */
class ForeignXidOutcomesTest {
  private static final LoggedSession A = session("a");
  private static final LoggedSession B = session("b");

  private static LoggedSession session(String id) {
    return new LoggedSession(id, "u", "db", null, Instant.EPOCH, null, List.of());
  }

  private static LoggedStatement st(String sql) {
    return new LoggedStatement(
        "log:1", Instant.EPOCH, null, sql, null, null, null, null, null, 0, 0);
  }

  private static StatementSender.Sent ok() {
    return new StatementSender.Sent("ok", null, 0, 1, false, false);
  }

  private static StatementSender.Sent failed(String state, String message) {
    return new StatementSender.Sent(state, message, 0, 0, false, false);
  }

  private static final String ABORTED =
      "ERROR: current transaction is aborted, commands ignored until end of transaction block";

  @Test
  void theCapturesTransactionIdAndTheRestOfItsBlockAreNamedAndStillCounted() {
    Outcomes o = new Outcomes();
    o.compared(A, st("BEGIN"), ok());
    o.compared(
        A,
        st("SELECT pg_xact_status(1744::text::xid8)"),
        failed("22023", "ERROR: transaction ID 1744 is in the future"));
    o.compared(A, st("SELECT pg_xact_status(1745::text::xid8)"), failed("25P02", ABORTED));
    // another session's 25P02 is its own block's, whatever failed it
    o.compared(B, st("SELECT 1"), failed("25P02", ABORTED));
    o.compared(A, st("SELECT pg_xact_status('1'::xid8)"), failed("25P02", ABORTED));
    o.compared(A, st("COMMIT"), ok());
    // the block is over: a later 25P02 of the same session is not named after it
    o.compared(A, st("SELECT 2"), failed("25P02", ABORTED));
    o.compared(A, st("INSERT INTO t VALUES (1)"), failed("23505", "ERROR: duplicate key"));

    ReplayResult.StatementFidelity f = o.result();
    assertEquals(8, f.compared());
    assertEquals(6, f.divergent(), "named, never hidden");
    assertEquals(
        Map.of(
            Outcomes.FOREIGN_XID, 1L,
            Outcomes.IN_FOREIGN_XID_BLOCK, 2L,
            Outcomes.REPLAY_ONLY, 3L),
        f.divergentByCause());
  }

  @Test
  void a22023ThatNamesNoTransactionIdKeepsItsPlainCause() {
    Outcomes o = new Outcomes();
    o.compared(A, st("SET work_mem = 'x'"), failed("22023", "ERROR: invalid value for parameter"));
    o.compared(A, st("SELECT 1"), failed("25P02", ABORTED));
    assertEquals(Map.of(Outcomes.REPLAY_ONLY, 2L), o.result().divergentByCause());
  }
}
