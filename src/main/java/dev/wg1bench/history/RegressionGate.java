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
 *
 * <p>A series is <em>borderline</em> when its latest runs are worse by more than {@code magnitude}
 * and p falls between {@code p} and a looser level (by default ten times {@code p}): the history
 * alone neither shows the regression nor rules it out. The gate then passes it unless a
 * same-machine re-measurement (the {@code advise} engine's blocks) confirms it.
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
  public record Judged(
      String name, ChangePointAnalysis.Point comparison, Outcome outcome, boolean borderline) {
    /** Whether the latest runs are worse than the baseline, significant or not. */
    public boolean worse() {
      return comparison.direction().equals("regression");
    }
  }

  /** The looser level of a borderline series when none is given: ten times p, below 1. */
  public static double defaultBorderline(double p) {
    return Math.min(10 * p, 0.5);
  }

  /** The fewest points a series needs to be judged with {@code last} latest runs. */
  public static int fewestPoints(EDivisive.Settings s, int last) {
    return last + Math.max(2, s.minSegment());
  }

  /** Judges the last {@code last} points of a series long enough (see {@link #fewestPoints}). */
  public static Judged judge(Series series, ChangePointAnalysis.Settings s, int last) {
    return judge(series, s, last, defaultBorderline(s.method().p()));
  }

  /**
   * Judges the last {@code last} points of a series long enough (see {@link #fewestPoints}), a
   * worse result with p in ({@code p}, {@code borderlineP}] marked borderline.
   */
  public static Judged judge(
      Series series, ChangePointAnalysis.Settings s, int last, double borderlineP) {
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
    boolean large = t.magnitude() > s.method().magnitude();
    if (t.p() <= s.method().p() && large) {
      o = c.direction().equals("regression") ? Outcome.REGRESSION : Outcome.IMPROVEMENT;
    }
    boolean borderline =
        large
            && c.direction().equals("regression")
            && t.p() > s.method().p()
            && t.p() <= borderlineP;
    return new Judged(series.name(), c, o, borderline);
  }
}
