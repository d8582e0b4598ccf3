package dev.wg1bench.history;

import dev.wg1bench.stats.EDivisive;
import dev.wg1bench.stats.SegmentTTest;
import java.util.ArrayList;
import java.util.List;
import org.hipparchus.distribution.continuous.TDistribution;

/**
 * A series' change points (E-Divisive means as Otava finds them) described for a reader: where the
 * new segment starts (index, run, commit, time), each side's mean with its 95% interval, the
 * relative change with its interval, and p.
 *
 * <p>The figures are computed on the final segments (from the change point before to the one
 * after): p is the t-test of {@link SegmentTTest} between them; a segment's interval is Student's
 * over its own points (a one-point segment shows its run's own interval, or none); the change's
 * interval is Fieller's for the ratio of the two means under the pooled variance the t-test
 * assumes, so it is finite only when the mean before is clearly non-zero.
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
   * @param direction "regression" or "improvement", by the series' better direction
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
      String direction) {}

  /** A series and its change points. */
  public record Analyzed(
      String name, String metric, boolean higherIsBetter, int points, List<Point> changePoints) {}

  /** The smallest series the method can split: two minimum segments, and at least 2 points. */
  public static int fewestPoints(EDivisive.Settings s) {
    return Math.max(2, 2 * s.minSegment());
  }

  /** The values of a series. */
  static double[] values(List<SeriesPoint> pts) {
    return pts.stream().mapToDouble(SeriesPoint::value).toArray();
  }

  /**
   * Each point's own variance from its run's 95% interval (half-width / 1.96, squared), NaN where
   * it has none; null when {@code useIntervals} is off.
   */
  static double[] noise(List<SeriesPoint> pts, boolean useIntervals) {
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
  static Point describe(Series series, double[] x, double[] noise, int from, int at, int to) {
    List<SeriesPoint> pts = series.points();
    SegmentTTest.Outcome t = SegmentTTest.compare(x, noise, from, at, to);
    Segment before = segment(pts, x, from, at);
    Segment after = segment(pts, x, at, to);
    Change change = change(x, noise, from, at, to);
    SeriesPoint first = pts.get(at);
    boolean up = t.meanAfter() > t.meanBefore();
    String direction = up == series.higherIsBetter() ? "improvement" : "regression";
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
    return new Segment(from, n, mean, mean - half, mean + half);
  }

  /**
   * after / before − 1 with Fieller's 95% interval, the two means' variances σ²/n from the pooled
   * sample variance (floored, with runs' own intervals, at their mean own variance).
   */
  static Change change(double[] x, double[] noise, int from, int at, int to) {
    int nb = at - from;
    int na = to - at;
    double b = mean(x, from, at);
    double a = mean(x, at, to);
    double relative = b == 0 ? Double.NaN : a / b - 1;
    int df = nb + na - 2;
    double ss = 0;
    for (int i = from; i < at; i++) {
      ss += (x[i] - b) * (x[i] - b);
    }
    for (int i = at; i < to; i++) {
      ss += (x[i] - a) * (x[i] - a);
    }
    double var = df > 0 ? ss / df : Double.NaN;
    if (noise != null) {
      double s = 0;
      int k = 0;
      for (int i = from; i < to; i++) {
        if (!Double.isNaN(noise[i])) {
          s += noise[i];
          k++;
        }
      }
      if (k > 0) {
        var = Double.isNaN(var) ? s / k : Math.max(var, s / k);
        df = Math.max(df, 1);
      }
    }
    if (df <= 0 || Double.isNaN(var) || b == 0) {
      return new Change(relative, null, null);
    }
    double t = new TDistribution(df).inverseCumulativeProbability(0.975);
    double g = t * t * var;
    // (a − R·b)² ≤ t²·var·(1/na + R²/nb): a quadratic in the ratio R
    double qa = b * b - g / nb;
    double qb = -2 * a * b;
    double qc = a * a - g / na;
    double disc = qb * qb - 4 * qa * qc;
    if (qa <= 0 || disc < 0) {
      return new Change(relative, null, null);
    }
    double r1 = (-qb - Math.sqrt(disc)) / (2 * qa);
    double r2 = (-qb + Math.sqrt(disc)) / (2 * qa);
    return new Change(relative, Math.min(r1, r2) - 1, Math.max(r1, r2) - 1);
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
