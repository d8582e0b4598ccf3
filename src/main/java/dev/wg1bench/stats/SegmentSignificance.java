package dev.wg1bench.stats;

import org.hipparchus.distribution.continuous.TDistribution;

/**
 * The significance test E-Divisive means uses on the two segments a change point separates, as
 * Apache Otava (and the Hunter paper) runs it: Student's two-sample t-test with a pooled variance,
 * two-sided, where each segment's spread is its population standard deviation (divisor n, as
 * numpy's default {@code std} gives it to scipy's {@code ttest_ind_from_stats}). Kept exactly so,
 * because the change points are meant to be the ones Otava finds.
 *
 * <p>With a noise floor (each point's own variance, from its run's own interval), a segment's
 * variance is the larger of its spread and the mean of its points' own variances: a segment of one
 * run, or of runs that happen to agree closely, is never taken as quieter than its runs measured
 * themselves to be. The floor only ever raises p.
 */
public final class SegmentSignificance {
  private SegmentSignificance() {}

  /**
   * The test's outcome for a split.
   *
   * @param meanBefore the mean of the segment before
   * @param meanAfter the mean of the segment after
   * @param p two-sided p of "both segments have the same mean"; 1 with fewer than 3 points in all
   */
  public record Outcome(double meanBefore, double meanAfter, double p) {

    /**
     * Otava's magnitude: the larger of |after/before − 1| and |before/after − 1| (a ratio whose
     * denominator is 0 counts as 0).
     */
    public double magnitude() {
      double forward = meanBefore == 0 ? 0 : meanAfter / meanBefore - 1.0;
      double backward = meanAfter == 0 ? 0 : meanBefore / meanAfter - 1.0;
      return Math.max(Math.abs(forward), Math.abs(backward));
    }
  }

  /**
   * Compares {@code values[from, split)} with {@code values[split, to)}.
   *
   * @param noiseVariance each point's own variance, NaN where it has none; null for none at all
   */
  public static Outcome compare(
      double[] values, double[] noiseVariance, int from, int split, int to) {
    int n1 = split - from;
    int n2 = to - split;
    if (n1 <= 0 || n2 <= 0) {
      throw new IllegalArgumentException("empty segment: [" + from + "," + split + "," + to + ")");
    }
    double m1 = mean(values, from, split);
    double m2 = mean(values, split, to);
    double v1 = n1 >= 2 ? populationVariance(values, from, split, m1) : 0.0;
    double v2 = n2 >= 2 ? populationVariance(values, split, to, m2) : 0.0;
    if (noiseVariance != null) {
      v1 = Math.max(v1, meanKnown(noiseVariance, from, split, v1));
      v2 = Math.max(v2, meanKnown(noiseVariance, split, to, v2));
    }
    if (n1 + n2 <= 2) {
      return new Outcome(m1, m2, 1.0);
    }
    int df = n1 + n2 - 2;
    double pooled = ((n1 - 1) * v1 + (n2 - 1) * v2) / df;
    // with one point on a side its spread weighs nothing in the pool; the floor still must count
    if (noiseVariance != null) {
      pooled = Math.max(pooled, Math.max(n1 == 1 ? v1 : 0, n2 == 1 ? v2 : 0));
    }
    double se = Math.sqrt(pooled * (1.0 / n1 + 1.0 / n2));
    double diff = m1 - m2;
    double p;
    if (se == 0) {
      p = diff == 0 ? Double.NaN : 0.0;
    } else {
      double t = Math.abs(diff / se);
      p = Math.min(1.0, 2.0 * new TDistribution(df).cumulativeProbability(-t));
    }
    return new Outcome(m1, m2, p);
  }

  static double mean(double[] v, int from, int to) {
    double s = 0;
    for (int i = from; i < to; i++) {
      s += v[i];
    }
    return s / (to - from);
  }

  private static double populationVariance(double[] v, int from, int to, double mean) {
    double s = 0;
    for (int i = from; i < to; i++) {
      double d = v[i] - mean;
      s += d * d;
    }
    return s / (to - from);
  }

  /** The mean of the known (non-NaN) values, or {@code otherwise} when none is known. */
  private static double meanKnown(double[] v, int from, int to, double otherwise) {
    double s = 0;
    int n = 0;
    for (int i = from; i < to; i++) {
      if (!Double.isNaN(v[i])) {
        s += v[i];
        n++;
      }
    }
    return n == 0 ? otherwise : s / n;
  }
}
