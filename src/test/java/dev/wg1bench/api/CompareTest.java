package dev.wg1bench.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.support.TestServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code Wg1bench.compare} in a JUnit test: a treatment slower by a known amount is SLOWER (and,
 * swapped, FASTER), the blocks' orders are drawn from the seed, and a comparison the design cannot
 * run is a usage error. Nothing here asserts how fast the machine is: 3 ms of sleep per op against
 * none is a difference no machine hides.
 */
class CompareTest {
  /** Sleeps {@code sleepMs} (a parameter, or its constructor's) and runs SELECT 1. */
  public static class Sleepy implements JdbcWorkload {
    private final Integer fixed;

    public Sleepy() {
      this(null);
    }

    Sleepy(Integer ms) {
      this.fixed = ms;
    }

    @Override
    public void op(Op op) throws Exception {
      int ms = fixed != null ? fixed : op.intParam("sleepMs", 0);
      if (ms > 0) {
        Thread.sleep(ms);
      }
      try (var st = op.connection().createStatement()) {
        st.execute("SELECT 1");
      }
    }
  }

  private static Wg1bench arm(Wg1bench w) {
    TargetSpec t = TestServer.target();
    return w.clients(2)
        .warmup(Duration.ofMillis(200))
        .duration(Duration.ofMillis(600))
        .iterations(1)
        .against(t.jdbcUrl(), t.user(), t.password() == null ? null : t.password().reveal());
  }

  @Test
  void aTreatmentSlowerByAKnownAmountIsSlowerAndSwappedFaster() {
    Comparison slower =
        Wg1bench.compare(
                arm(Wg1bench.workload(Sleepy.class).param("sleepMs", "0")),
                arm(Wg1bench.workload("sleeps 3 ms", () -> new Sleepy(3))))
            .blocks(5)
            .seed(7)
            .run();
    assertEquals(Comparison.Verdict.SLOWER, slower.verdict(), slower.table());
    assertTrue(slower.high() < 1 && slower.ratio() < slower.high(), slower.table());
    assertEquals(5, slower.blocks());
    assertEquals(5, slower.blockRatios().size());
    assertTrue(slower.table().contains("sleeps 3 ms against"), slower.table());
    Verdicts.assertSlower(slower);
    AssertionError gate =
        assertThrows(AssertionError.class, () -> Verdicts.assertNotSlower(slower));
    assertTrue(gate.getMessage().contains("95% interval"), "the whole table: " + gate.getMessage());

    Comparison faster =
        Wg1bench.compare(
                arm(Wg1bench.workload(Sleepy.class).param("sleepMs", "3")),
                // no target of its own: the baseline's
                Wg1bench.workload(Sleepy.class)
                    .param("sleepMs", "0")
                    .clients(2)
                    .warmup(Duration.ofMillis(200))
                    .duration(Duration.ofMillis(600))
                    .iterations(1))
            .blocks(5)
            .seed(7)
            .run();
    assertEquals(Comparison.Verdict.FASTER, faster.verdict(), faster.table());
    Verdicts.assertFaster(faster);
    assertEquals(slower.orders(), faster.orders(), "the same seed draws the same orders");
    String target = slower.benchmarkRun().trials().get(0).target();
    for (int b = 1; b <= 5; b++) {
      assertEquals(
          dev.wg1bench.advise.Blocks.order(7, "compare", target, b),
          slower.orders().get(b - 1),
          "block " + b + "'s order is drawn from the seed");
    }
  }
}
