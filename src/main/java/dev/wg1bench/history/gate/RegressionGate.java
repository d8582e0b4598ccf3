package dev.wg1bench.history.gate;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.wg1bench.history.analysis.ChangePointAnalysis;
import dev.wg1bench.history.analysis.CountTest;
import dev.wg1bench.history.analysis.Direction;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.stats.EDivisive;
import dev.wg1bench.stats.SegmentSignificance;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The CI gate's judgement of one series: its latest run(s) against the segment before them.
 *
 * <p>The baseline is the last segment of the history without the latest runs (E-Divisive means
 * finds its start, with the same settings as {@code analyze}), so a change already accepted earlier
 * is not compared against again, and runs from before it do not dilute the baseline. The latest
 * runs regress when they are worse (by the series' better direction), Otava's magnitude of the
 * change exceeds {@code magnitude}, and the t-test between the two is significant at {@code p};
 * better by the same rule is an improvement, which passes. Failed ops and retries are counts: they
 * are judged as rates per attempted op by {@link CountTest}'s exact test, one-sided, at {@code p}.
 *
 * <p>{@code p} is the gate's level for its one-sided alarm (a regression). The t-test is Otava's
 * two-sided one, so its regressions alone would come at most p / 2 of A/A runs; the baseline is
 * chosen by the change-point search on the same noise, which raises that, and {@code
 * RegressionGateFalseAlarmTest} holds both tests to p.
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
    REGRESSION;

    /** "pass", "improvement", "regression": the name the JSON and the lines use. */
    @JsonValue
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
      return label();
    }
  }

  /**
   * One series judged.
   *
   * @param name the series
   * @param comparison baseline (before) against the latest runs (after), at the first latest run
   * @param outcome the decision
   * @param borderline worse, with p between the gate's level and the borderline level
   * @param counts a count series' test (failed ops, retries), else null
   */
  public record Judged(
      String name,
      ChangePointAnalysis.Point comparison,
      Outcome outcome,
      boolean borderline,
      CountTest.Counted counts) {
    /** Whether the latest runs are worse than the baseline, significant or not. */
    public boolean worse() {
      return counts != null
          ? counts.direction() == Direction.REGRESSION
          : comparison.direction() == Direction.REGRESSION;
    }
  }

  /** How many times the gate's p a borderline series' p may be when none is given. */
  public static final int BORDERLINE_TIMES_P = 10;

  /** The looser level of a borderline series when none is given: ten times p, at most 0.5. */
  public static double defaultBorderline(double p) {
    return Math.min(BORDERLINE_TIMES_P * p, 0.5);
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
   * worse result with p in ({@code p}, {@code borderlineP}] marked borderline. A count (failed ops,
   * retries) is judged by {@link CountTest} on its rate per attempted op, anything else by the
   * t-test of {@link SegmentSignificance}.
   */
  public static Judged judge(
      Series series, ChangePointAnalysis.Settings s, int last, double borderlineP) {
    List<SeriesPoint> pts = series.points();
    double[] x = ChangePointAnalysis.values(pts);
    double[] noise = ChangePointAnalysis.noise(pts, s.useIntervals());
    int at = x.length - last;
    if (EXACT.contains(series.metric()) && exactBefore(x, at)) {
      return exact(series, x, noise, at);
    }
    boolean count = CountTest.isCount(series.metric());
    // a count's baseline is where its rate last changed, not its raw count (runs differ in length)
    int from = baselineStart(count ? rates(pts) : x, count ? null : noise, at, s);
    ChangePointAnalysis.Point c =
        ChangePointAnalysis.describe(series, x, noise, from, at, x.length);
    double p;
    double magnitude;
    Direction direction = c.direction();
    CountTest.Counted counted = null;
    if (count) {
      counted = CountTest.compare(series, from, at, x.length);
      p = counted.p();
      magnitude = counted.magnitude();
      direction = counted.direction();
      c = withTest(c, p, direction);
    } else {
      SegmentSignificance.Outcome t = SegmentSignificance.compare(x, noise, from, at, x.length);
      p = t.p();
      magnitude = t.magnitude();
    }
    Outcome o = Outcome.PASS;
    boolean large = magnitude > s.method().magnitude();
    boolean worse = direction == Direction.REGRESSION;
    if (p <= s.method().p() && large && direction != Direction.NONE) {
      o = worse ? Outcome.REGRESSION : Outcome.IMPROVEMENT;
    }
    boolean borderline = large && worse && p > s.method().p() && p <= borderlineP;
    return new Judged(series.name(), c, o, borderline, counted);
  }

  /**
   * Figures per op that are counts of what the protocol required (round trips, statements): the
   * same ops give the same figure on any machine, so where the history holds one value a change is
   * a change at any sample size. A history that varies (a mix of scripts, drawn at random) is
   * judged as a measurement instead.
   */
  static final Set<String> EXACT = Set.of("roundTripsPerOp", "statementsPerOp");

  /** Whether every point before {@code at} holds the same value. */
  private static boolean exactBefore(double[] x, int at) {
    if (at < 1) {
      return false;
    }
    for (int i = 0; i < at; i++) {
      if (x[i] != x[0]) {
        return false;
      }
    }
    return true;
  }

  /**
   * An exact figure's latest runs against its one past value: more is a regression, less an
   * improvement, at any sample size (p 0); equal passes (p 1).
   */
  private static Judged exact(Series series, double[] x, double[] noise, int at) {
    ChangePointAnalysis.Point c = ChangePointAnalysis.describe(series, x, noise, 0, at, x.length);
    boolean changed = false;
    boolean more = false;
    for (int i = at; i < x.length; i++) {
      changed |= x[i] != x[0];
      more |= x[i] > x[0];
    }
    Direction direction =
        !changed ? Direction.NONE : more ? Direction.REGRESSION : Direction.IMPROVEMENT;
    Outcome o = !changed ? Outcome.PASS : more ? Outcome.REGRESSION : Outcome.IMPROVEMENT;
    return new Judged(series.name(), withTest(c, changed ? 0 : 1, direction), o, false, null);
  }

  /**
   * The first index of the baseline: the last change point E-Divisive finds in the history before
   * the latest runs, a segment too short to be a baseline joined to the one before it.
   */
  private static int baselineStart(
      double[] x, double[] noise, int at, ChangePointAnalysis.Settings s) {
    double[] history = Arrays.copyOf(x, at);
    double[] historyNoise = noise == null ? null : Arrays.copyOf(noise, at);
    int from = 0;
    int minBaseline = Math.max(2, s.method().minSegment());
    for (EDivisive.ChangePoint cp : EDivisive.changePoints(history, historyNoise, s.method())) {
      if (at - cp.index() >= minBaseline) {
        from = cp.index();
      }
    }
    return from;
  }

  /** A count series' rates: per attempted op, or the counts when some run did not record them. */
  private static double[] rates(List<SeriesPoint> pts) {
    boolean known = pts.stream().noneMatch(p -> Double.isNaN(p.attempts()));
    return pts.stream()
        .mapToDouble(p -> !known ? p.value() : p.attempts() == 0 ? 0 : p.value() / p.attempts())
        .toArray();
  }

  /** The comparison with the count test's p and direction in place of the t-test's. */
  private static ChangePointAnalysis.Point withTest(
      ChangePointAnalysis.Point c, double p, Direction direction) {
    return new ChangePointAnalysis.Point(
        c.index(),
        c.time(),
        c.runId(),
        c.commit(),
        c.before(),
        c.after(),
        c.change(),
        p,
        direction == Direction.NONE ? c.direction() : direction);
  }
}
