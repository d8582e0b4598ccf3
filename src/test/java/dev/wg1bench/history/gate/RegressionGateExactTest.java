package dev.wg1bench.history.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.wg1bench.history.analysis.ChangePointAnalysis;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.stats.EDivisive;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Round trips and statements per op through the gate: counts the protocol required, judged as exact
 * figures where their history holds one value (a change at any sample size), as measurements where
 * it varies.
 */
class RegressionGateExactTest {
  static Series series(String metric, double... values) {
    List<SeriesPoint> pts = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      pts.add(
          new SeriesPoint(
              Instant.ofEpochSecond(i), "r" + i, null, values[i], Double.NaN, Double.NaN, 1));
    }
    return new Series("cfg/" + metric, metric, false, pts);
  }

  static RegressionGate.Judged judge(Series s) {
    return RegressionGate.judge(
        s, new ChangePointAnalysis.Settings(new EDivisive.Settings(50, 0.001, 0, 1), false), 1);
  }

  @Test
  void oneRoundTripBecomingElevenIsARegressionOnTwoRuns() {
    assertEquals(
        RegressionGate.Outcome.REGRESSION, judge(series("roundTripsPerOp", 1.0, 11.0)).outcome());
    assertEquals(
        RegressionGate.Outcome.REGRESSION,
        judge(series("statementsPerOp", 3, 3, 3, 3, 3, 4)).outcome());
  }

  @Test
  void anUnchangedFigureIsNeverAnAlarmAndFewerIsAnImprovement() {
    assertEquals(
        RegressionGate.Outcome.PASS,
        judge(series("roundTripsPerOp", 10, 10, 10, 10, 10, 10)).outcome());
    assertEquals(
        RegressionGate.Outcome.IMPROVEMENT, judge(series("roundTripsPerOp", 10, 10, 1)).outcome());
  }

  @Test
  void aHistoryThatVariesIsJudgedAsAMeasurement() {
    // a mix drawn at random: 2.4 round trips per op on average, never the same twice
    RegressionGate.Judged j = judge(series("roundTripsPerOp", 2.41, 2.39, 2.40, 2.42, 2.38, 2.405));
    assertEquals(RegressionGate.Outcome.PASS, j.outcome());
  }
}
