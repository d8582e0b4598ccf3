package dev.wg1bench.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.support.TestServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A comparison asked again at several round-trip times: one comparison per time, in the order
 * given, each arm's trials at that time. What is asserted is what the delay line guarantees on any
 * machine, a lower bound: an op of five round trips takes at least five times the round-trip time.
 */
class CompareAtRttTest {
  /** {@code -D queries} SELECTs, one round trip each: N+1 against one. */
  public static class Queries implements JdbcWorkload {
    @Override
    public void op(Op op) throws Exception {
      try (var st = op.connection().createStatement()) {
        for (int i = 0; i < op.intParam("queries", 1); i++) {
          st.execute("SELECT 1");
        }
      }
    }
  }

  private static Wg1bench arm(int queries) {
    TargetSpec t = TestServer.target();
    return Wg1bench.workload(Queries.class)
        .param("queries", Integer.toString(queries))
        .clients(1)
        .warmup(Duration.ofMillis(100))
        .duration(Duration.ofMillis(400))
        .iterations(1)
        .against(t.jdbcUrl(), t.user(), t.password() == null ? null : t.password().reveal());
  }

  @Test
  void eachRoundTripTimeIsItsOwnComparisonAndItsOpsPayIt() {
    Duration two = Duration.ofMillis(2);
    List<Comparison> at =
        Wg1bench.compare(arm(5), arm(1)).blocks(2).seed(7).runAt(Duration.ZERO, two);
    assertEquals(2, at.size());
    assertEquals(Duration.ZERO, at.get(0).rtt());
    assertEquals(two, at.get(1).rtt());
    assertTrue(at.get(1).table().contains(" at rtt 2ms"), at.get(1).table());
    for (int i = 0; i < 2; i++) {
      double ms = at.get(i).rtt().toNanos() / 1e6;
      List<TrialResult> trials = at.get(i).benchmarkRun().trials();
      assertEquals(4, trials.size(), "two blocks of two arms");
      for (TrialResult t : trials) {
        assertEquals(ms, t.client().rttMs(), 1e-9, "recorded beside the client settings");
        boolean fivefold = t.point().get("arm").equals("baseline");
        // nothing arrives before its delay: each SELECT waits one round trip at least
        double floor = (fivefold ? 5 : 1) * ms;
        assertTrue(
            t.measurement().latencyMs().p50() >= floor * 0.999,
            t.point() + " p50 " + t.measurement().latencyMs().p50() + " ms at rtt " + ms);
      }
    }
  }

  @Test
  void aRoundTripTimeTheCommandLineWouldRefuseIsRefusedBeforeAnythingRuns() {
    Comparison.Builder b = Wg1bench.compare(arm(5), arm(1)).blocks(2);
    InvalidSettingException e =
        assertThrows(InvalidSettingException.class, () -> b.runAt(Duration.ofMillis(-1)));
    assertTrue(e.getMessage().contains("from 0 to 10 s"), e.getMessage());
    assertThrows(InvalidSettingException.class, () -> b.runAt(Duration.ofSeconds(11)));
    assertThrows(InvalidSettingException.class, b::runAt);
  }
}
