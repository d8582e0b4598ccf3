package dev.wg1bench.stats;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.hipparchus.distribution.continuous.ChiSquaredDistribution;
import org.hipparchus.distribution.continuous.NormalDistribution;
import org.hipparchus.distribution.continuous.TDistribution;
import org.hipparchus.stat.StatUtils;

/**
 * The statistics of a verdict, on log ratios because throughput and latency noise is multiplicative
 * and a ratio's interval should be symmetric in log space. Quantiles and distributions come from
 * Hipparchus; nothing here is a table.
 */
public final class Stats {
  private Stats() {}

  /**
   * A mean log ratio with its standard error and degrees of freedom: the paired analysis of blocks,
   * or Welch's unpaired one.
   *
   * @param n blocks (paired) or the smaller arm's size (Welch)
   * @param mean mean log ratio (treatment over baseline)
   * @param sd standard deviation of the block log ratios (paired), else NaN
   * @param se standard error of {@code mean}
   * @param df degrees of freedom of the t distribution of (mean - true) / se
   */
  public record Estimate(int n, double mean, double sd, double se, double df) {
    public double ratio() {
      return Math.exp(mean);
    }

    /** Whether an interval exists (at least two observations and some spread or none at all). */
    public boolean hasInterval() {
      return df >= 1 && !Double.isNaN(se);
    }

    /** The ratio's two-sided interval at {@code level} (e.g. 0.95), as {low, high}. */
    public double[] interval(double level) {
      double h = halfWidth(level);
      return new double[] {Math.exp(mean - h), Math.exp(mean + h)};
    }

    /** Half-width of the log interval at {@code level}. */
    public double halfWidth(double level) {
      if (se == 0) {
        return 0;
      }
      return tQuantile(1 - (1 - level) / 2, df) * se;
    }

    /** Two-sided p-value of "no difference" (mean log ratio 0). */
    public double p() {
      if (se == 0) {
        return mean == 0 ? 1 : 0;
      }
      double t = Math.abs(mean / se);
      return 2 * (1 - new TDistribution(df).cumulativeProbability(t));
    }
  }

  /** The paired analysis: one log ratio per block, their mean and Student's t. */
  public static Estimate paired(double[] logRatios) {
    int n = logRatios.length;
    double mean = n == 0 ? Double.NaN : StatUtils.mean(logRatios);
    if (n < 2) {
      return new Estimate(n, mean, Double.NaN, Double.NaN, 0);
    }
    double sd = Math.sqrt(StatUtils.variance(logRatios));
    return new Estimate(n, mean, sd, sd / Math.sqrt(n), n - 1);
  }

  /**
   * Stein's two-stage analysis: the number of blocks was fixed from the first {@code pilot} blocks'
   * sd, so the interval uses that sd with its {@code pilot - 1} degrees of freedom, which keeps the
   * level exact whatever the later blocks show. If the sd of all blocks is larger (the server got
   * noisier later), that one is used instead: never narrower than the data say.
   */
  public static Estimate twoStage(double[] logRatios, int pilot) {
    if (pilot >= logRatios.length || pilot < 2) {
      return paired(logRatios);
    }
    int n = logRatios.length;
    double s1 = Math.sqrt(StatUtils.variance(logRatios, 0, pilot));
    double sd = Math.max(s1, Math.sqrt(StatUtils.variance(logRatios)));
    return new Estimate(n, StatUtils.mean(logRatios), sd, sd / Math.sqrt(n), pilot - 1);
  }

