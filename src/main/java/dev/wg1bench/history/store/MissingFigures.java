package dev.wg1bench.history.store;

import dev.wg1bench.history.analysis.Series;
import java.util.ArrayList;
import java.util.List;

/**
 * The latest runs a gate cannot judge: a run that measured a series' configuration but holds no
 * finite figure for its metric (missing from an import, or a NaN a history written before results
 * were checked kept). Such a run is no point of the series, so without this the gate would judge
 * the run before it and pass a change it never saw.
 */
public final class MissingFigures {
  private MissingFigures() {}

  /**
   * One line per series and latest run that lacks the series' figure: of the runs (oldest first)
   * that measured the series' configuration, the last {@code last}.
   */
  public static List<String> inLatest(List<StoredRun> runs, List<Series> series, int last) {
    List<String> out = new ArrayList<>();
    for (Series s : series) {
      String config = s.name().substring(0, s.name().length() - s.metric().length() - 1);
      List<StoredRun> measured =
          runs.stream()
              .filter(r -> r.metrics().stream().anyMatch(m -> m.config().equals(config)))
              .toList();
      for (StoredRun r : measured.subList(Math.max(0, measured.size() - last), measured.size())) {
        StoredMetric m =
            r.metrics().stream()
                .filter(x -> x.config().equals(config) && x.metric().equals(s.metric()))
                .findFirst()
                .orElse(null);
        if (m == null || !Double.isFinite(m.value())) {
          out.add(
              "broken: "
                  + s.name()
                  + ": run "
                  + r.id()
                  + " of "
                  + r.time()
                  + (r.commit() == null ? "" : " (commit " + r.commit() + ")")
                  + (m == null ? " has no " + s.metric() : " has " + s.metric() + " " + m.value())
                  + ", no finite figure to judge: the gate does not pass it");
        }
      }
    }
    return out;
  }
}
