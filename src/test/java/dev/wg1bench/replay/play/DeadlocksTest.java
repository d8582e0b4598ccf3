package dev.wg1bench.replay.play;

import static dev.wg1bench.replay.capture.HandMadeLogs.csv;
import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.replay.capture.Capture;
import dev.wg1bench.replay.capture.HandMadeLogs;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The log's deadlocks as the replay's statements: the victim is the statement that failed with
 * 40P01, each partner the statement its session was running when the victim failed (not the one it
 * started just after, in the same millisecond), and a partner's grant does not wait for the
 * victim's failure, which in the replay comes only once the partner is sent.
 */
class DeadlocksTest {
  @TempDir Path dir;

  private static final String V = "5f000000.65"; // pid 101
  private static final String P = "5f000000.66"; // pid 102
  private static final String N = "5f000000.67"; // pid 103

  private static final String DETAIL =
      "Process 101 waits for ShareLock on transaction 8; blocked by process 102.\n"
          + "Process 102 waits for ShareLock on transaction 7; blocked by process 101.\n"
          + "Process 101: UPDATE t SET x = 1 WHERE id = 2\n"
          + "Process 102: UPDATE t SET x = 2 WHERE id = 1";

  /** Session V updates rows 1 then 2, session P rows 2 then 1; V fails, P's wait ends with it. */
  private Capture capture(String detail) throws Exception {
    String v2 = "UPDATE t SET x = 1 WHERE id = 2";
    return HandMadeLogs.capture(
        dir,
        log(V, "00.100", "statement: BEGIN")
            + log(V, "00.100", "duration: 0.010 ms")
            + log(P, "00.105", "statement: BEGIN")
            + log(P, "00.105", "duration: 0.010 ms")
            + log(V, "00.110", "statement: UPDATE t SET x = 1 WHERE id = 1")
            + log(V, "00.111", "duration: 0.500 ms")
            + log(P, "00.120", "statement: UPDATE t SET x = 2 WHERE id = 2")
            + log(P, "00.121", "duration: 0.500 ms")
            + log(V, "00.130", "statement: " + v2)
            + log(P, "00.150", "statement: UPDATE t SET x = 2 WHERE id = 1")
            + csv(
                "00.200",
                V,
                "ERROR",
                "40P01",
                "deadlock detected",
                detail,
                v2,
                "psql",
                "client backend")
            + log(P, "00.200", "duration: 50.000 ms")
            + log(P, "00.200", "statement: COMMIT")
            + log(V, "00.201", "statement: ROLLBACK")
            + log(P, "00.202", "duration: 1.000 ms")
            + log(V, "00.202", "duration: 0.010 ms"));
  }

  @Test
  void aDeadlockIsItsVictimsFailureAndThePartnersStatementInFlight() throws Exception {
    Capture c = capture(DETAIL);
    assertEquals(1, c.deadlocks().size());
    assertEquals(java.util.List.of(102L), c.deadlocks().get(0).others());
    Deadlocks d = Deadlocks.of(c.sessions(), c.deadlocks());
    assertEquals(0, d.unresolved);
    assertEquals(1, d.cycles.size());
    Deadlocks.Cycle cycle = d.cycles.get(0);
    assertEquals(V, c.sessions().get(cycle.session()).id());
    assertEquals(2, cycle.statement());
    assertEquals(1, cycle.partners().size());
    int[] partner = cycle.partners().get(0);
    assertEquals(P, c.sessions().get(partner[0]).id());
    // its UPDATE of row 1, not the COMMIT it started in the same millisecond after the error
    assertArrayEquals(new int[] {partner[0], 2}, partner);
  }

