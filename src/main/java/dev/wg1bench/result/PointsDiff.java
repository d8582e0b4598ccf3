package dev.wg1bench.result;

import dev.wg1bench.stats.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Two saved results compared point by point, as values: what {@code diff} prints and the report's
 * diff section draws. Computed in {@code advise.ResultDiff} (the statistics live there, not in the
 * writers).
 *
 * @param rows the points both results have, in the base's order
 * @param onlyBase points only the base has, by label
 * @param onlyNew points only the new result has, by label
 * @param refused why the two cannot be compared (no point in common), else null
 */
public record PointsDiff(
    List<Row> rows, List<String> onlyBase, List<String> onlyNew, String refused) {

  /** Where a point's interval comes from: the point's repeats, or its trials' iterations. */
  public static final String OVER_REPEATS = Stats.OVER_REPEATS;

  public static final String OVER_ITERATIONS = Stats.OVER_ITERATIONS;

  /**
   * One matched point.
   *
   * @param over {@link #OVER_REPEATS}, {@link #OVER_ITERATIONS}, or null when neither side has 2
   *     values (no interval)
   * @param holmP the Holm-adjusted p over the points with an interval, else null
   * @param verdict advise's verdict read as new against base, or "broken: ..." when a side's ops
   *     failed above the allowed share
   * @param basePerOp the base's trials of the point per op ({@link ArmFigures})
   * @param newPerOp the new result's
   * @param mechanism the line naming how they differ per op ({@link ArmFigures#mechanism})
   */
  public record Row(
      Map<String, String> point,
      int baseTrials,
      int newTrials,
      double baseTps,
      double newTps,
      double ratio,
      Double low,
      Double high,
      String over,
      double p50Ratio,
      double p99Ratio,
      Double holmP,
      String verdict,
      ArmFigures basePerOp,
      ArmFigures newPerOp,
      String mechanism) {}

  /** Two results that cannot be compared, and why. */
  public static PointsDiff refused(String why) {
    return new PointsDiff(List.of(), List.of(), List.of(), why);
  }

  /** Whether some point is broken (its verdict says how). */
  public boolean anyBroken() {
    return rows.stream().anyMatch(row -> row.verdict().startsWith("broken"));
  }

  /** A point's knob values as one label: {@code clients=8 queryMode=simple}. */
  public static String label(Map<String, String> p) {
    List<String> parts = new ArrayList<>();
    p.forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(" ", parts);
  }
}
