package dev.wg1bench.advise;

/**
 * The ratio of two throughputs with a 95% confidence interval: Welch's t interval on the difference
 * of mean log tps, exponentiated (a ratio of geometric means). Logs because throughput noise is
 * multiplicative and a ratio's interval should be symmetric in log space.
 */
final class Stats {
  /** Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom. */
  private static final double[] T975 = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042
  };

  private Stats() {}

  record Interval(double ratio, Double low, Double high) {}

  static Interval ratio(double[] baseline, double[] treatment) {
    double mb = mean(log(baseline));
    double mt = mean(log(treatment));
    double ratio = Math.exp(mt - mb);
    if (baseline.length < 2 || treatment.length < 2) {
      return new Interval(ratio, null, null);
    }
    double vb = variance(log(baseline)) / baseline.length;
    double vt = variance(log(treatment)) / treatment.length;
    double se = Math.sqrt(vb + vt);
    if (se == 0) {
      return new Interval(ratio, ratio, ratio);
    }
    double df =
        (vb + vt)
            * (vb + vt)
            / (vb * vb / (baseline.length - 1) + vt * vt / (treatment.length - 1));
    double t = t975(df);
    return new Interval(ratio, Math.exp(mt - mb - t * se), Math.exp(mt - mb + t * se));
  }

  /** t quantile, interpolated in the table; above 30 df a close approximation toward 1.96. */
  static double t975(double df) {
    if (df <= 1) {
      return T975[0];
    }
    if (df >= 30) {
      return 1.960 + 2.4 / df;
    }
    int lo = (int) Math.floor(df);
    double f = df - lo;
    return T975[lo - 1] * (1 - f) + T975[Math.min(lo, 29)] * f;
  }

  private static double[] log(double[] v) {
    double[] out = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = Math.log(Math.max(v[i], 1e-9));
    }
    return out;
  }

  static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.length;
  }

  static double variance(double[] v) {
    double m = mean(v);
    double s = 0;
    for (double x : v) {
      s += (x - m) * (x - m);
    }
    return s / (v.length - 1);
  }
}