  @Test
  void aPartnersGrantDoesNotWaitForItsVictimsFailure() throws Exception {
    Capture c = capture(DETAIL);
    Deadlocks d = Deadlocks.of(c.sessions(), c.deadlocks());
    Deadlocks.Cycle cycle = d.cycles.get(0);
    int[] p = cycle.partners().get(0);
    Schedule as = new Schedule(c.sessions(), TableFacts.NONE);
    Schedule steered = new Schedule(c.sessions(), TableFacts.NONE, d);
    int failed = as.endRank[cycle.session()][cycle.statement()];
    // as logged, the partner got its row after the victim failed: its grant would wait for that
    assertTrue(as.grantNeeds[p[0]][p[1]] > failed, "grant needs " + as.grantNeeds[p[0]][p[1]]);
    assertEquals(failed, steered.grantNeeds[p[0]][p[1]]);
    // cue groups: the victim waits for its partners' statements, those behind it for its own
    assertArrayEquals(new int[] {p[0]}, steered.cueMembers[0]);
    assertArrayEquals(new int[] {cycle.session()}, steered.cueMembers[1]);
  }

  @Test
  void aDeadlockWithoutItsCycleOrItsPartnerIsNotSteered() throws Exception {
    assertTrue(capture(null).deadlocks().isEmpty(), "no DETAIL: no cycle");
    String elsewhere =
        "Process 101 waits for ShareLock on transaction 8; blocked by process 999.\n"
            + "Process 999 waits for ShareLock on transaction 7; blocked by process 101.";
    Capture c = capture(elsewhere);
    Deadlocks d = Deadlocks.of(c.sessions(), c.deadlocks());
    assertEquals(1, d.unresolved, "a partner no session of the log is");
    assertTrue(d.isEmpty());
  }

  /**
   * The race the replay cannot steer: V's first transaction is the victim of a cycle in which P's
   * UPDATE of row 15 waits for it; V's ROLLBACK lets go of row 15, and V's retry takes it before
   * P's woken backend does, so P's same UPDATE, still waiting, then fails in a second cycle with
   * V's retry.
   */
  @Test
  void aDeadlockWhoseVictimWaitedInTheLastOneAndLostItsRowToTheRetryIsRaced() throws Exception {
    String cycle1 =
        "Process 101 waits for ShareLock on transaction 8; blocked by process 102.\n"
            + "Process 102 waits for ShareLock on transaction 7; blocked by process 101.";
    String cycle2 =
        "Process 102 waits for ShareLock on transaction 9; blocked by process 101.\n"
            + "Process 101 waits for ShareLock on transaction 8; blocked by process 102.";
    String v10 = "UPDATE t SET x = 1 WHERE id = 10";
    String p15 = "UPDATE t SET x = 2 WHERE id = 15";
    Capture c =
        HandMadeLogs.capture(
            dir,
            log(P, "00.100", "statement: BEGIN")
                + log(P, "00.100", "duration: 0.010 ms")
                + log(V, "00.105", "statement: BEGIN")
                + log(V, "00.105", "duration: 0.010 ms")
                + log(P, "00.110", "statement: UPDATE t SET x = 2 WHERE id = 10")
                + log(P, "00.111", "duration: 0.500 ms")
                + log(V, "00.115", "statement: UPDATE t SET x = 1 WHERE id = 15")
                + log(V, "00.116", "duration: 0.500 ms")
                + log(P, "00.120", "statement: " + p15)
                + log(V, "00.130", "statement: " + v10)
                + csv(
                    "00.140",
                    V,
                    "ERROR",
                    "40P01",
                    "deadlock detected",
                    cycle1,
                    v10,
                    "psql",
                    "client backend")
                + log(V, "00.141", "statement: ROLLBACK")
                + log(V, "00.141", "duration: 0.010 ms")
                + log(V, "00.142", "statement: BEGIN")
                + log(V, "00.142", "duration: 0.010 ms")
                + log(V, "00.143", "statement: UPDATE t SET x = 1 WHERE id = 15")
                + log(V, "00.143", "duration: 0.050 ms")
                + log(V, "00.150", "statement: " + v10)
                + csv(
                    "00.160",
                    P,
                    "ERROR",
                    "40P01",
                    "deadlock detected",
                    cycle2,
                    p15,
                    "psql",
                    "client backend")
                + log(P, "00.161", "statement: ROLLBACK")
                + log(P, "00.161", "duration: 0.010 ms")
                + log(V, "00.161", "duration: 11.000 ms")
                + log(V, "00.162", "statement: COMMIT")
                + log(V, "00.163", "duration: 0.500 ms"));
    Deadlocks d = Deadlocks.of(c.sessions(), c.deadlocks());
    assertEquals(2, d.cycles.size());
    Deadlocks.Cycle first = d.cycles.get(0);
    Deadlocks.Cycle second = d.cycles.get(1);
    assertEquals(V, c.sessions().get(first.session()).id());
    assertEquals(P, c.sessions().get(second.session()).id());
    // P's UPDATE of row 15 waited in the first cycle and failed in the second, with V's retry
    assertArrayEquals(new int[] {second.session(), second.statement()}, first.partners().get(0));
    assertArrayEquals(new int[] {first.session(), 6}, second.partners().get(0));
    assertFalse(d.raced(0), "the first cycle followed none");
    assertTrue(d.raced(1));
    assertEquals(1, d.raced);
    assertEquals(0, Deadlocks.of(c.sessions(), c.deadlocks().subList(1, 2)).raced, "alone");
  }

