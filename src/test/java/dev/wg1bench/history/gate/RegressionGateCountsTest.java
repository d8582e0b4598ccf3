package dev.wg1bench.history.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.history.analysis.ChangePointAnalysis;
import dev.wg1bench.history.analysis.Direction;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.stats.EDivisive;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Failed ops and retries through the gate: rates per attempted op, the exact conditional test. */
class RegressionGateCountsTest {

  static Series failed(long[] counts, double[] attempts) {
    List<SeriesPoint> pts = new ArrayList<>();
    for (int i = 0; i < counts.length; i++) {
      pts.add(
          new SeriesPoint(
              Instant.ofEpochSecond(i),
              "r" + i,
              null,
              counts[i],
              Double.NaN,
              Double.NaN,
              attempts == null ? Double.NaN : attempts[i]));
    }
    return new Series("cfg/failedOps", "failedOps", false, pts);
  }

  static RegressionGate.Judged judge(Series s) {
    return RegressionGate.judge(
        s, new ChangePointAnalysis.Settings(new EDivisive.Settings(50, 0.001, 0, 1), false), 1);
  }

  static final double[] SIX_RUNS = {40_000, 40_000, 40_000, 40_000, 40_000, 40_000};

  @Test
  void oneFailedOpAfterCleanRunsIsNotAnAlarm() {
    RegressionGate.Judged j = judge(failed(new long[] {0, 0, 0, 0, 0, 1}, SIX_RUNS));
    assertEquals(RegressionGate.Outcome.PASS, j.outcome());
    // given 1 failed op in all, it falls in the latest run with its share of the attempts: 1/6
    assertEquals(1.0 / 6, j.counts().p(), 1e-12);
    assertEquals(
        "1 failed ops in 40,000 attempts (1 run), against 0 in 200,000 before (5 runs): p = 0.167,"
            + " one-sided exact test of two Poisson rates",
        j.counts().words());
  }

  @Test
  void onePercentFailedOpsIsARegressionNamedAsFailures() {
    RegressionGate.Judged j = judge(failed(new long[] {0, 0, 0, 0, 0, 400}, SIX_RUNS));
    assertEquals(RegressionGate.Outcome.REGRESSION, j.outcome());
    assertTrue(j.counts().p() > 0 && j.counts().p() < 1e-100, "p " + j.counts().p());
    GateReport.Checked c = GateReport.of(j, "failedOps", null);
    String line =
        GateReport.lines(new GateReport.Gate("regression", 4, 1, 0.001, 0.01, 0, null, List.of(c)))
            .get(0);
    // (1/6)^400: every one of the 400 fell in the latest run, whose share of the attempts is 1/6
    assertEquals(
        "REGRESSION cfg/failedOps: 400 failed ops in 40,000 attempts (1 run), against 0 in 200,000"
            + " before (5 runs): p = 5.49e-312, one-sided exact test of two Poisson rates",
        line);
  }

  @Test
  void aLongerRunWithMoreFailuresAtTheSameRateIsNotAnAlarm() {
    // 5 failed in 50,000 before each time; the latest ran ten times as long: 50 in 500,000
    double[] attempts = {50_000, 50_000, 50_000, 50_000, 50_000, 500_000};
    RegressionGate.Judged j = judge(failed(new long[] {5, 5, 5, 5, 5, 50}, attempts));
    assertEquals(RegressionGate.Outcome.PASS, j.outcome());
    assertEquals(Direction.NONE, j.counts().direction());
  }

  @Test
  void runsWithoutTheirAttemptsAreComparedPerRun() {
    RegressionGate.Judged j = judge(failed(new long[] {0, 0, 0, 0, 0, 3}, null));
    assertTrue(j.counts().perRun());
    assertEquals(Math.pow(1.0 / 6, 3), j.counts().p(), 1e-12);
    assertTrue(j.counts().words().contains("compared per run"), j.counts().words());
  }

  @Test
  void aTransientFailureIsNotTheTTestsPZero() {
    // the t-test on these counts: a baseline of zeros has no spread, so p would be 0
    assertFalse(
        judge(failed(new long[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, null)).outcome()
            == RegressionGate.Outcome.REGRESSION);
  }
}