  /**
   * Welch's unpaired analysis of log values, for trials that were not run in blocks (e.g. two saved
   * results): difference of mean logs with the Welch-Satterthwaite degrees of freedom.
   */
  public static Estimate welch(double[] logBaseline, double[] logTreatment) {
    int nb = logBaseline.length;
    int nt = logTreatment.length;
    double mean = StatUtils.mean(logTreatment) - StatUtils.mean(logBaseline);
    if (nb < 2 || nt < 2) {
      return new Estimate(Math.min(nb, nt), mean, Double.NaN, Double.NaN, 0);
    }
    double vb = StatUtils.variance(logBaseline) / nb;
    double vt = StatUtils.variance(logTreatment) / nt;
    double se = Math.sqrt(vb + vt);
    double df =
        se == 0 ? nb + nt - 2 : (vb + vt) * (vb + vt) / (vb * vb / (nb - 1) + vt * vt / (nt - 1));
    return new Estimate(Math.min(nb, nt), mean, Double.NaN, se, df);
  }

  /**
   * Where an unpaired comparison's interval comes from: the repeats of each side, or (one trial a
   * side) the trials' measurement iterations, which hold only within-trial noise.
   */
  public static final String OVER_REPEATS = "repeats";

  public static final String OVER_ITERATIONS = "iterations";

  /**
   * An unpaired estimate and what it is over: {@link #OVER_REPEATS}, {@link #OVER_ITERATIONS}, or
   * null when neither side has 2 values (no interval).
   */
  public record Unpaired(Estimate estimate, String over) {}

  /**
   * Welch's analysis of new against base (raw values, not logs): over the repeats when both sides
   * have 2 or more; else over the iterations when both sides have 2 or more of them; else the
   * repeats' ratio without an interval.
   */
  public static Unpaired unpaired(
      double[] baseRepeats, double[] newRepeats, double[] baseIterations, double[] newIterations) {
    if (baseRepeats.length >= 2 && newRepeats.length >= 2) {
      return new Unpaired(welch(logs(baseRepeats), logs(newRepeats)), OVER_REPEATS);
    }
    if (baseIterations.length >= 2 && newIterations.length >= 2) {
      return new Unpaired(welch(logs(baseIterations), logs(newIterations)), OVER_ITERATIONS);
    }
    return new Unpaired(welch(logs(baseRepeats), logs(newRepeats)), null);
  }

  /**
   * Whether the ratio's unadjusted 95% interval lies inside the equivalence margin [1/(1+M), 1+M],
   * symmetric in log space.
   */
  public static boolean equivalent(Estimate e, double margin) {
    double[] ci = e.interval(0.95);
    double edge = Math.log1p(margin);
    return Math.log(ci[0]) >= -edge && Math.log(ci[1]) <= edge;
  }

