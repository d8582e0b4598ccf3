package dev.wg1bench.history.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.history.store.StoredMetric;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.CsvReport;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Apache Otava's CSV test format: a header row, a time column, attribute columns (commit, ...) and
 * one numeric column per metric, one row per run in time order. Read whole and checked before
 * anything is stored; written so that Otava (and {@code history import}) read it back.
 */
public final class OtavaCsv {
  private OtavaCsv() {}

  /**
   * Every row of the file as a run to store, metrics named {@code SERIES/COLUMN}.
   *
   * @throws UsageException naming the file, line and column of the first bad cell
   */
  public static List<StoredRun> read(ImportSpec spec) {
    String text = ImportFiles.text(spec.file());
    if (ImportFiles.looksJson(text)) {
      throw ImportFiles.otherKind(spec.file(), "Otava CSV", text);
    }
    List<Row> rows = rows(spec, text);
    String where = spec.file().toString();
    Layout layout = layout(spec, where, rows.get(0).cells);
    if (rows.size() == 1) {
      throw new UsageException(where + ": a header and no row: nothing to import");
    }
    List<StoredRun> runs = new ArrayList<>();
    for (Row r : rows.subList(1, rows.size())) {
      runs.add(run(spec, where, layout, r));
    }
    return runs;
  }

  /**
   * What the header says: the columns' names, which one is the time, which are attributes, and
   * which are metrics.
   */
  private record Layout(List<String> names, int time, List<String> attrs, List<Integer> metrics) {}

  private static Layout layout(ImportSpec spec, String where, List<String> header) {
    Set<String> seen = new HashSet<>();
    for (int c = 0; c < header.size(); c++) {
      String h = header.get(c).strip();
      if (h.isEmpty()) {
        throw new UsageException(where + ":1: column " + (c + 1) + " has no name in the header");
      }
      if (!seen.add(h)) {
        throw new UsageException(where + ":1: column '" + h + "' appears twice in the header");
      }
    }
    List<String> names = header.stream().map(String::strip).toList();
    int time = names.indexOf(spec.timeColumn());
    if (time < 0) {
      throw new UsageException(
          where
              + ":1: no time column '"
              + spec.timeColumn()
              + "' in the header ("
              + String.join(", ", names)
              + "); name it with --time-column");
    }
    List<String> attrs = attributes(spec, where, names);
    List<Integer> metricColumns = new ArrayList<>();
    for (int c = 0; c < names.size(); c++) {
      if (c != time && !attrs.contains(names.get(c))) {
        metricColumns.add(c);
      }
    }
    if (metricColumns.isEmpty()) {
      throw new UsageException(
          where + ":1: no metric column: every column is the time or an attribute");
    }
    for (String m : spec.lowerIsBetter()) {
      if (!metricColumns.contains(names.indexOf(m))) {
        throw new UsageException(
            "--lower-is-better "
                + m
                + ": not a metric column of "
                + where
                + " (metrics: "
                + String.join(", ", metricColumns.stream().map(names::get).toList())
                + ")");
      }
    }
    return new Layout(names, time, attrs, metricColumns);
  }

  /** --attributes as given (each must be a column), else the default ones the header has. */
  private static List<String> attributes(ImportSpec spec, String where, List<String> names) {
    List<String> attrs = spec.attributes();
    if (attrs == null) {
      return ImportSpec.DEFAULT_ATTRIBUTES.stream().filter(names::contains).toList();
    }
    for (String a : attrs) {
      if (!names.contains(a)) {
        throw new UsageException(
            where
                + ":1: no column '"
                + a
                + "' (--attributes) in the header ("
                + String.join(", ", names)
                + ")");
      }
    }
    return attrs;
  }

  /** One row as a run: its time, its attributes, and a metric for each non-empty metric cell. */
  private static StoredRun run(ImportSpec spec, String where, Layout layout, Row r) {
    List<String> names = layout.names();
    if (r.cells.size() != names.size()) {
      throw new UsageException(
          where
              + ":"
              + r.line
              + ": "
              + r.cells.size()
              + " values for the header's "
              + names.size()
              + " columns");
    }
    String t = r.cells.get(layout.time());
    Instant at = OtavaTime.parse(t);
    if (at == null) {
      throw new UsageException(
          cell(where, r.line, layout.time(), names)
              + ": '"
              + t
              + "' is not a time ("
              + OtavaTime.FORMS
              + ")");
    }
    Map<String, String> attributes = new LinkedHashMap<>();
    for (String a : layout.attrs()) {
      String v = r.cells.get(names.indexOf(a)).strip();
      if (!v.isEmpty()) {
        attributes.put(a, v);
      }
    }
    attributes.put("source", spec.file().getFileName() + ":" + r.line);
    List<StoredMetric> metrics = new ArrayList<>();
    for (int c : layout.metrics()) {
      String v = r.cells.get(c).strip();
      if (v.isEmpty()) {
        // no figure for this metric in this run: the series simply has no point here
        continue;
      }
      double d;
      try {
        d = Double.parseDouble(v);
      } catch (NumberFormatException e) {
        throw new UsageException(cell(where, r.line, c, names) + ": '" + v + "' is not a number");
      }
      if (!Double.isFinite(d)) {
        throw new UsageException(
            cell(where, r.line, c, names) + ": '" + v + "' is not a finite number");
      }
      metrics.add(spec.metric(names.get(c), d));
    }
    return new StoredRun(null, at, "otava-csv", attributes, metrics);
  }

