package dev.wg1bench.history.analysis;

import dev.wg1bench.stats.EDivisive;
import dev.wg1bench.stats.SegmentSignificance;
import java.util.ArrayList;
import java.util.List;
import org.hipparchus.distribution.continuous.TDistribution;

/**
 * A series' change points (E-Divisive means as Otava finds them) described for a reader: where the
 * new segment starts (index, run, commit, time), each side's mean with its 95% interval, the
 * relative change with its interval, and p.
 *
 * <p>The figures are computed on the final segments (from the change point before to the one
 * after): p is the t-test of {@link SegmentSignificance} between them; a segment's interval is
 * Student's over its own points (a one-point segment shows its run's own interval, or none); the
 * change's interval is Fieller's for the ratio of the two means, each with its own segment's
 * variance (the pooled one when a segment has a single run), so it is finite only when the mean
 * before is clearly non-zero.
 */
public final class ChangePointAnalysis {
  private ChangePointAnalysis() {}

  /** What a reader asked for: the method's settings and whether runs' own intervals count. */
  public record Settings(EDivisive.Settings method, boolean useIntervals) {}

  /**
   * One side of a change point.
   *
   * @param from the index of its first point
   * @param points how many points it has
   * @param mean their mean
   * @param low the lower end of the mean's 95% interval, or null when there is none
   * @param high the upper end, or null
   */
  public record Segment(int from, int points, double mean, Double low, Double high) {}

  /**
   * The relative change after / before − 1 and its 95% interval (null ends when unbounded).
   *
   * @param relative after / before − 1
   * @param low lower end, or null
   * @param high upper end, or null
   */
  public record Change(double relative, Double low, Double high) {}

  /**
   * One change point.
   *
   * @param index the 0-based position in the series of the new segment's first point
   * @param time that point's run time, ISO-8601
   * @param runId that run's id
   * @param commit that run's commit, or null
   * @param before the segment before
   * @param after the segment starting here
   * @param change the relative change of the mean
   * @param p the t-test's two-sided p between the two segments
   * @param direction regression or improvement, by the series' better direction
   */
  public record Point(
      int index,
      String time,
      String runId,
      String commit,
      Segment before,
      Segment after,
      Change change,
      double p,
      Direction direction) {}

  /** A series and its change points. */
  public record Analyzed(
      String name, String metric, boolean higherIsBetter, int points, List<Point> changePoints) {}

  /** The smallest series the method can split: two minimum segments, and at least 2 points. */
  public static int fewestPoints(EDivisive.Settings s) {
    return Math.max(2, 2 * s.minSegment());
  }

  /** The values of a series. */
  public static double[] values(List<SeriesPoint> pts) {
    return pts.stream().mapToDouble(SeriesPoint::value).toArray();
  }

  /**
   * Each point's own variance from its run's 95% interval (half-width / 1.96, squared), NaN where
   * it has none; null when {@code useIntervals} is off.
   */
  public static double[] noise(List<SeriesPoint> pts, boolean useIntervals) {
    if (!useIntervals) {
      return null;
    }
    return pts.stream()
        .mapToDouble(
            p -> {
              if (!p.hasInterval()) {
                return Double.NaN;
              }
              double sd = (p.high() - p.low()) / 2 / 1.959963984540054;
              return sd * sd;
            })
        .toArray();
  }

  /** The change points of a series long enough to split (see {@link #fewestPoints}). */
  public static Analyzed analyze(Series series, Settings s) {
    List<SeriesPoint> pts = series.points();
    double[] x = values(pts);
    double[] noise = noise(pts, s.useIntervals());
    List<EDivisive.ChangePoint> cps = EDivisive.changePoints(x, noise, s.method());
    List<Point> out = new ArrayList<>();
    for (int k = 0; k < cps.size(); k++) {
      int from = k == 0 ? 0 : cps.get(k - 1).index();
      int at = cps.get(k).index();
      int to = k == cps.size() - 1 ? x.length : cps.get(k + 1).index();
      out.add(describe(series, x, noise, from, at, to));
    }
    return new Analyzed(series.name(), series.metric(), series.higherIsBetter(), x.length, out);
  }

  /** The comparison of {@code [from, at)} with {@code [at, to)}, described at {@code at}. */
  public static Point describe(
      Series series, double[] x, double[] noise, int from, int at, int to) {
    List<SeriesPoint> pts = series.points();
    SegmentSignificance.Outcome t = SegmentSignificance.compare(x, noise, from, at, to);
    Segment before = segment(pts, x, from, at);
    Segment after = segment(pts, x, at, to);
    Change change = change(x, noise, from, at, to);
    SeriesPoint first = pts.get(at);
    boolean up = t.meanAfter() > t.meanBefore();
    Direction direction =
        up == series.higherIsBetter() ? Direction.IMPROVEMENT : Direction.REGRESSION;
    return new Point(
        at,
        first.time().toString(),
        first.runId(),
        first.commit(),
        before,
        after,
        change,
        t.p(),
        direction);
  }

  private static Segment segment(List<SeriesPoint> pts, double[] x, int from, int to) {
    int n = to - from;
    double mean = mean(x, from, to);
    if (n == 1) {
      SeriesPoint p = pts.get(from);
      return p.hasInterval()
          ? new Segment(from, 1, mean, p.low(), p.high())
          : new Segment(from, 1, mean, null, null);
    }
    double ss = 0;
    for (int i = from; i < to; i++) {
      ss += (x[i] - mean) * (x[i] - mean);
    }
    double half =
        new TDistribution(n - 1).inverseCumulativeProbability(0.975) * Math.sqrt(ss / (n - 1) / n);
    // the mean of a metric that is never negative is not either: the interval is cut at 0, as the
    // change's is at -100%
    double low = mean - half;
    boolean nonNegative = true;
    for (int i = from; i < to; i++) {
      nonNegative &= x[i] >= 0;
    }
    return new Segment(from, n, mean, nonNegative ? Math.max(0, low) : low, mean + half);
  }

