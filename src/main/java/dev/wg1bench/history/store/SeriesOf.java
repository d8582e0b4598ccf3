package dev.wg1bench.history.store;

import dev.wg1bench.history.analysis.CountTest;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Stored runs turned into series: every (configuration, metric) a run measured is a point of the
 * series {@code CONFIG/METRIC}, oldest run first. Both stores build their series here, so a folder
 * and a PostgreSQL history holding the same runs give the same series.
 *
 * <p>The ops a configuration attempted ({@value #ATTEMPTED_OPS}) are not a series of their own:
 * they depend on how long the run was, not on how good the code is. They are what a count of the
 * same configuration (failed ops, retries) is a rate of, so each count's point carries them.
 */
final class SeriesOf {
  private SeriesOf() {}

  /** The stored metric of the ops a configuration attempted: successful and failed. */
  static final String ATTEMPTED_OPS = "attemptedOps";

  /** The series matching the glob, by name; runs need not be sorted. */
  static List<Series> of(List<StoredRun> runs, String glob) {
    Pattern match = Globs.compile(glob);
    List<StoredRun> sorted = new ArrayList<>(runs);
    sorted.sort(OLDEST_FIRST);
    Map<String, List<SeriesPoint>> points = new TreeMap<>();
    Map<String, StoredMetric> latest = new TreeMap<>();
    for (StoredRun r : sorted) {
      Map<String, Double> attempts = new HashMap<>();
      for (StoredMetric m : r.metrics()) {
        if (m.metric().equals(ATTEMPTED_OPS)) {
          attempts.put(m.config(), m.value());
        }
      }
      for (StoredMetric m : r.metrics()) {
        String name = m.seriesName();
        if (m.metric().equals(ATTEMPTED_OPS)
            || !match.matcher(name).matches()
            || !Double.isFinite(m.value())) {
          // a figure that is no number (a history written before results were checked) is a
          // missing one, never a point: 'history check' fails the run that lacks it
          continue;
        }
        double tried =
            CountTest.isCount(m.metric())
                ? attempts.getOrDefault(m.config(), Double.NaN)
                : Double.NaN;
        points
            .computeIfAbsent(name, k -> new ArrayList<>())
            .add(
                new SeriesPoint(
                    r.time(),
                    r.id(),
                    r.commit(),
                    m.value(),
                    bound(m.low()),
                    bound(m.high()),
                    tried));
        latest.put(name, m);
      }
    }
    List<Series> out = new ArrayList<>();
    points.forEach(
        (name, p) -> {
          StoredMetric m = latest.get(name);
          out.add(new Series(name, m.metric(), m.higherIsBetter(), p));
        });
    return out;
  }

  /** An interval's end as a point keeps it: NaN (no interval) unless finite. */
  private static double bound(double v) {
    return Double.isFinite(v) ? v : Double.NaN;
  }

  /** The order of {@link HistoryStore#runs()}: by time, then id. */
  static final Comparator<StoredRun> OLDEST_FIRST =
      Comparator.comparing(StoredRun::time).thenComparing(StoredRun::id);
}
