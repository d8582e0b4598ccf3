package dev.wg1bench.history.gate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.history.analysis.ChangePointAnalysis;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.stats.EDivisive;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.hipparchus.distribution.discrete.BinomialDistribution;
import org.hipparchus.distribution.discrete.PoissonDistribution;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A/A histories (no change anywhere): the gate's false regressions stay at or below its level,
 * {@code --p}, which is the level of a one-sided alarm (the gate fails on regressions only, and an
 * A/A improvement is not counted). The count checked is held to the binomial bound: the largest
 * count that {@code histories} A/A histories give with probability 0.999 when the true rate is
 * exactly p. Each set is seeded, so the count is the same on every machine: the guarantee is of the
 * method, not of this machine.
 *
 * <p>tps: log-normal noise with the spread of log tps that real wg1bench runs had on the machine
 * this was written on (sd 0.55, two cores shared with four builds), and a quiet 0.03. Counts
 * (failed ops, retries): Poisson with a rate per attempted op and runs of different lengths, with
 * baselines from 5 runs up, judged by the exact test of two Poisson rates.
 */
class RegressionGateFalseAlarmTest {

  static final int HISTORIES = 400;

  static Series aa(Random r, int n, double sigma) {
    List<SeriesPoint> pts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double v = 1000 * Math.exp(sigma * r.nextGaussian());
      pts.add(new SeriesPoint(Instant.ofEpochSecond(i), "r" + i, null, v, Double.NaN, Double.NaN));
    }
    return new Series("aa/tps", "tps", true, pts);
  }

  /** A count series: each run attempts 20,000 to 60,000 ops, each failing at {@code rate}. */
  static Series counts(Random r, int n, double rate) {
    List<SeriesPoint> pts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double attempts = 20_000 + r.nextInt(40_001);
      double mean = rate * attempts;
      double count =
          mean == 0
              ? 0
              : new PoissonDistribution(mean).inverseCumulativeProbability(r.nextDouble());
      pts.add(
          new SeriesPoint(
              Instant.ofEpochSecond(i), "r" + i, null, count, Double.NaN, Double.NaN, attempts));
    }
    return new Series("aa/failedOps", "failedOps", false, pts);
  }

  @ParameterizedTest(name = "tps: p={0}, log sd {1}")
  @CsvSource({"0.001, 0.55", "0.01, 0.55", "0.05, 0.55", "0.01, 0.03", "0.05, 0.03"})
  void tpsFalseRegressionsAtMostTheLevel(double p, double sigma) {
    Random r = new Random(35);
    int alarms = 0;
    for (int k = 0; k < HISTORIES; k++) {
      alarms += regressed(aa(r, 30, sigma), p) ? 1 : 0;
    }
    assertWithinLevel(alarms, p, "tps, log sd " + sigma);
  }

  @ParameterizedTest(name = "counts: p={0}, rate {1}, {2} runs")
  @CsvSource({
    "0.01, 0.00005, 6",
    "0.05, 0.00005, 6",
    "0.05, 0.001, 6",
    "0.01, 0.001, 30",
    "0.05, 0.001, 30",
    "0.05, 0.00001, 30"
  })
  void countFalseRegressionsAtMostTheLevel(double p, double rate, int runs) {
    Random r = new Random(41);
    int alarms = 0;
    for (int k = 0; k < HISTORIES; k++) {
      alarms += regressed(counts(r, runs, rate), p) ? 1 : 0;
    }
    assertWithinLevel(alarms, p, "failed ops at rate " + rate + ", " + runs + " runs");
  }

  private static boolean regressed(Series s, double p) {
    ChangePointAnalysis.Settings settings =
        new ChangePointAnalysis.Settings(new EDivisive.Settings(50, p, 0, 1), false);
    return RegressionGate.judge(s, settings, 1).outcome() == RegressionGate.Outcome.REGRESSION;
  }

  private static void assertWithinLevel(int alarms, double p, String what) {
    int bound = new BinomialDistribution(HISTORIES, p).inverseCumulativeProbability(0.999);
    assertTrue(
        alarms <= bound,
        alarms
            + " false regressions in "
            + HISTORIES
            + " A/A histories ("
            + what
            + ") at the one-sided level p="
            + p
            + ": more than "
            + bound
            + ", the most a rate of p gives with probability 0.999");
  }
}
