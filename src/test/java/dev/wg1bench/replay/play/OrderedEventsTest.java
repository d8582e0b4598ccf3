package dev.wg1bench.replay.play;

import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.replay.capture.Capture;
import dev.wg1bench.replay.capture.HandMadeLogs;
import dev.wg1bench.replay.capture.LoggedSession;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order between sessions keeps what another session can see or contend with, and lets the rest
 * go: a statement inside another session's open block is waited for by no one, its COMMIT is; a
 * BEGIN or a plain SELECT keeps no place among the starts, an UPDATE does.
 */
class OrderedEventsTest {
  @TempDir Path dir;

  private static String session(String sid, String at) {
    return log(sid, at, "connection authorized: user=alice database=app");
  }

  private static String st(String sid, String at, String sql) {
    return log(sid, at, "statement: " + sql) + log(sid, at, "duration: 0.020 ms");
  }

  @Test
  void endsInsideABlockOrderNothingButWhatOthersCanSee() throws Exception {
    Capture c =
        capture(
            session("1.a", "00.010")
                + st("1.a", "00.100", "BEGIN")
                + st("1.a", "00.101", "UPDATE t SET x = x + 1 WHERE id = 1")
                + st("1.a", "00.102", "SELECT x FROM t WHERE id = 1")
                + st("1.a", "00.103", "INSERT INTO h VALUES (1)")
                + st("1.a", "00.104", "SELECT nextval('s')")
                + st("1.a", "00.105", "SAVEPOINT p")
                + st("1.a", "00.106", "ROLLBACK TO SAVEPOINT p")
                + st("1.a", "00.107", "/* app */ SELECT pg_advisory_xact_lock(1)")
                + st("1.a", "00.108", "COMMIT")
                + st("1.a", "00.109", "UPDATE t SET x = 0")
                + st("1.a", "00.110", "begin; update t set x = 2; commit"));
    LoggedSession a = c.sessions().get(0);
    assertArrayEquals(
        new boolean[] {false, false, false, true, true, false, true, true, true, true, true},
        OrderedEvents.ends(a));
    assertArrayEquals(
        new boolean[] {false, true, false, true, true, false, true, true, false, true, true},
        OrderedEvents.starts(a));
  }

  /**
   * A DELETE inside a block holds the keys it deleted: an INSERT after it (a unique key, a child's
   * foreign key) waits for its end, with no grant to keep that order; no other start does, and an
   * UPDATE's end is not kept (the text does not say whether it moved a key).
   */
  @Test
  void aDeleteInsideABlockHoldsItsKeysForTheInsertsAfterIt() throws Exception {
    Capture c =
        capture(
            session("1.a", "00.010")
                + session("1.b", "00.011")
                + st("1.a", "00.100", "BEGIN")
                + st("1.a", "00.101", "DELETE FROM parent WHERE id = 1")
                + st("1.a", "00.102", "with gone as (delete from t returning id) select 1")
                + st("1.a", "00.103", "UPDATE parent SET x = 1 WHERE id = 2")
                + st("1.a", "00.104", "SELECT 'delete'")
                + st("1.b", "00.105", "SELECT x FROM t WHERE id = 1 FOR UPDATE")
                + st("1.b", "00.106", "INSERT INTO child (pid) VALUES (1)")
                + st("1.a", "00.107", "COMMIT")
                + st("1.a", "00.108", "DELETE FROM parent WHERE id = 3"));
    LoggedSession a = c.sessions().get(0);
    assertArrayEquals(
        new boolean[] {false, false, false, false, false, true, true}, OrderedEvents.ends(a));
    assertArrayEquals(
        new boolean[] {false, true, true, false, false, false, false}, OrderedEvents.holdsKeys(a));
    assertArrayEquals(new boolean[] {false, true}, OrderedEvents.waitsForKeys(c.sessions().get(1)));
    Schedule s = new Schedule(c.sessions());
    OrderGate order = new OrderGate(s, false);
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    // nothing has run: b's locking SELECT may go, its INSERT waits for a's DELETEs to end
    int select = s.endsNeeded[1][1];
    int insert = s.endsNeeded[1][2];
    assertEquals(
        OrderGate.Wait.FREE,
        order.await(1, 0, select, OrderGate.Needs.ENDS, "b's SELECT", stop, () -> {}));
    order.ended(s.endRank[1][0]);
    assertEquals(
        OrderGate.Wait.FREE,
        order.await(
            1, 0, insert, OrderGate.Needs.ENDS, "as a start that is no INSERT", stop, () -> {}));
    assertEquals(
        OrderGate.Wait.WAITED,
        order.await(1, 0, insert, OrderGate.Needs.KEYS, "b's INSERT", stop, () -> {}));
    order.ended(s.endRank[0][1]);
    order.ended(s.endRank[0][2]);
    assertEquals(
        OrderGate.Wait.FREE,
        order.await(1, 0, insert, OrderGate.Needs.KEYS, "b's INSERT", stop, () -> {}));
  }

