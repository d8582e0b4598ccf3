package dev.wg1bench.replay.play;

import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.wg1bench.replay.capture.HandMadeLogs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which statements can wait for a row lock, and what each waits for in the replay after its start:
 * everything that ended before it got the lock.
 */
class LockWaitsTest {
  @TempDir Path dir;

  @Test
  void aStatementMayWaitForARowLockOnTheRelationItNames() {
    assertEquals("pgbench_branches", LockWaits.relation("UPDATE pgbench_branches SET x = 1"));
    assertEquals("\"T\"", LockWaits.relation("update only \"T\" set x = 1"));
    assertEquals("s.t", LockWaits.relation("/* app */ DELETE FROM s.t WHERE id = $1"));
    assertEquals("t", LockWaits.relation("MERGE INTO t USING u ON t.id = u.id WHEN ..."));
    assertEquals("t", LockWaits.relation("lock table t in exclusive mode"));
    assertEquals("t", LockWaits.relation("SELECT * FROM t WHERE id = 1 FOR UPDATE"));
    assertEquals("t", LockWaits.relation("select a from t\n where id = 1 for no key update"));
    assertEquals("t", LockWaits.relation("SELECT 1 FROM t FOR SHARE SKIP LOCKED"));
    assertNull(LockWaits.relation("SELECT * FROM t WHERE id = 1"));
    assertNull(LockWaits.relation("INSERT INTO t VALUES (1)"));
    assertNull(LockWaits.relation("BEGIN"));
    assertNull(LockWaits.relation("-- UPDATE t SET x = 1\nCOMMIT"));
  }

  /**
   * The capture's barging grant: c waited 5 ms for the branch row held by a; when a committed, b
   * (arriving just then) took the row before c woke up, so b's UPDATE ended first. Replayed from
   * its start, c would take the row first and b would wait behind a transaction that came after it
   * in the log. c waits after its start for every end before its own (a's COMMIT and b's UPDATE);
   * so does every statement that can wait for a row lock, b and d too (their durations show no
   * wait, but on a log queued on hot rows no duration tells a wait for sure).
   */
  @Test
  void aStatementThatWaitedWaitsAfterItsStartForWhatEndedBeforeItGotTheLock() throws Exception {
    Schedule s =
        schedule(
            log("1.a", "00.090", "connection authorized: user=alice database=app")
                + log("1.b", "00.091", "connection authorized: user=alice database=app")
                + log("1.c", "00.092", "connection authorized: user=alice database=app")
                + log("1.d", "00.093", "connection authorized: user=alice database=app")
                + log("1.a", "00.100", "statement: UPDATE pgbench_branches SET bbalance = 1")
                + log("1.a", "00.100", "duration: 0.020 ms")
                + log("1.c", "00.101", "statement: UPDATE pgbench_branches SET bbalance = 3")
                + log("1.d", "00.102", "statement: UPDATE pgbench_tellers SET tbalance = 3")
                + log("1.d", "00.102", "duration: 0.020 ms")
                + log("1.a", "00.105", "statement: COMMIT")
                + log("1.b", "00.105", "statement: UPDATE pgbench_branches SET bbalance = 2")
                + log("1.a", "00.105", "duration: 0.030 ms")
                + log("1.b", "00.105", "duration: 0.020 ms")
                + log("1.c", "00.106", "duration: 5.000 ms"));
    // ends in the log's order: a UPDATE, d UPDATE, a COMMIT, b UPDATE, c UPDATE, then the sessions
    int c = 2;
    assertEquals(4, s.endRank[c][0], "c's UPDATE ends fifth");
    assertEquals(4, s.grantNeeds[c][0], "c waits for the four ends before its own");
    assertEquals(1, s.endsNeeded[c][1], "from its start alone it would wait for one (a's UPDATE)");
    // b took the row at once, after a's COMMIT: it too waits for the ends before its own (a's
    // UPDATE, d's UPDATE and a's COMMIT), so it cannot take the row before a lets it go
    assertEquals(3, s.grantNeeds[1][0], "b waits for a's COMMIT");
    assertEquals(1, s.grantNeeds[3][0], "d, alone on its relation, for a's UPDATE only");
    assertEquals(-1, s.grantNeeds[0][1], "a COMMIT waits for no row lock");
  }

  @Test
  void aLogWithoutDurationsShowsNoGrant() throws Exception {
    Schedule s =
        schedule(
            log("1.a", "00.090", "connection authorized: user=alice database=app")
                + log("1.b", "00.091", "connection authorized: user=alice database=app")
                + log("1.a", "00.100", "statement: UPDATE t SET x = 1")
                + log("1.b", "00.101", "statement: UPDATE t SET x = 2")
                + log("1.a", "00.150", "statement: COMMIT"));
    assertEquals(-1, s.grantNeeds[0][0]);
    assertEquals(-1, s.grantNeeds[1][0]);
  }

  private Schedule schedule(String content) throws Exception {
    return new Schedule(HandMadeLogs.capture(dir, content).sessions());
  }
}
