package dev.wg1bench.history.store;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One run as a history keeps it: when, what it was (attributes such as commit, branch, CI build,
 * the result's kind and any {@code --attr k=v}), and every figure of every point it measured. A
 * stored run is never rewritten.
 *
 * @param id the run's id, unique in its history; null on a run not yet appended (the store gives it
 *     one)
 * @param time when the run started
 * @param kind what produced it: run, sweep, replay, advise, or an import's format
 * @param attributes the run's attributes (commit, branch, build, source file, user's --attr)
 * @param metrics every figure of the run
 */
public record StoredRun(
    String id,
    Instant time,
    String kind,
    Map<String, String> attributes,
    List<StoredMetric> metrics) {

  public StoredRun {
    attributes = Map.copyOf(attributes);
    metrics = List.copyOf(metrics);
  }

  /** The commit attribute, or null. */
  public String commit() {
    return attributes.get("commit");
  }
}
