package dev.wg1bench.history.analysis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.wg1bench.json.Json;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code history analyze}'s three formats of the same figures: a console table, CSV (one row per
 * change point) and JSON (an array of series, each with its {@code name} and {@code changePoints}).
 * They format; {@link ChangePointAnalysis} computes.
 */
public final class ChangePointOutput {
  private ChangePointOutput() {}

  /** The CSV columns, in order. */
  public static final List<String> CSV_COLUMNS =
      List.of(
          "series",
          "index",
          "time",
          "runId",
          "commit",
          "direction",
          "beforePoints",
          "beforeMean",
          "beforeLow",
          "beforeHigh",
          "afterPoints",
          "afterMean",
          "afterLow",
          "afterHigh",
          "change",
          "changeLow",
          "changeHigh",
          "p");

  private static final ObjectWriter CSV =
      new CsvMapper().writer(CsvSchema.emptySchema().withLineSeparator("\n"));

  /** The JSON array. */
  public static String json(List<ChangePointAnalysis.Analyzed> all) {
    try {
      return Json.MAPPER.writeValueAsString(all) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The CSV, a header and one row per change point. */
  public static String csv(List<ChangePointAnalysis.Analyzed> all) {
    List<Object[]> rows = new ArrayList<>();
    rows.add(CSV_COLUMNS.toArray());
    for (ChangePointAnalysis.Analyzed a : all) {
      for (ChangePointAnalysis.Point c : a.changePoints()) {
        rows.add(
            new Object[] {
              a.name(),
              c.index(),
              c.time(),
              c.runId(),
              blank(c.commit()),
              c.direction(),
              c.before().points(),
              c.before().mean(),
              blank(c.before().low()),
              blank(c.before().high()),
              c.after().points(),
              c.after().mean(),
              blank(c.after().low()),
              blank(c.after().high()),
              c.change().relative(),
              blank(c.change().low()),
              blank(c.change().high()),
              c.p()
            });
      }
    }
    try {
      return CSV.writeValueAsString(rows);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Object blank(Object o) {
    return o == null ? "" : o;
  }

  /** The console table: per series its change points, or that it has none. */
  public static String table(List<ChangePointAnalysis.Analyzed> all) {
    StringBuilder b = new StringBuilder();
    for (ChangePointAnalysis.Analyzed a : all) {
      b.append(a.name())
          .append(" (")
          .append(a.points())
          .append(" runs): ")
          .append(
              a.changePoints().isEmpty()
                  ? "no change point"
                  : a.changePoints().size()
                      + (a.changePoints().size() == 1 ? " change point" : " change points"))
          .append('\n');
      for (ChangePointAnalysis.Point c : a.changePoints()) {
        b.append("  ").append(line(c)).append('\n');
      }
    }
    return b.toString();
  }

  /**
   * One change point in a line: where, before → after with their 95% intervals over each segment's
   * points, the change with its interval, p.
   */
  public static String line(ChangePointAnalysis.Point c) {
    return String.format(
        Locale.ROOT,
        "#%d run %s%s %s: %s -> %s, change %s, p=%s (%s)",
        c.index(),
        c.runId(),
        c.commit() == null ? "" : " commit " + c.commit(),
        c.time(),
        segment(c.before()),
        segment(c.after()),
        change(c.change()),
        p(c.p()),
        c.direction());
  }

  private static String segment(ChangePointAnalysis.Segment s) {
    String runs = s.points() + (s.points() == 1 ? " run" : " runs");
    if (s.low() == null) {
      return String.format(Locale.ROOT, "%s (%s)", num(s.mean()), runs);
    }
    return String.format(
        Locale.ROOT, "%s [%s, %s] (%s)", num(s.mean()), num(s.low()), num(s.high()), runs);
  }

  private static String change(ChangePointAnalysis.Change c) {
    String r = pct(c.relative());
    if (c.low() == null) {
      return r + " [interval unbounded]";
    }
    return String.format(Locale.ROOT, "%s [%s, %s]", r, pct(c.low()), pct(c.high()));
  }

  static String num(double v) {
    return Math.abs(v) >= 100
        ? String.format(Locale.ROOT, "%.1f", v)
        : String.format(Locale.ROOT, "%.4g", v);
  }

  static String pct(double v) {
    return String.format(Locale.ROOT, "%+.1f%%", 100 * v);
  }

  static String p(double p) {
    return String.format(Locale.ROOT, "%.2g", p);
  }
}