  @Test
  void lockingReadsAndSelectInto() throws Exception {
    Capture c =
        capture(
            session("1.a", "00.010")
                + st("1.a", "00.100", "BEGIN")
                + st("1.a", "00.101", "SELECT * FROM t WHERE id = 1 FOR UPDATE")
                + st("1.a", "00.102", "select * into t2 from t")
                + st("1.a", "00.103", "SELECT f(1)")
                + st("1.a", "00.104", "set local work_mem = '8MB'")
                + st("1.a", "00.105", "EXPLAIN ANALYZE INSERT INTO h VALUES (1)")
                + st("1.a", "00.106", "END"));
    assertArrayEquals(
        new boolean[] {false, true, true, true, false, true, false},
        OrderedEvents.starts(c.sessions().get(0)));
    assertArrayEquals(
        new boolean[] {false, false, false, false, false, true, true},
        OrderedEvents.ends(c.sessions().get(0)),
        "EXPLAIN ANALYZE runs its INSERT, which may draw a sequence");
  }

  /**
   * b's SELECT starts after a's UPDATE ended, inside a's open block: it could not see the UPDATE,
   * so it waits for nothing; b's second SELECT starts after a's COMMIT and waits for it.
   */
  @Test
  void aStartWaitsForAnotherSessionsCommitNotForWhatItsBlockDidBefore() throws Exception {
    Capture c =
        capture(
            session("1.a", "00.010")
                + session("1.b", "00.011")
                + st("1.a", "00.100", "BEGIN")
                + st("1.a", "00.101", "UPDATE t SET x = 1")
                + st("1.b", "00.102", "SELECT x FROM t")
                + st("1.a", "00.103", "COMMIT")
                + st("1.b", "00.104", "SELECT x FROM t"));
    Schedule s = new Schedule(c.sessions());
    OrderGate order = new OrderGate(s, true);
    int first = s.endsNeeded[1][1];
    int second = s.endsNeeded[1][2];
    assertEquals(2, first, "by rank it comes after a's BEGIN and UPDATE");
    assertFalse(s.endOrders[s.endRank[0][1]], "a's UPDATE, inside its block, orders nothing");
    assertTrue(s.endOrders[s.endRank[0][2]], "a's COMMIT orders");
    // the order lets b's first SELECT go while a's block is open; its second waits for a's COMMIT
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    order.started(s.startRank[0][0]);
    order.started(s.startRank[1][0]);
    order.started(s.startRank[0][1]);
    order.ended(s.endRank[0][0]);
    order.started(s.startRank[0][2]);
    assertEquals(
        OrderGate.Wait.FREE,
        order.await(1, 0, first, OrderGate.Needs.ENDS, "b's first SELECT", stop, () -> {}));
    stop.set(true);
    assertEquals(
        OrderGate.Wait.WAITED,
        order.await(1, 0, second, OrderGate.Needs.ENDS, "b's second SELECT", stop, () -> {}),
        "stopped while waiting for a's COMMIT");
  }

  /**
   * b's UPDATE waited for a's row in the capture (5 ms where the other took 0.02) and got it when
   * a's COMMIT let go: its grant waits for a's COMMIT to be sent, not to come back, so it queues
   * for the row in the server as it did; a start after the COMMIT still waits for its end.
   */
  @Test
  void aGrantWaitsForTheCommitToBeSentAStartForItsEnd() throws Exception {
    Capture c =
        capture(
            session("1.a", "00.010")
                + session("1.b", "00.011")
                + st("1.a", "00.100", "BEGIN")
                + st("1.a", "00.101", "UPDATE t SET x = 1 WHERE id = 1")
                + st("1.b", "00.102", "BEGIN")
                + log("1.b", "00.103", "statement: UPDATE t SET x = 2 WHERE id = 1")
                + st("1.a", "00.104", "COMMIT")
                + log("1.b", "00.108", "duration: 5.000 ms")
                + st("1.b", "00.109", "COMMIT")
                + st("1.a", "00.110", "SELECT x FROM t"));
    assertArrayEquals(
        new boolean[] {false, false, true, false}, OrderedEvents.letsGo(c.sessions().get(0)));
    Schedule s = new Schedule(c.sessions());
    int commit = s.endRank[0][2];
    assertTrue(s.endLetsGo[commit]);
    int grant = s.grantNeeds[1][1];
    assertTrue(grant > commit, "b's UPDATE got the row after a's COMMIT");
    OrderGate order = new OrderGate(s, true);
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    for (int r = 0; r < commit; r++) {
      order.ended(r);
    }
    order.releasing(commit);
    assertEquals(
        OrderGate.Wait.FREE,
        order.await(1, 0, grant, OrderGate.Needs.RELEASES, "b's UPDATE", stop, () -> {}));
    stop.set(true);
    assertEquals(
        OrderGate.Wait.WAITED,
        order.await(0, 0, s.endsNeeded[0][4], OrderGate.Needs.ENDS, "a's SELECT", stop, () -> {}),
        "a start after the COMMIT waits for its end");
  }

  private Capture capture(String content) throws Exception {
    return HandMadeLogs.capture(dir, content);
  }
}
