package dev.wg1bench.replay.play;

import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.replay.capture.HandMadeLogs;
import dev.wg1bench.replay.capture.LoggedSession;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A row lock's grant proves the transaction that held the row over: session b's UPDATE of row
 * {@code t.id = 1} waited in the capture for a's COMMIT, and when it comes back in the replay
 * having changed the row, a's COMMIT is marked done, but only when a had changed that row inside a
 * block that could not let go of it before its end, and b's own lock is still held (b inside a
 * block).
 */
class LockProofsTest {
  @TempDir Path dir;

  private static final String A_UPDATE = "UPDATE t SET x = x + 1 WHERE id = 1";

  private static String st(String sid, String at, String sql, String end, String ms) {
    return log(sid, at, "statement: " + sql) + log(sid, end, "duration: " + ms + " ms");
  }

  /**
   * a holds row 1 from 00.101 to its COMMIT's end at 00.105 (its statements BEGIN, UPDATE, COMMIT,
   * a SAVEPOINT before the UPDATE where asked); b's UPDATE gets it at 00.106.
   */
  private static String contended(boolean savepoint, String bUpdate, String bBegin) {
    return log("1.a", "00.010", "connection authorized: user=alice database=app")
        + log("1.b", "00.011", "connection authorized: user=alice database=app")
        + st("1.a", "00.100", "BEGIN", "00.100", "0.010")
        + (savepoint ? st("1.a", "00.100", "SAVEPOINT s", "00.100", "0.010") : "")
        + st("1.a", "00.101", A_UPDATE, "00.101", "0.100")
        + st("1.a", "00.103", "COMMIT", "00.105", "2.000")
        + st("1.b", "00.102", bBegin, "00.102", "0.010")
        + st("1.b", "00.102", bUpdate, "00.106", "4.000")
        + st("1.b", "00.107", "INSERT INTO h VALUES (1)", "00.107", "0.050")
        + st("1.b", "00.108", "COMMIT", "00.109", "1.000");
  }

  private record Play(Schedule schedule, OrderGate order, LockProofs proofs) {
    int aCommit() {
      return schedule.endRank[0][schedule.endRank[0].length - 2];
    }

    /** a's UPDATE (statement aAt) and then b's come back, each having changed its row; proofs. */
    long bothChanged(int aAt) {
      proofs.cameBack(0, aAt, true, 1, System.nanoTime());
      proofs.cameBack(1, 1, true, 1, System.nanoTime());
      return proofs.proofs.get();
    }
  }

  private Play play(String content) throws Exception {
    List<LoggedSession> sessions = HandMadeLogs.capture(dir, content).sessions();
    Map<String, Map<String, TableFacts.Table>> tables = new HashMap<>();
    tables.put(
        null,
        Map.of(
            "t", new TableFacts.Table(false, Set.of("id")),
            "h", new TableFacts.Table(true, Set.of())));
    TableFacts facts = TableFacts.of(tables);
    Schedule s = new Schedule(sessions, facts);
    OrderGate order = new OrderGate(s, true);
    return new Play(s, order, new LockProofs(sessions, s, order, facts, new AtomicLong()));
  }

  @Test
  void bGettingTheRowProvesAsCommitOver() throws Exception {
    Play p = play(contended(false, "UPDATE t SET x = x + 2 WHERE id = 1", "BEGIN"));
    assertTrue(p.schedule.grantNeeds[1][1] > p.aCommit(), "b got the row after a's COMMIT");
    assertEquals(1, p.bothChanged(1));
    assertFalse(p.order.endedOnce(p.aCommit(), System.nanoTime()), "marked done already");
  }

  @Test
  void nothingIsProvedWithoutBothChanges() throws Exception {
    Play p = play(contended(false, "UPDATE t SET x = x + 2 WHERE id = 1", "BEGIN"));
    // a's UPDATE has not come back: b may have taken the row first
    p.proofs.cameBack(1, 1, true, 1, System.nanoTime());
    assertEquals(0, p.proofs.proofs.get());
    p.proofs.cameBack(0, 1, true, 0, System.nanoTime());
    p.proofs.cameBack(1, 1, true, 1, System.nanoTime());
    assertEquals(0, p.proofs.proofs.get(), "a changed no row: it holds no lock");
    p.proofs.cameBack(0, 1, true, 1, System.nanoTime());
    p.proofs.cameBack(1, 1, true, 0, System.nanoTime());
    p.proofs.cameBack(1, 1, false, 1, System.nanoTime());
    assertEquals(0, p.proofs.proofs.get(), "b changed nothing, or failed");
    assertTrue(p.order.endedOnce(p.aCommit(), System.nanoTime()), "a's COMMIT still open");
  }

  @Test
  void anotherRowProvesNothing() throws Exception {
    Play p = play(contended(false, "UPDATE t SET x = x + 2 WHERE id = 2", "BEGIN"));
    assertEquals(0, p.bothChanged(1));
  }

  @Test
  void aBlockThatCanLetGoOfTheRowEarlyProvesNothing() throws Exception {
    // a subtransaction rolled back lets go of its locks before the block ends
    Play p = play(contended(true, "UPDATE t SET x = x + 2 WHERE id = 1", "BEGIN"));
    assertEquals(0, p.bothChanged(2));
  }

  @Test
  void bOutsideABlockProvesNothing() throws Exception {
    // its lock went with its own end, before its reply: a may have had the row since
    Play p = play(contended(false, "UPDATE t SET x = x + 2 WHERE id = 1", "SELECT 1"));
    assertEquals(0, p.bothChanged(1));
  }

  @Test
  void anInsertIntoAPlainTableKeepsNoPlaceAndWaitsForNoKey() throws Exception {
    Play p = play(contended(false, "UPDATE t SET x = x + 2 WHERE id = 1", "BEGIN"));
    int insert = p.schedule.startRank[1][3];
    assertFalse(p.schedule.startOrders[insert], "the INSERT into h keeps no place");
    // its end still orders: the block's row locks are all held once it ends
    assertTrue(p.schedule.endOrders[p.schedule.endRank[1][2]]);
    assertFalse(p.schedule.waitsForKeys[1][2], "h has no key to wait for");
    // still after a's COMMIT, which ended before it started
    assertTrue(p.schedule.endsNeeded[1][3] > p.aCommit());
  }
}