  /**
   * The newcomer's kind of the race: V fails in a cycle with P, whose UPDATE of row 3 waits for V;
   * an aborted transaction lets go of its locks at the error, and N's UPDATE of row 3, sent just
   * after it, takes the row before P's woken backend does: P ends only after N's COMMIT.
   */
  @ParameterizedTest(name = "N updates row {0}")
  @CsvSource({"3, 1", "5, 0"})
  void aStatementThatLostItsRowToANewcomerAfterTheVictimsErrorIsCounted(int row, int lost)
      throws Exception {
    String detail =
        "Process 101 waits for ShareLock on transaction 8; blocked by process 102.\n"
            + "Process 102 waits for ShareLock on transaction 7; blocked by process 101.";
    String v4 = "UPDATE t SET x = 1 WHERE id = 4";
    Capture c =
        HandMadeLogs.capture(
            dir,
            log(P, "00.100", "statement: BEGIN")
                + log(P, "00.100", "duration: 0.010 ms")
                + log(V, "00.105", "statement: BEGIN")
                + log(V, "00.105", "duration: 0.010 ms")
                + log(N, "00.106", "statement: BEGIN")
                + log(N, "00.106", "duration: 0.010 ms")
                + log(P, "00.110", "statement: UPDATE t SET x = 2 WHERE id = 4")
                + log(P, "00.111", "duration: 0.500 ms")
                + log(V, "00.115", "statement: UPDATE t SET x = 1 WHERE id = 3")
                + log(V, "00.116", "duration: 0.500 ms")
                + log(V, "00.130", "statement: " + v4)
                + log(P, "00.150", "statement: UPDATE t SET x = 2 WHERE id = 3")
                + csv(
                    "00.200",
                    V,
                    "ERROR",
                    "40P01",
                    "deadlock detected",
                    detail,
                    v4,
                    "psql",
                    "client backend")
                + log(N, "00.201", "statement: UPDATE t SET x = 3 WHERE id = " + row)
                + log(N, "00.202", "duration: 0.100 ms")
                + log(V, "00.202", "statement: ROLLBACK")
                + log(V, "00.202", "duration: 0.010 ms")
                + log(N, "00.203", "statement: COMMIT")
                + log(N, "00.205", "duration: 2.000 ms")
                + log(P, "00.206", "duration: 56.000 ms")
                + log(P, "00.207", "statement: COMMIT")
                + log(P, "00.209", "duration: 2.000 ms"));
    Deadlocks d = Deadlocks.of(c.sessions(), c.deadlocks());
    assertEquals(1, d.cycles.size());
    Map<String, Map<String, TableFacts.Table>> tables = new HashMap<>();
    tables.put(null, Map.of("t", new TableFacts.Table(false, Set.of("id"))));
    assertEquals(lost, d.lostToNewcomers(c.sessions(), TableFacts.of(tables)));
    assertEquals(0, d.lostToNewcomers(c.sessions(), TableFacts.NONE), "no rows known: none told");
    assertEquals(0, d.raced, "no retry");
  }
}