  public static double[] logs(double[] v) {
    double[] out = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = Math.log(Math.max(v[i], 1e-12));
    }
    return out;
  }

  public static double tQuantile(double p, double df) {
    return new TDistribution(df).inverseCumulativeProbability(p);
  }

  /**
   * Holm's step-down adjustment of p-values (family-wise error rate): sorted ascending, the k-th
   * (0-based) of m is multiplied by m - k, made monotone, capped at 1. Returned in input order.
   */
  public static double[] holm(double[] p) {
    int m = p.length;
    Integer[] idx = IntStream.range(0, m).boxed().toArray(Integer[]::new);
    Arrays.sort(idx, Comparator.comparingDouble(i -> p[i]));
    double[] adj = new double[m];
    double running = 0;
    for (int k = 0; k < m; k++) {
      int i = idx[k];
      running = Math.max(running, Math.min(1, (m - k) * p[i]));
      adj[i] = running;
    }
    return adj;
  }

  /**
   * Holm's adjustment over a family of tested estimates, in the family's order.
   *
   * @param adjusted each estimate's p after the adjustment
   * @param alphas the level of each estimate's step (see {@link #holmAlphas})
   */
  public record Holm(double[] adjusted, double[] alphas) {}

  /** Holm over the family {@code tested} at {@code alpha}. */
  public static Holm holm(List<Estimate> tested, double alpha) {
    double[] p = tested.stream().mapToDouble(Estimate::p).toArray();
    return new Holm(holm(p), holmAlphas(p, alpha));
  }

  /**
   * The level at which Holm tests each hypothesis: the k-th smallest p-value (0-based) of m is
   * compared with alpha / (m - k). The interval at 1 - that level excludes 1 exactly when the
   * step's test rejects.
   */
  public static double[] holmAlphas(double[] p, double alpha) {
    int m = p.length;
    Integer[] idx = IntStream.range(0, m).boxed().toArray(Integer[]::new);
    Arrays.sort(idx, Comparator.comparingDouble(i -> p[i]));
    double[] out = new double[m];
    for (int k = 0; k < m; k++) {
      out[idx[k]] = alpha / (m - k);
    }
    return out;
  }

  /**
   * Power of the two-sided paired t test at {@code alpha} with {@code n} blocks when the true mean
   * log ratio is {@code delta} and the block log ratios have standard deviation {@code sd}: the
   * noncentral t tail, integrated over the chi-squared distribution of the sample variance.
   */
  public static double power(int n, double delta, double sd, double alpha) {
    if (n < 2) {
      return Double.NaN;
    }
    int df = n - 1;
    double tc = tQuantile(1 - alpha / 2, df);
    double ncp = delta / sd * Math.sqrt(n);
    NormalDistribution z = new NormalDistribution();
    // midpoint rule over the quantiles of V ~ chi2(df): E_V[P(|Z + ncp| > tc sqrt(V/df))]
    double[] q = CHI_QUANTILES.computeIfAbsent(df, Stats::chiQuantiles);
    int steps = q.length;
    double sum = 0;
    for (int i = 0; i < steps; i++) {
      double c = tc * Math.sqrt(q[i] / df);
      sum += (1 - z.cumulativeProbability(c - ncp)) + z.cumulativeProbability(-c - ncp);
    }
    return sum / steps;
  }

  private static final int POWER_STEPS = 1000;

  /**
   * The chi-squared quantiles power() integrates over, per degrees of freedom (costly to solve).
   */
  private static final Map<Integer, double[]> CHI_QUANTILES = new ConcurrentHashMap<>();

  private static double[] chiQuantiles(int df) {
    ChiSquaredDistribution chi = new ChiSquaredDistribution(df);
    double[] q = new double[POWER_STEPS];
    for (int i = 0; i < POWER_STEPS; i++) {
      q[i] = chi.inverseCumulativeProbability((i + 0.5) / POWER_STEPS);
    }
    return q;
  }

  /**
   * Blocks for which the two-sided test at {@code alpha} has at least {@code power} against a true
   * mean log ratio {@code delta}, given the block sd; capped at {@code max}.
   */
  public static int blocksFor(double delta, double sd, double alpha, double power, int max) {
    if (!(sd > 0) || delta == 0) {
      return delta == 0 ? max : 2;
    }
    // the t test needs at least the normal approximation's blocks; count up from there
    NormalDistribution z = new NormalDistribution();
    double k =
        (z.inverseCumulativeProbability(1 - alpha / 2) + z.inverseCumulativeProbability(power))
            * sd
            / Math.abs(delta);
    double n0 = k * k;
    if (n0 >= max) {
      return max;
    }
    if (n0 > 200) {
      // with this many degrees of freedom t is the normal to well under one block
      return Math.min(max, (int) Math.ceil(n0) + 1);
    }
    for (int n = Math.max(2, (int) Math.floor(n0)); n <= max; n++) {
      if (power(n, Math.abs(delta), sd, alpha) >= power) {
        return n;
      }
    }
    return max;
  }

  /** Blocks for which the interval's log half-width at {@code level} is at most {@code h}. */
  public static int blocksForHalfWidth(double h, double sd, double level, int max) {
    if (!(sd > 0)) {
      return 2;
    }
    for (int n = 2; n <= max; n++) {
      if (tQuantile(1 - (1 - level) / 2, n - 1) * sd / Math.sqrt(n) <= h) {
        return n;
      }
    }
    return max;
  }
}
