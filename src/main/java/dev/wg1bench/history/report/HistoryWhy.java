package dev.wg1bench.history.report;

import dev.wg1bench.history.analysis.ChangePointFinder;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.result.ArmFigures;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The mechanism under each change point of a series: the same configuration's per-op figures the
 * history holds (round trips and statements per op), their means over the runs of the segment
 * before the change and of the one after it, in the one line every comparison prints ({@link
 * ArmFigures#mechanism}); the figures the history does not hold are named as not counted.
 */
final class HistoryWhy {
  /** The per-op series of a configuration the history stores, by their metric's name. */
  static final String ROUND_TRIPS = "roundTripsPerOp";

  static final String STATEMENTS = "statementsPerOp";

  private HistoryWhy() {}

  /** Each change point's line, by its index; empty where the series has none. */
  static Map<Integer, String> of(
      Series s, List<ChangePointFinder.Shift> shifts, Map<String, Series> byName) {
    Map<Integer, String> out = new HashMap<>();
    String config = config(s);
    Series rt = byName.get(config + "/" + ROUND_TRIPS);
    Series st = byName.get(config + "/" + STATEMENTS);
    for (int k = 0; k < shifts.size(); k++) {
      int from = k == 0 ? 0 : shifts.get(k - 1).index();
      int at = shifts.get(k).index();
      int to = k + 1 < shifts.size() ? shifts.get(k + 1).index() : s.points().size();
      Set<String> before = runs(s, from, at);
      Set<String> after = runs(s, at, to);
      ArmFigures a = figures(mean(rt, before), mean(st, before));
      ArmFigures b = figures(mean(rt, after), mean(st, after));
      out.put(at, ArmFigures.mechanism(a, b));
    }
    return out;
  }

  /** The configuration part of a series' name ({@code CONFIG/METRIC}). */
  static String config(Series s) {
    String suffix = "/" + s.metric();
    return s.name().endsWith(suffix)
        ? s.name().substring(0, s.name().length() - suffix.length())
        : s.name();
  }

  private static ArmFigures figures(Double roundTrips, Double statements) {
    return new ArmFigures(roundTrips, statements, null, null, null, null, null);
  }

  private static Set<String> runs(Series s, int from, int to) {
    Set<String> ids = new HashSet<>();
    for (int i = from; i < to; i++) {
      ids.add(s.points().get(i).runId());
    }
    return ids;
  }

  /** The series' mean over the runs given; null where it has none of them (not counted). */
  private static Double mean(Series s, Set<String> runs) {
    if (s == null) {
      return null;
    }
    double sum = 0;
    int n = 0;
    for (SeriesPoint p : s.points()) {
      if (runs.contains(p.runId()) && Double.isFinite(p.value())) {
        sum += p.value();
        n++;
      }
    }
    return n == 0 ? null : sum / n;
  }
}
