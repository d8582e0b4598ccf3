package dev.wg1bench.history.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.json.Json;

/**
 * Bencher Metric Format (BMF), the JSON Bencher's {@code json} adapter reads: one report of one
 * run, {@code {BENCHMARK: {MEASURE: {"value", "lower_value", "upper_value"}}}}. The benchmark is
 * the series' configuration, the measure its metric; the lower and upper values are the run's own
 * 95% interval, left out where the run has none.
 */
final class BencherFormat {
  private BencherFormat() {}

  static String write(ExportTable table, ExportTable.Row run) {
    ObjectNode out = Json.MAPPER.createObjectNode();
    for (int c = 0; c < table.series.size(); c++) {
      SeriesPoint p = run.points()[c];
      if (p == null || !Double.isFinite(p.value())) {
        continue; // a missing figure is left out: BMF's value is a number
      }
      Series s = table.series.get(c);
      ObjectNode benchmark =
          out.has(ExportTable.config(s))
              ? (ObjectNode) out.get(ExportTable.config(s))
              : out.putObject(ExportTable.config(s));
      ObjectNode m = benchmark.putObject(s.metric());
      m.put("value", p.value());
      if (p.hasInterval() && Double.isFinite(p.low()) && Double.isFinite(p.high())) {
        m.put("lower_value", p.low());
        m.put("upper_value", p.high());
      }
    }
    try {
      return Json.MAPPER.writeValueAsString(out) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
