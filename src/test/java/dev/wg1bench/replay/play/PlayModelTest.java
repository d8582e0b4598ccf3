package dev.wg1bench.replay.play;

import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.wg1bench.replay.capture.Capture;
import dev.wg1bench.replay.capture.HandMadeLogs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the player makes of a capture, on small hand-made logs: how an outcome differing from the
 * log's is named, and the order between sessions.
 */
class PlayModelTest {
  @TempDir Path dir;

  private Capture read(String content) throws Exception {
    return HandMadeLogs.capture(dir, content);
  }

  @Test
  void errorsWithoutSqlStateAgreeAsErrorsOnly() {
    assertNull(Outcomes.cause("?????", "23505"));
    assertEquals(Outcomes.REPLAY_ONLY, Outcomes.cause("ok", "23505"));
    assertEquals(Outcomes.LOG_ONLY, Outcomes.cause("?????", "ok"));
    assertEquals(Outcomes.OTHER_STATE, Outcomes.cause("23505", "40001"));
    assertEquals(Outcomes.DRIVER, Outcomes.cause("08006", "driver 08006"));
  }

  @Test
  void aStartWaitsForWhatEndedBeforeItInOtherSessionsAndForEarlierStarts() throws Exception {
    // session a: INSERT 0.100-0.105, COMMIT 0.110-0.111; session b connects at 0.107 and sends
    // a statement at 0.112: it waits for a's INSERT end (before its connection) and COMMIT end
    Capture c =
        read(
            log("1.a", "00.090", "connection authorized: user=alice database=app")
                + log("1.a", "00.100", "statement: INSERT INTO t VALUES (1)")
                + log("1.a", "00.105", "duration: 5.000 ms")
                + log("1.b", "00.107", "connection authorized: user=alice database=app")
                + log("1.a", "00.110", "statement: COMMIT")
                + log("1.a", "00.111", "duration: 1.000 ms")
                + log("1.b", "00.112", "statement: SELECT * FROM t")
                + log("1.b", "00.113", "duration: 1.000 ms")
                + log("1.a", "00.120", "disconnection: session time: 0:00:00.030")
                + log("1.b", "00.121", "disconnection: session time: 0:00:00.014"));
    Schedule s = new Schedule(c.sessions());
    // ends in order: a INSERT 0.105, a COMMIT 0.111, b SELECT 0.113, a gone 0.120, b gone 0.121
    assertEquals(0, s.endRank[0][0]);
    assertEquals(1, s.endRank[0][1]);
    assertEquals(2, s.endRank[1][0]);
    assertEquals(1, s.endsNeeded[1][0], "b's connection waits for a's INSERT");
    assertEquals(2, s.endsNeeded[1][1], "b's SELECT waits for a's COMMIT too");
    // starts in order: a conn, a INSERT, b conn, a COMMIT, b SELECT
    assertEquals(2, s.startRank[1][0]);
    assertEquals(4, s.startRank[1][1]);
  }

  /**
   * The watchdog reads the server's lock view and the order one after the other: a session whose
   * COMMIT was still flushing when the view was read may be waiting at the order for its next
   * statement by the time the order is read, and that pair of views shows a cycle that never was.
   * So the cycle check sees only waits that began before the view was read: a wait begun after is
   * not in the graph, one begun before is, with whom it waits on.
   */
  @Test
  void theCycleGraphHoldsOnlyWaitsBegunBeforeTheServersView() throws Exception {
    Capture c =
        read(
            log("1.a", "00.090", "connection authorized: user=alice database=app")
                + log("1.b", "00.091", "connection authorized: user=alice database=app")
                + log("1.a", "00.100", "statement: UPDATE t SET v = 1")
                + log("1.a", "00.105", "duration: 5.000 ms")
                + log("1.b", "00.110", "statement: UPDATE t SET v = 2")
                + log("1.b", "00.111", "duration: 1.000 ms"));
    Schedule s = new Schedule(c.sessions());
    OrderGate gate = new OrderGate(s, true);
    // both connections have gone; b's UPDATE waits for a's (its start and its end)
    gate.started(s.startRank[0][0]);
    gate.started(s.startRank[1][0]);
    long viewRead = System.nanoTime();
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    Thread b =
        new Thread(
            () ->
                gate.await(
                    1,
                    s.startRank[1][1],
                    s.endsNeeded[1][1],
                    OrderGate.Needs.ENDS,
                    "b",
                    stop,
                    () -> {}));
    b.start();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (gate.waiting() == 0 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertEquals(1, gate.waiting());
    assertEquals(java.util.Map.of(), gate.waitsOn(viewRead), "begun after the view: not seen");
    assertEquals(
        java.util.Map.of(1, java.util.Set.of(0)),
        gate.waitsOn(System.nanoTime()),
        "begun before: waits on a");
    stop.set(true);
    b.join();
  }
}
