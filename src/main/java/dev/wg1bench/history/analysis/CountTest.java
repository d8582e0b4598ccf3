package dev.wg1bench.history.analysis;

import java.util.List;
import java.util.Locale;
import org.hipparchus.distribution.discrete.BinomialDistribution;
import org.hipparchus.special.Beta;

/**
 * Counts judged as counts: failed ops and retries are rates per attempted op, and the gate compares
 * the latest runs' rate with the baseline segment's by the exact conditional test for two Poisson
 * rates. If both have the same rate, then given the total count the latest runs' count is binomial
 * with p = their share of the attempted ops; the p-value is the binomial tail on the side the
 * latest runs moved to (one-sided, as the gate is). A t-test on counts is wrong for them: a
 * baseline of zeros has no spread, so one failed op would be "p = 0".
 *
 * <p>Runs that did not record their attempted ops (stored before they were, or imported) are
 * compared per run instead: each run's share is one run.
 */
public final class CountTest {
  private CountTest() {}

  /** Whether a metric is a count of ops (judged here) rather than a measurement. */
  public static boolean isCount(String metric) {
    return metric.equals("failedOps") || metric.equals("retries");
  }

  /**
   * The test's figures.
   *
   * @param metric failedOps or retries
   * @param after the latest runs' count
   * @param attemptsAfter the ops they attempted (their number of runs when {@code perRun})
   * @param runsAfter how many latest runs
   * @param before the baseline segment's count
   * @param attemptsBefore the ops it attempted (its number of runs when {@code perRun})
   * @param runsBefore how many runs it has
   * @param perRun true when some run did not record its attempted ops: rates per run
   * @param direction regression (a higher rate), improvement (lower) or none (equal)
   * @param p the one-sided p of the direction the latest runs moved to; 1 when they did not move
   */
  public record Counted(
      String metric,
      long after,
      double attemptsAfter,
      int runsAfter,
      long before,
      double attemptsBefore,
      int runsBefore,
      boolean perRun,
      Direction direction,
      double p) {

    /** The latest runs' rate (per attempted op, or per run). */
    public double rateAfter() {
      return attemptsAfter == 0 ? 0 : after / attemptsAfter;
    }

    /** The baseline's rate (per attempted op, or per run). */
    public double rateBefore() {
      return attemptsBefore == 0 ? 0 : before / attemptsBefore;
    }

    /**
     * Otava's magnitude on the rates: the larger of |after/before − 1| and |before/after − 1| (a
     * ratio whose denominator is 0 counts as 0).
     */
    public double magnitude() {
      double a = rateAfter();
      double b = rateBefore();
      double forward = b == 0 ? 0 : a / b - 1;
      double backward = a == 0 ? 0 : b / a - 1;
      return Math.max(Math.abs(forward), Math.abs(backward));
    }

    /**
     * The result in words: "3 failed ops in 41,200 attempts, against 0 in 330,000 before: p = …".
     */
    public String words() {
      String what = metric.equals("failedOps") ? "failed ops" : "retries";
      String p = String.format(Locale.ROOT, "%.3g", this.p);
      if (perRun) {
        return String.format(
            Locale.ROOT,
            "%,d %s in %s, against %,d in %s before (attempted ops not recorded: compared per"
                + " run): p = %s, one-sided exact test of two Poisson rates",
            after,
            what,
            runs(runsAfter),
            before,
            runs(runsBefore),
            p);
      }
      return String.format(
          Locale.ROOT,
          "%,d %s in %,.0f attempts (%s), against %,d in %,.0f before (%s): p = %s, one-sided"
              + " exact test of two Poisson rates",
          after,
          what,
          attemptsAfter,
          runs(runsAfter),
          before,
          attemptsBefore,
          runs(runsBefore),
          p);
    }

    private static String runs(int n) {
      return n + (n == 1 ? " run" : " runs");
    }
  }

  /** Compares the counts of {@code [at, to)} with those of {@code [from, at)} of a series. */
  public static Counted compare(Series s, int from, int at, int to) {
    List<SeriesPoint> pts = s.points();
    boolean perRun = pts.subList(from, to).stream().anyMatch(p -> Double.isNaN(p.attempts()));
    long before = 0;
    long after = 0;
    double exposureBefore = 0;
    double exposureAfter = 0;
    for (int i = from; i < to; i++) {
      SeriesPoint p = pts.get(i);
      long count = Math.round(p.value());
      double exposure = perRun ? 1 : p.attempts();
      if (i < at) {
        before += count;
        exposureBefore += exposure;
      } else {
        after += count;
        exposureAfter += exposure;
      }
    }
    double share = exposureAfter / (exposureAfter + exposureBefore);
    double rateAfter = exposureAfter == 0 ? 0 : after / exposureAfter;
    double rateBefore = exposureBefore == 0 ? 0 : before / exposureBefore;
    Direction direction =
        rateAfter > rateBefore
            ? Direction.REGRESSION
            : rateAfter < rateBefore ? Direction.IMPROVEMENT : Direction.NONE;
    double p =
        switch (direction) {
          case REGRESSION -> atLeast(after, before + after, share);
          case IMPROVEMENT -> 1 - atLeast(after + 1, before + after, share);
          case NONE -> 1.0;
        };
    return new Counted(
        s.metric(),
        after,
        exposureAfter,
        to - at,
        before,
        exposureBefore,
        at - from,
        perRun,
        direction,
        p);
  }

  /**
   * P(X ≥ k) for X binomial(n, share). The upper tail is the regularized incomplete beta I_share(k,
   * n − k + 1), computed directly: 1 − {@link BinomialDistribution#cumulativeProbability} loses
   * every digit of a tail below 1e-16, and a run with 1% failed ops has one far below that.
   */
  static double atLeast(long k, long n, double share) {
    if (k <= 0) {
      return 1.0;
    }
    if (k > n) {
      return 0.0;
    }
    if (share >= 1) {
      return 1.0;
    }
    return Beta.regularizedBeta(share, k, n - k + 1.0);
  }
}
