package dev.wg1bench.history.store;

import dev.wg1bench.history.analysis.Series;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which stored runs a reading command takes: those whose attributes have every value asked (for
 * example {@code branch=main}), so runs of pull requests, other machines or other targets kept in
 * the same history stay out of main's baseline. An empty filter takes every run.
 *
 * @param attributes the attribute values a run must have, all of them
 */
public record RunFilter(Map<String, String> attributes) {

  /** Every run. */
  public static final RunFilter ALL = new RunFilter(Map.of());

  public RunFilter {
    attributes = Map.copyOf(attributes);
  }

  /** Whether a run is taken. */
  public boolean keeps(StoredRun run) {
    return attributes.entrySet().stream()
        .allMatch(e -> e.getValue().equals(run.attributes().get(e.getKey())));
  }

  /** The history's runs this filter takes, oldest first. */
  public List<StoredRun> runs(HistoryStore store) throws IOException {
    return store.runs().stream().filter(this::keeps).toList();
  }

  /** The series of the runs this filter takes whose name matches a glob (null for all). */
  public List<Series> series(HistoryStore store, String glob) throws IOException {
    return attributes.isEmpty() ? store.series(glob) : SeriesOf.of(runs(store), glob);
  }

  /** The filter in words, for messages: {@code branch=main, host=ci-3}, or empty. */
  public String describe() {
    return String.join(
        ", ",
        new TreeMap<>(attributes)
            .entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
  }
}