  /**
   * after / before − 1 with Fieller's 95% interval: each mean's variance from its own segment
   * (Welch's degrees of freedom) when both have two runs or more, else from the pooled variance;
   * with runs' own intervals, floored at their mean own variance.
   */
  static Change change(double[] x, double[] noise, int from, int at, int to) {
    int nb = at - from;
    int na = to - at;
    double b = mean(x, from, at);
    double a = mean(x, at, to);
    double relative = b == 0 ? Double.NaN : a / b - 1;
    if (b == 0) {
      return new Change(relative, null, null);
    }
    double vb = floored(sumSq(x, from, at, b), nb, noise, from, at);
    double va = floored(sumSq(x, at, to, a), na, noise, at, to);
    if (nb >= 2 && na >= 2 && !Double.isNaN(vb) && !Double.isNaN(va)) {
      // Each segment its own variance (Welch): noise scales with the level, and a pooled variance
      // would lend a fast, noisy segment's spread to a slow, steady one, giving a tps ratio
      // interval that reaches below zero.
      double ub = vb / nb;
      double ua = va / na;
      double df = (ua + ub) * (ua + ub) / (ua * ua / (na - 1) + ub * ub / (nb - 1));
      return withinRange(
          fieller(relative, a, b, ua, ub, Double.isNaN(df) ? nb + na - 2 : df), x, from, to);
    }
    // A one-run segment has no spread of its own: the pooled variance, as the t-test assumes.
    int df = nb + na - 2;
    double var = df > 0 ? (sumSq(x, from, at, b) + sumSq(x, at, to, a)) / df : Double.NaN;
    double own = ownVariance(noise, from, to);
    if (!Double.isNaN(own)) {
      var = Double.isNaN(var) ? own : Math.max(var, own);
      df = Math.max(df, 1);
    }
    if (df <= 0 || Double.isNaN(var)) {
      return new Change(relative, null, null);
    }
    return withinRange(fieller(relative, a, b, var / na, var / nb, df), x, from, to);
  }

  /**
   * A change of a metric that is never negative (every metric wg1bench stores: rates, latencies,
   * counts, CPU) cannot fall below −100%: the interval is cut there, which keeps its coverage (the
   * part cut off holds no possible value). Both branches reach below it otherwise: the pooled
   * variance of a one-run segment after a fast, noisy one, and Welch's variance of a noisy segment
   * of small values after a steady one.
   */
  private static Change withinRange(Change c, double[] x, int from, int to) {
    if (c.low() == null || c.low() >= -1) {
      return c;
    }
    for (int i = from; i < to; i++) {
      if (x[i] < 0) {
        return c;
      }
    }
    return new Change(c.relative(), -1.0, c.high());
  }

  /**
   * Fieller's 95% interval for a / b − 1 given the variances ua and ub of the two means: the R with
   * (a − R·b)² ≤ t²·(ua + R²·ub), a quadratic in R; unbounded (null ends) when b is not clearly
   * non-zero.
   */
  private static Change fieller(
      double relative, double a, double b, double ua, double ub, double df) {
    double t = new TDistribution(df).inverseCumulativeProbability(0.975);
    double qa = b * b - t * t * ub;
    double qb = -2 * a * b;
    double qc = a * a - t * t * ua;
    double disc = qb * qb - 4 * qa * qc;
    if (qa <= 0 || disc < 0) {
      return new Change(relative, null, null);
    }
    double r1 = (-qb - Math.sqrt(disc)) / (2 * qa);
    double r2 = (-qb + Math.sqrt(disc)) / (2 * qa);
    return new Change(relative, Math.min(r1, r2) - 1, Math.max(r1, r2) - 1);
  }

  private static double sumSq(double[] x, int from, int to, double m) {
    double ss = 0;
    for (int i = from; i < to; i++) {
      ss += (x[i] - m) * (x[i] - m);
    }
    return ss;
  }

  /** A segment's sample variance, floored (with runs' own intervals) at their mean own variance. */
  private static double floored(double ss, int n, double[] noise, int from, int to) {
    double v = n >= 2 ? ss / (n - 1) : Double.NaN;
    double own = ownVariance(noise, from, to);
    return Double.isNaN(own) || Double.isNaN(v) ? v : Math.max(v, own);
  }

  /**
   * The mean of the runs' own variances over [from, to), or NaN when none has one or none given.
   */
  private static double ownVariance(double[] noise, int from, int to) {
    if (noise == null) {
      return Double.NaN;
    }
    double s = 0;
    int k = 0;
    for (int i = from; i < to; i++) {
      if (!Double.isNaN(noise[i])) {
        s += noise[i];
        k++;
      }
    }
    return k == 0 ? Double.NaN : s / k;
  }

  /**
   * The analysis as the report's {@link ChangePointFinder}: a series too short to split has no
   * change point.
   */
  public static ChangePointFinder finder(Settings s) {
    return series -> {
      if (series.points().size() < fewestPoints(s.method())) {
        return List.of();
      }
      return analyze(series, s).changePoints().stream()
          .map(
              c ->
                  new ChangePointFinder.Shift(
                      c.index(),
                      c.before().mean(),
                      c.after().mean(),
                      c.change().relative(),
                      c.change().low() == null ? Double.NaN : c.change().low(),
                      c.change().high() == null ? Double.NaN : c.change().high(),
                      c.p()))
          .toList();
    };
  }

  static double mean(double[] x, int from, int to) {
    double s = 0;
    for (int i = from; i < to; i++) {
      s += x[i];
    }
    return s / (to - from);
  }
}