  private static String cell(String where, long line, int column, List<String> names) {
    return where + ":" + line + ": column " + (column + 1) + " (" + names.get(column) + ")";
  }

  /** One record of the file and the line it starts on. */
  private record Row(long line, List<String> cells) {}

  private static List<Row> rows(ImportSpec spec, String text) {
    CsvSchema schema =
        CsvSchema.emptySchema()
            .withColumnSeparator(spec.delimiter())
            .withQuoteChar(spec.quote())
            .withoutEscapeChar();
    List<Row> rows = new ArrayList<>();
    try (JsonParser p = new CsvMapper().reader(schema).createParser(text)) {
      // with no columns in the schema each record is an array of strings
      while (p.nextToken() == JsonToken.START_ARRAY) {
        // the line of the record's first field (the array's own start is reported at the end of
        // the line before)
        long line = -1;
        List<String> cells = new ArrayList<>();
        while (p.nextToken() == JsonToken.VALUE_STRING) {
          if (line < 0) {
            line = p.currentTokenLocation().getLineNr();
          }
          cells.add(p.getText());
        }
        if (cells.size() == 1 && cells.get(0).isBlank()) {
          // a blank line
          continue;
        }
        rows.add(new Row(line, cells));
      }
    } catch (JsonProcessingException e) {
      var l = e.getLocation();
      throw new UsageException(
          spec.file()
              + (l == null ? "" : ":" + l.getLineNr() + ":" + l.getColumnNr())
              + ": not CSV: "
              + e.getOriginalMessage().replaceAll("\\s+", " "));
    } catch (IOException e) {
      throw new UsageException(spec.file() + ": cannot read: " + e.getMessage());
    }
    return rows;
  }

  /**
   * The table as Otava CSV: {@code time} in Otava's own form, the attributes (commit, branch,
   * version, and {@code run}, the stored run's id), then one column per series. Rows that lack a
   * value in some column are left out (Otava reads a number in every cell); the caller says how
   * many.
   */
  static String write(ExportTable table) {
    List<ExportTable.Row> rows = table.completeRows();
    List<String> attrs = table.attributesPresent(List.of("commit", "branch", "version"), rows);
    List<List<String>> out = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of("time"));
    header.addAll(attrs);
    header.add("run");
    header.addAll(table.columns);
    out.add(header);
    for (ExportTable.Row r : rows) {
      List<String> line = new ArrayList<>(List.of(OtavaTime.format(r.time())));
      attrs.forEach(a -> line.add(nz(r.attributes().get(a))));
      line.add(nz(r.runId()));
      for (SeriesPoint p : r.points()) {
        line.add(CsvReport.num(p.value()));
      }
      out.add(line);
    }
    return CsvReport.csv(out);
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }

  /** The otava.yaml test that reads the written file, directions included. */
  static String otavaYaml(ExportTable table, String testName, String file) {
    StringBuilder y = new StringBuilder("tests:\n  ");
    y.append(testName).append(":\n    type: csv\n    file: ").append(file);
    y.append("\n    time_column: time\n");
    List<String> attrs =
        table.attributesPresent(List.of("commit", "branch", "version"), table.completeRows());
    List<String> all = new ArrayList<>(attrs);
    all.add("run");
    y.append("    attributes: [").append(String.join(", ", all)).append("]\n    metrics:\n");
    for (int c = 0; c < table.columns.size(); c++) {
      String col = table.columns.get(c);
      y.append(
          String.format(
              Locale.ROOT,
              "      %s:%n        column: %s%n        direction: %d%n",
              quoteYaml(col),
              quoteYaml(col),
              table.series.get(c).higherIsBetter() ? 1 : -1));
    }
    return y.toString();
  }

  private static String quoteYaml(String s) {
    return s.matches("[A-Za-z0-9_.-]+")
        ? s
        : "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
