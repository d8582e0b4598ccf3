package dev.wg1bench.stats;

import java.util.List;
import java.util.Locale;
import org.hipparchus.distribution.continuous.TDistribution;

/**
 * The uncertainty of a trial's throughput, by the method of batch means: the per-second counts of
 * successful ops in the measurement windows are grouped into consecutive batches of equal length,
 * and a 95% Student interval is taken over the batch means. Consecutive seconds are correlated (a
 * checkpoint or a vacuum lasts longer than a second), so the seconds themselves are not independent
 * samples; batches a few seconds long are nearly so, and when the lag-1 autocorrelation of the
 * batch means still exceeds {@link #AUTOCORRELATION_LIMIT} the batches are merged pairwise into
 * fewer, longer ones.
 *
 * <p>A run with fewer than {@link #MIN_BATCHES} whole seconds, or whose interval would be wider
 * than half the value, gets no interval: it says so instead.
 */
public final class BatchMeans {
  /** Batches the interval starts from; enough for a usable Student quantile (t(9) = 2.26). */
  static final int MAX_BATCHES = 10;

  /** Fewer batches than this give an interval too wide to mean anything (t(3) = 3.18). */
  static final int MIN_BATCHES = 5;

  /** Seconds with a (bias-corrected) lag-1 autocorrelation below this get 10 batches. */
  static final double TEN_BATCHES_BELOW = 0.2;

  /**
   * Above this lag-1 autocorrelation of the seconds, 5 batches of a short run are not long enough
   * to be independent and the interval says it may be too narrow (simulated AR(1) with 0.8: 84%
   * coverage over 30 s, 91% over 60 s).
   */
  static final double AUTOCORRELATION_LIMIT = 0.5;

  static final double LEVEL = 0.95;

  private BatchMeans() {}

  /**
   * An interval, or the reason there is none.
   *
   * @param halfWidth half-width of the 95% interval in ops/s, null when the run is too short
   * @param batches how many batches it is over
   * @param batchSeconds how long each batch is
   * @param lag1 lag-1 autocorrelation of the per-second samples (NaN when not computed)
   * @param method what the interval is over and at what level, or why there is none
   */
  public record Interval(
      Double halfWidth, int batches, int batchSeconds, double lag1, String method) {}

  /**
   * The interval of {@code value} (successful ops per second of the whole measurement) from the
   * per-second counts of whole seconds, in time order.
   */
  public static Interval of(double value, List<Long> perSecond) {
    int n = perSecond.size();
    if (n < MIN_BATCHES) {
      return new Interval(
          null,
          0,
          0,
          Double.NaN,
          String.format(
              Locale.ROOT,
              "run too short for an interval: %d whole second%s measured, %d needed for batch"
                  + " means",
              n,
              n == 1 ? "" : "s",
              MIN_BATCHES));
    }
    // seconds correlated beyond a lag-1 of 0.2 (bias-corrected: a short series' estimate runs
    // low by about (1 + 4r) / n) get 5 longer batches instead of 10; simulated AR(1) seconds
    // (BatchMeansTest) then keep the coverage within 93-96% up to a lag-1 of 0.5
    double rho = lag1(perSecond.stream().mapToDouble(Long::doubleValue).toArray());
    double corrected = Double.isNaN(rho) ? 0 : rho + (1 + 4 * rho) / n;
    int b = Math.min(n, corrected < TEN_BATCHES_BELOW ? MAX_BATCHES : MIN_BATCHES);
    double[] means = means(perSecond, b);
    int m = n / b;
    double mean = 0;
    for (double x : means) {
      mean += x;
    }
    mean /= b;
    double ss = 0;
    for (double x : means) {
      ss += (x - mean) * (x - mean);
    }
    double sd = Math.sqrt(ss / (b - 1));
    double t = new TDistribution(b - 1).inverseCumulativeProbability(0.5 + LEVEL / 2);
    double h = t * sd / Math.sqrt(b);
    String over =
        String.format(
            Locale.ROOT, "batch means: %d batches of %d s%s", b, m, correlation(corrected, m));
    if (!(h <= value / 2)) {
      return new Interval(
          null,
          b,
          m,
          rho,
          String.format(
              Locale.ROOT,
              "run too short for an interval: the 95%% interval (%s) would be ±%.0f%% of the"
                  + " value",
              over,
              value > 0 ? 100 * h / value : Double.POSITIVE_INFINITY));
    }
    return new Interval(h, b, m, rho, "95% CI, " + over);
  }

  /**
   * A warning when the seconds are so correlated that batches of {@code m} seconds are shorter than
   * twice their integrated autocorrelation time (1 + r) / (1 - r), as an AR(1) process.
   */
  private static String correlation(double r, int m) {
    if (r <= AUTOCORRELATION_LIMIT || (r < 1 && m >= 2 * (1 + r) / (1 - r))) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        ", seconds correlated (lag-1 %.2f): the interval may be too narrow",
        Math.min(r, 0.99));
  }

  /**
   * Means of {@code b} consecutive batches of equal length; the first seconds that do not fill a
   * batch are left out (the start of a run is the likeliest to be transient).
   */
  static double[] means(List<Long> perSecond, int b) {
    int n = perSecond.size();
    int m = n / b;
    int skip = n - m * b;
    double[] out = new double[b];
    for (int j = 0; j < b; j++) {
      long sum = 0;
      for (int i = 0; i < m; i++) {
        sum += perSecond.get(skip + j * m + i);
      }
      out[j] = (double) sum / m;
    }
    return out;
  }

  /** Lag-1 autocorrelation, NaN with fewer than 3 values or no variance. */
  static double lag1(double[] x) {
    int n = x.length;
    if (n < 3) {
      return Double.NaN;
    }
    double mean = 0;
    for (double v : x) {
      mean += v;
    }
    mean /= n;
    double num = 0;
    double den = 0;
    for (int i = 0; i < n; i++) {
      den += (x[i] - mean) * (x[i] - mean);
      if (i > 0) {
        num += (x[i] - mean) * (x[i - 1] - mean);
      }
    }
    return den == 0 ? Double.NaN : num / den;
  }
}
