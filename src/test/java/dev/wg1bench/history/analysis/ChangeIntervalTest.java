package dev.wg1bench.history.analysis;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The relative change's interval: what a reader of a throughput drop must be able to believe. */
class ChangeIntervalTest {

  /**
   * Six fast, noisy runs, then four slow, steady ones (the planner lost its index scans in a
   * rehearsal run: 12,900-31,000 tps, then 79-120). A pooled variance lends the fast segment's
   * spread to the slow one and the interval of a fall of 99.6% reached −129%; each segment's own
   * variance keeps it where a throughput can be.
   */
  @Test
  void aFallFromNoisyToSteadyStaysAboveMinusOneHundredPercent() {
    double[] x = {26153, 31055, 27562, 12889, 18724, 17183, 82.8, 120, 101, 79};
    ChangePointAnalysis.Change c = ChangePointAnalysis.change(x, null, 0, 6, 10);
    assertNotNull(c.low());
    assertTrue(c.low() > -1 && c.high() < 0, c.toString());
    assertTrue(c.low() <= c.relative() && c.relative() <= c.high(), c.toString());
  }

  /** A segment of one run has no spread of its own: the pooled variance gives the interval. */
  @Test
  void aOneRunSegmentStillHasAnInterval() {
    double[] x = {100, 102, 98, 101, 99, 80};
    ChangePointAnalysis.Change c = ChangePointAnalysis.change(x, null, 0, 5, 6);
    assertNotNull(c.low());
    assertTrue(c.low() < -0.2 && -0.2 < c.high(), c.toString());
  }

  /**
   * Four fast runs, then one slow: the pooled variance lends the fast runs' spread to the one-run
   * segment (a bench/history-step.sh run printed -99.1% [-114.3%, -83.9%]); a throughput cannot
   * fall by more than all of it, so the interval stops at -100%.
   */
  @Test
  void aOneRunFallIsCutAtMinusOneHundredPercent() {
    double[] x = {49730, 45344, 48477, 45294, 419.3};
    ChangePointAnalysis.Change c = ChangePointAnalysis.change(x, null, 0, 4, 5);
    assertNotNull(c.low());
    org.junit.jupiter.api.Assertions.assertEquals(-1.0, c.low());
    assertTrue(c.relative() < -0.99 && c.high() < 0, c.toString());
  }

  /**
   * Four steady runs, then four of which three measured nothing and one 200: each segment its own
   * variance (Welch's branch), the after segment's spread reaches below zero, and the change's
   * interval is cut at -100% there too, as it is for a one-run segment.
   */
  @Test
  void aNoisyFallIsCutAtMinusOneHundredPercentInWelchsBranchToo() {
    double[] x = {1000, 1001, 999, 1000, 0, 0, 0, 200};
    ChangePointAnalysis.Change c = ChangePointAnalysis.change(x, null, 0, 4, 8);
    assertNotNull(c.low());
    org.junit.jupiter.api.Assertions.assertEquals(-1.0, c.low());
    assertTrue(c.relative() < -0.9 && c.high() < 0, c.toString());
  }
}
