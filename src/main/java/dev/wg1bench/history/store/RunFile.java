package dev.wg1bench.history.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A stored run as one JSON file of the folder history. Its own record, not {@link StoredRun}: an
 * interval a run does not have is written as null (JSON has no NaN), and {@code format} lets a
 * later version of the file be refused instead of misread.
 *
 * @param format the file's format version, {@link #FORMAT} when written by this wg1bench
 */
record RunFile(
    int format,
    String id,
    Instant time,
    String kind,
    Map<String, String> attributes,
    List<Metric> metrics) {

  static final int FORMAT = 1;

  /** One figure; low and high null when the run measured no interval for it. */
  record Metric(
      String config,
      String metric,
      boolean higherIsBetter,
      double value,
      Double low,
      Double high) {}

  static RunFile of(StoredRun r) {
    List<Metric> m = new ArrayList<>();
    for (StoredMetric s : r.metrics()) {
      m.add(
          new Metric(
              s.config(),
              s.metric(),
              s.higherIsBetter(),
              s.value(),
              Double.isNaN(s.low()) ? null : s.low(),
              Double.isNaN(s.high()) ? null : s.high()));
    }
    return new RunFile(FORMAT, r.id(), r.time(), r.kind(), r.attributes(), m);
  }

  StoredRun run() {
    List<StoredMetric> m = new ArrayList<>();
    for (Metric s : metrics) {
      m.add(
          new StoredMetric(
              s.config(),
              s.metric(),
              s.higherIsBetter(),
              s.value(),
              s.low() == null ? Double.NaN : s.low(),
              s.high() == null ? Double.NaN : s.high()));
    }
    return new StoredRun(id, time, kind, attributes == null ? Map.of() : attributes, m);
  }
}
