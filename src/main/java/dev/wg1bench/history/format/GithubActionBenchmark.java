package dev.wg1bench.history.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.json.Json;
import dev.wg1bench.report.CsvReport;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * github-action-benchmark's custom JSON: an array of {@code {"name", "unit", "value", "range",
 * "extra"}} for one run. The action reads one direction per file ({@code tool:
 * customBiggerIsBetter} or {@code customSmallerIsBetter}), so a run's figures are written as two
 * arrays, one per direction; {@code range} is the half-width of the run's own 95% interval ("±
 * 21.1"), and {@code extra} says what the interval is and which run and commit it was.
 */
final class GithubActionBenchmark {
  private GithubActionBenchmark() {}

  /** The tool name the action takes for a direction. */
  static String tool(boolean higherIsBetter) {
    return higherIsBetter ? "customBiggerIsBetter" : "customSmallerIsBetter";
  }

  /** The run's figures of one direction, as the action's custom JSON; null when it has none. */
  static String write(ExportTable table, ExportTable.Row run, boolean higherIsBetter) {
    ArrayNode out = Json.MAPPER.createArrayNode();
    for (int c = 0; c < table.series.size(); c++) {
      SeriesPoint p = run.points()[c];
      Series s = table.series.get(c);
      if (p == null || s.higherIsBetter() != higherIsBetter) {
        continue;
      }
      ObjectNode o = out.addObject();
      o.put("name", s.name());
      o.put("unit", MetricUnits.of(s.metric()));
      o.put("value", p.value());
      StringBuilder extra = new StringBuilder("run " + run.runId());
      if (p.commit() != null) {
        extra.append(", commit ").append(p.commit());
      }
      if (p.hasInterval()) {
        double half = Math.max(p.high() - p.value(), p.value() - p.low());
        o.put("range", "\u00b1 " + CsvReport.num(round(half)));
        extra
            .append("\n95% interval ")
            .append(CsvReport.num(p.low()))
            .append(" to ")
            .append(CsvReport.num(p.high()))
            .append(" (the run's own: batch means)");
      }
      o.put("extra", extra.toString());
    }
    if (out.isEmpty()) {
      return null;
    }
    try {
      return Json.MAPPER.writeValueAsString(out) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Four significant digits: a range is read, not computed with. */
  private static double round(double v) {
    return v == 0 || !Double.isFinite(v)
        ? v
        : new BigDecimal(v).round(new MathContext(4)).doubleValue();
  }
}
