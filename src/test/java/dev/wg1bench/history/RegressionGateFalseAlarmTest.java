package dev.wg1bench.history;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.stats.EDivisive;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A/A histories (no change anywhere): the gate's false alarms stay at or below the level asked. The
 * noise is log-normal with the spread of log tps that real wg1bench runs had on the machine this
 * was written on (sd 0.55, two cores shared with four builds), and a quiet 0.03; each set is
 * seeded, so the count is the same on every machine. The allowance is three binomial standard
 * deviations of the level: the guarantee is of the method, not of this machine.
 */
class RegressionGateFalseAlarmTest {

  static Series aa(Random r, int n, double sigma) {
    List<SeriesPoint> pts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double v = 1000 * Math.exp(sigma * r.nextGaussian());
      pts.add(new SeriesPoint(Instant.ofEpochSecond(i), "r" + i, null, v, Double.NaN, Double.NaN));
    }
    return new Series("aa/tps", "tps", true, pts);
  }

  @ParameterizedTest(name = "p={0}, log sd {1}")
  @CsvSource({"0.001, 0.55", "0.01, 0.55", "0.05, 0.55", "0.01, 0.03", "0.05, 0.03"})
  void falseAlarmsAtMostTheLevelAsked(double p, double sigma) {
    int histories = 300;
    Random r = new Random(35);
    ChangePointAnalysis.Settings s =
        new ChangePointAnalysis.Settings(new EDivisive.Settings(50, p, 0, 1), false);
    int alarms = 0;
    for (int k = 0; k < histories; k++) {
      if (RegressionGate.judge(aa(r, 30, sigma), s, 1).outcome()
          == RegressionGate.Outcome.REGRESSION) {
        alarms++;
      }
    }
    double allowed = histories * p + 3 * Math.sqrt(histories * p * (1 - p));
    assertTrue(
        alarms <= allowed,
        alarms
            + " false alarms in "
            + histories
            + " A/A histories at p="
            + p
            + " (allowed "
            + allowed
            + ")");
  }
}
