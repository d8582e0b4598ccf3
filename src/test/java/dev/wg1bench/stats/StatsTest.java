package dev.wg1bench.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StatsTest {
  /** Block log ratios log(2) ± small noise: mean, sd and the t interval by hand. */
  @Test
  void pairedIntervalIsStudentsOnTheBlockLogRatios() {
    double[] d = {0.60, 0.70, 0.80, 0.65, 0.75};
    Stats.Estimate e = Stats.paired(d);
    assertEquals(0.70, e.mean(), 1e-12);
    // sd = sqrt(0.025 / 4) = 0.0790569; t(0.975, 4) = 2.776445
    assertEquals(0.0790569, e.sd(), 1e-6);
    double h = 2.776445 * 0.0790569 / Math.sqrt(5);
    double[] ci = e.interval(0.95);
    assertEquals(Math.exp(0.70 - h), ci[0], 1e-5);
    assertEquals(Math.exp(0.70 + h), ci[1], 1e-5);
    assertTrue(e.p() < 1e-4);
    assertEquals(Verdict.Kind.CONFIRMS, Verdict.of(e, e.p(), "higher", 0.05).kind());
    assertEquals(Verdict.Kind.CONTRADICTS, Verdict.of(e, e.p(), "lower", 0.05).kind());
  }

  /**
   * Hand-computed: p = .01 .04 .03 .005 -> sorted .005x4=.02, .01x3=.03, .03x2=.06, .04x1 -> .06
   */
  @Test
  void holmAdjustsStepDownAndMonotone() {
    double[] p = {0.01, 0.04, 0.03, 0.005};
    assertArrayEquals(new double[] {0.03, 0.06, 0.06, 0.02}, Stats.holm(p), 1e-12);
    assertArrayEquals(
        new double[] {0.05 / 3, 0.05 / 1, 0.05 / 2, 0.05 / 4}, Stats.holmAlphas(p, 0.05), 1e-12);
    assertArrayEquals(new double[] {1.0}, Stats.holm(new double[] {1.0}), 0);
    assertArrayEquals(new double[] {0.9, 0.9}, Stats.holm(new double[] {0.6, 0.45}), 1e-12);
  }

  @Test
  void tightIntervalAroundOneIsEquivalent() {
    double[] d = {0.01, -0.01, 0.005, -0.005, 0.0, 0.002};
    Stats.Estimate e = Stats.paired(d);
    Verdict v = Verdict.of(e, e.p(), "higher", 0.05);
    assertEquals(Verdict.Kind.EQUIVALENT, v.kind());
    assertEquals("equivalent within \u00b15.00%", v.text());
  }

  @Test
  void wideIntervalIsInconclusiveWithBlocksToSettleIt() {
    double[] d = {0.10, -0.05, 0.08, -0.02};
    Stats.Estimate e = Stats.paired(d);
    Verdict v = Verdict.of(e, e.p(), "higher", 0.05);
    assertEquals(Verdict.Kind.INCONCLUSIVE, v.kind());
    assertTrue(v.moreBlocks() != null && v.moreBlocks() > 0, v.toString());
    // after that many blocks the power claimed for the smaller target is really at least 80%
    int n = e.n() + v.moreBlocks();
    double m = Math.abs(e.mean());
    double sig = Stats.power(n, m, e.sd(), 0.05);
    double eq = Stats.power(n, Math.log(1.05) - m, e.sd(), 0.05);
    assertTrue(Math.max(sig, eq) >= 0.8, sig + " " + eq);
  }

  /** Power from the noncentral t: known values (G*Power: d=1, n=10 paired, two-sided: 0.8031). */
  @Test
  void powerMatchesTheNoncentralT() {
    assertEquals(0.8031, Stats.power(10, 1.0, 1.0, 0.05), 0.002);
    assertEquals(0.05, Stats.power(10, 0.0, 1.0, 0.05), 0.002);
    assertEquals(10, Stats.blocksFor(1.0, 1.0, 0.05, 0.8, 1000));
  }

  @Test
  void welchOnLogs() {
    double[] b = Stats.logs(new double[] {100, 110, 90, 105, 95});
    double[] t = Stats.logs(new double[] {200, 220, 180, 210, 190});
    Stats.Estimate e = Stats.welch(b, t);
    assertEquals(2.0, e.ratio(), 1e-9);
    double[] ci = e.interval(0.95);
    assertTrue(ci[0] > 1.7 && ci[0] < 2.0 && ci[1] > 2.0 && ci[1] < 2.3);
  }
}
