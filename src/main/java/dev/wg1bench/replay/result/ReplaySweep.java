package dev.wg1bench.replay.result;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The result of a replay of several trials (knobs swept, several targets), as one JSON file: each
 * trial a whole {@link ReplayResult} whose {@code point} names its knob values.
 *
 * @param kind always "replay-sweep"
 * @param varying the keys of the points, in order (target, queryMode, ...)
 */
public record ReplaySweep(
    String kind,
    String version,
    List<String> logs,
    List<String> varying,
    List<ReplayResult> trials) {

  public static ReplaySweep of(List<ReplayResult> trials) {
    Set<String> keys = new LinkedHashSet<>();
    trials.forEach(t -> keys.addAll(t.point().keySet()));
    ReplayResult first = trials.get(0);
    return new ReplaySweep(
        "replay-sweep", first.version(), first.logs(), List.copyOf(keys), List.copyOf(trials));
  }
}
