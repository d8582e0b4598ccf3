package dev.wg1bench.report;

import dev.wg1bench.result.PointSummary;
import dev.wg1bench.result.TrialResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A point of the summary as the tables show it: its summary, and the clients its trials' errors
 * stopped (summed over its repeats).
 */
record PointRow(PointSummary summary, int clientsStopped) {

  /** The rows of these summaries, each with its trials' stopped clients. */
  static List<PointRow> of(List<PointSummary> summaries, List<TrialResult> trials) {
    Map<Map<String, String>, Integer> stopped = new HashMap<>();
    for (TrialResult t : trials) {
      if (t.measurement() != null) {
        stopped.merge(point(t.point()), t.measurement().clientsStopped(), Integer::sum);
      }
    }
    return summaries.stream()
        .map(s -> new PointRow(s, stopped.getOrDefault(point(s.point()), 0)))
        .toList();
  }

  private static Map<String, String> point(Map<String, String> p) {
    return p == null ? Map.of() : p;
  }
}
