package dev.wg1bench.history.format;

import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.report.CsvReport;
import java.util.ArrayList;
import java.util.List;

/**
 * The history as a plain CSV for spreadsheets and scripts: one row per run and series, with the
 * run's own 95% interval (empty where the run has none).
 */
final class PlainCsv {
  private PlainCsv() {}

  static final List<String> HEADER =
      List.of("run", "time", "commit", "series", "value", "low", "high");

  static String write(ExportTable table) {
    List<List<String>> out = new ArrayList<>();
    out.add(HEADER);
    for (ExportTable.Row r : table.rows) {
      for (int c = 0; c < table.series.size(); c++) {
        SeriesPoint p = r.points()[c];
        if (p == null) {
          continue;
        }
        out.add(
            List.of(
                r.runId(),
                p.time().toString(),
                p.commit() == null ? "" : p.commit(),
                table.series.get(c).name(),
                CsvReport.num(p.value()),
                CsvReport.num(p.low()),
                CsvReport.num(p.high())));
      }
    }
    return CsvReport.csv(out);
  }
}
