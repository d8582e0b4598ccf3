package dev.wg1bench.history.format;

import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.history.store.StoredRun;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The selected series as a table of runs by series, the shape Otava's CSV and JSON files have: one
 * row per run (oldest first), one column per series. A column is named by its metric when every
 * selected series is of one configuration (so {@code history import --series CONFIG} gives the same
 * series back), else by the whole series name.
 */
final class ExportTable {
  /** One run: its identity and each column's point, null where the run has none. */
  record Row(String runId, Instant time, Map<String, String> attributes, SeriesPoint[] points) {
    boolean complete() {
      for (SeriesPoint p : points) {
        if (p == null) {
          return false;
        }
      }
      return true;
    }
  }

  final List<Series> series;
  final List<String> columns = new ArrayList<>();
  final List<Row> rows = new ArrayList<>();

  ExportTable(List<Series> series, List<StoredRun> runs) {
    this.series = List.copyOf(series);
    Set<String> configs = new LinkedHashSet<>();
    series.forEach(s -> configs.add(config(s)));
    boolean oneConfig = configs.size() == 1;
    series.forEach(s -> columns.add(oneConfig ? s.metric() : s.name()));
    Map<String, StoredRun> byId = new LinkedHashMap<>();
    runs.forEach(r -> byId.put(r.id(), r));
    Map<String, Row> byRun = new LinkedHashMap<>();
    for (int c = 0; c < series.size(); c++) {
      for (SeriesPoint p : series.get(c).points()) {
        int col = c;
        Row row =
            byRun.computeIfAbsent(
                p.runId(),
                id -> {
                  StoredRun r = byId.get(id);
                  Map<String, String> attrs = new LinkedHashMap<>();
                  if (r != null) {
                    attrs.putAll(r.attributes());
                  }
                  if (p.commit() != null) {
                    attrs.put("commit", p.commit());
                  }
                  return new Row(id, p.time(), attrs, new SeriesPoint[series.size()]);
                });
        row.points()[col] = p;
      }
    }
    rows.addAll(byRun.values());
    rows.sort(Comparator.comparing(Row::time).thenComparing(ExportTable::runOrder));
  }

  /** The CONFIG part of a series' name. */
  static String config(Series s) {
    String n = s.name();
    return n.endsWith("/" + s.metric()) ? n.substring(0, n.length() - s.metric().length() - 1) : n;
  }

  /** Numeric ids in number order, others as text. */
  private static String runOrder(Row r) {
    String id = r.runId();
    return id != null && id.matches("\\d{1,18}")
        ? String.format("%018d", Long.parseLong(id))
        : String.valueOf(id);
  }

  /** Rows where every column has a value: Otava reads a number in every cell of every row. */
  List<Row> completeRows() {
    return rows.stream().filter(Row::complete).toList();
  }

  /** Which of the attributes the rows carry, in the order given. */
  List<String> attributesPresent(List<String> wanted, List<Row> rs) {
    List<String> out = new ArrayList<>();
    for (String a : wanted) {
      if (rs.stream().anyMatch(r -> r.attributes().get(a) != null)) {
        out.add(a);
      }
    }
    return out;
  }
}
