package dev.wg1bench.history;

import dev.wg1bench.stats.EDivisive;
import dev.wg1bench.stats.SegmentTTest;
import java.util.List;

/**
 * The CI gate's judgement of one series: its latest run(s) against the segment before them.
 *
 * <p>The baseline is the last segment of the history without the latest runs (E-Divisive means
 * finds its start, with the same settings as {@code analyze}), so a change already accepted earlier
 * is not compared against again, and runs from before it do not dilute the baseline. The latest
 * runs regress when they are worse (by the series' better direction), Otava's magnitude of the
 * change exceeds {@code magnitude}, and the t-test between the two is significant at {@code p};
 * better by the same rule is an improvement, which passes.
 */
public final class RegressionGate {
  private RegressionGate() {}

  /** What the gate decided for a series. */
  public enum Outcome {
    PASS,
    IMPROVEMENT,
    REGRESSION
  }

  /**
   * One series judged.
   *
   * @param name the series
   * @param comparison baseline (before) against the latest runs (after), at the first latest run
   * @param outcome the decision
   */
  public record Judged(String name, ChangePointAnalysis.Point comparison, Outcome outcome) {}

  /** The fewest points a series needs to be judged with {@code last} latest runs. */
  public static int fewestPoints(EDivisive.Settings s, int last) {
    return last + Math.max(2, s.minSegment());
  }

  /** Judges the last {@code last} points of a series long enough (see {@link #fewestPoints}). */
  public static Judged judge(Series series, ChangePointAnalysis.Settings s, int last) {
    List<SeriesPoint> pts = series.points();
    double[] x = ChangePointAnalysis.values(pts);
    double[] noise = ChangePointAnalysis.noise(pts, s.useIntervals());
    int at = x.length - last;
    double[] history = java.util.Arrays.copyOf(x, at);
    double[] historyNoise = noise == null ? null : java.util.Arrays.copyOf(noise, at);
    int from = 0;
    int minBaseline = Math.max(2, s.method().minSegment());
    for (EDivisive.ChangePoint cp : EDivisive.changePoints(history, historyNoise, s.method())) {
      // a segment too short to be a baseline is joined to the one before it
      if (at - cp.index() >= minBaseline) {
        from = cp.index();
      }
    }
    ChangePointAnalysis.Point c =
        ChangePointAnalysis.describe(series, x, noise, from, at, x.length);
    SegmentTTest.Outcome t = SegmentTTest.compare(x, noise, from, at, x.length);
    Outcome o = Outcome.PASS;
    if (t.p() <= s.method().p() && t.magnitude() > s.method().magnitude()) {
      o = c.direction().equals("regression") ? Outcome.REGRESSION : Outcome.IMPROVEMENT;
    }
    return new Judged(series.name(), c, o);
  }
}
