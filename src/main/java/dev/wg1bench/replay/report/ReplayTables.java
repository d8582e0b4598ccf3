package dev.wg1bench.replay.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.replay.result.ReplayJson;
import dev.wg1bench.replay.result.ReplayResult;
import dev.wg1bench.report.Column;
import dev.wg1bench.report.CsvReport;
import dev.wg1bench.report.HtmlReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A replay's tables as CSV and HTML, as runs have them: the statement classes with the log's own
 * durations beside the replay's, and the fidelity table with the errors by SQLSTATE, the rates and
 * the schedule lag. One row set per trial, led by the trial's number and point.
 */
public final class ReplayTables {
  private ReplayTables() {}

  /** FILE-fidelity.csv beside FILE.csv. */
  public static Path fidelityFile(Path csv) {
    String name = csv.getFileName().toString().replaceFirst("\\.csv$", "");
    return csv.resolveSibling(name + "-fidelity.csv");
  }

  /**
   * The replay trials a JSON result holds (one replay, or a sweep's), or null when the file is not
   * a replay's (a run's, say, or not JSON: the run reader then says what is wrong with it).
   */
  public static List<ReplayResult> read(Path file) {
    try {
      JsonNode tree = Json.MAPPER.readTree(file.toFile());
      return ReplayJson.trials(Json.MAPPER, tree);
    } catch (IOException e) {
      // not readable as a replay (invalid JSON, missing): the run results' reader says what it is
      return null;
    }
  }

  public static void writeCsv(List<ReplayResult> trials, Path file) {
    write(file, CsvReport.csv(classRows(trials)));
    write(fidelityFile(file), CsvReport.csv(fidelityRows(trials)));
  }

  public static void writeHtml(List<ReplayResult> trials, Path file) {
    write(file, html(trials));
  }

  private static void write(Path file, String text) {
    try {
      CsvReport.atomicWrite(file, text);
    } catch (UncheckedIOException e) {
      throw new RunFailure(e.getMessage(), e);
    }
  }

  /** One row per trial and statement class. */
  static List<List<String>> classRows(List<ReplayResult> trials) {
    Set<String> keys = keys(trials);
    List<List<String>> rows = new ArrayList<>();
    List<String> head = lead(keys);
    head.addAll(Column.names(ReplayColumns.CLASSES));
    rows.add(head);
    List<Column<ReplayResult.ClassResult>> written = Column.inCsv(ReplayColumns.CLASSES);
    for (ReplayResult r : trials) {
      for (ReplayResult.ClassResult c : r.classes()) {
        List<String> row = lead(r, keys);
        written.forEach(col -> row.add(col.csv(c)));
        rows.add(row);
      }
    }
    return rows;
  }

  /** One row per trial and line of the fidelity, error, throughput and lag tables. */
  static List<List<String>> fidelityRows(List<ReplayResult> trials) {
    Set<String> keys = keys(trials);
    List<List<String>> rows = new ArrayList<>();
    List<String> head = lead(keys);
    head.addAll(List.of("table", "what", "log", "replay"));
    rows.add(head);
    for (ReplayResult r : trials) {
      for (String[] line : lines(r)) {
        List<String> row = lead(r, keys);
        row.addAll(List.of(line));
        rows.add(row);
      }
    }
    return rows;
  }

  /** table, what, log, replay: the lines both the CSV and the page show. */
  static List<String[]> lines(ReplayResult r) {
    List<String[]> out = new ArrayList<>();
    for (ReplayResult.Fidelity f : r.fidelity()) {
      out.add(
          new String[] {
            "fidelity", f.what(), f.log() == null ? "" : f.log().toString(), "" + f.replay()
          });
    }
    r.errorsBySqlState()
        .forEach((st, e) -> out.add(new String[] {"errors", st, "" + e.log(), "" + e.replay()}));
    out.add(new String[] {"fidelity", "skipped log lines", "" + r.capture().skippedLines(), ""});
    ReplayResult.Pace t = r.pace();
    out.add(new String[] {"throughput", "wall_s", num(t.capturedSeconds()), num(t.wallSeconds())});
    out.add(new String[] {"throughput", "window_s", "", num(r.throughput().measuredSeconds())});
    out.add(new String[] {"throughput", "statements_per_s", "", num(t.statementsPerSecond())});
    out.add(new String[] {"throughput", "transactions_per_s", "", num(r.throughput().tps())});
    if (r.clientCpu() != null && r.clientCpu().clientCpuMicrosPerOp() != null) {
      double us = r.clientCpu().clientCpuMicrosPerOp();
      out.add(new String[] {"client_cpu", "cpu_s", "", num(us * t.statements() / 1e6)});
      out.add(new String[] {"client_cpu", "us_per_statement", "", num(us)});
      if (r.clientCpu().clientCpuShare() != null) {
        out.add(
            new String[] {"client_cpu", "share_of_cores", "", num(r.clientCpu().clientCpuShare())});
      }
    }
    if (r.lag() != null) {
      out.add(new String[] {"lag", "p50_ms", "", num(r.lag().p50Ms())});
      out.add(new String[] {"lag", "p99_ms", "", num(r.lag().p99Ms())});
      out.add(new String[] {"lag", "max_ms", "", num(r.lag().maxMs())});
      if (r.lag().poolWaitP99Ms() != null) {
        out.add(new String[] {"lag", "pool_wait_p99_ms", "", num(r.lag().poolWaitP99Ms())});
      }
    }
    return out;
  }

  private static Set<String> keys(List<ReplayResult> trials) {
    Set<String> keys = new LinkedHashSet<>();
    trials.forEach(t -> keys.addAll(t.point().keySet()));
    return keys;
  }

  private static List<String> lead(Set<String> keys) {
    List<String> h = new ArrayList<>(List.of("trial", "target"));
    keys.stream().filter(k -> !k.equals("target")).forEach(h::add);
    return h;
  }

  private static List<String> lead(ReplayResult r, Set<String> keys) {
    List<String> row = new ArrayList<>(List.of(Integer.toString(r.sequence()), r.target()));
    keys.stream()
        .filter(k -> !k.equals("target"))
        .forEach(k -> row.add(r.point().getOrDefault(k, "")));
    return row;
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }

  static String html(List<ReplayResult> trials) {
    StringBuilder h = new StringBuilder();
    ReplayResult first = trials.get(0);
    h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>wg1bench replay</title>")
        .append("<style>body{font-family:sans-serif}table{border-collapse:collapse;margin:1em 0}")
        .append("td,th{border:1px solid #ccc;padding:2px 6px}td.n{text-align:right}")
        .append("td.sql{font-family:monospace}</style></head><body>\n");
    h.append("<h1>Replay of ").append(esc(String.join(", ", first.logs()))).append("</h1>\n");
    h.append("<p>").append(esc(ReplayReport.changes(first.dataChanges()).strip())).append("</p>\n");
    for (ReplayResult r : trials) {
      h.append("<h2>Trial ").append(r.sequence()).append(": ").append(esc(r.target()));
      if (!r.point().isEmpty()) {
        h.append(' ').append(esc(r.point().toString()));
      }
      h.append("</h2>\n<p>settings: ").append(esc(r.settings().toString()));
      if (r.fresh() != null) {
        h.append("; restored before it: ").append(esc(r.fresh()));
      }
      if (r.warmup() != null) {
        h.append("; ").append(esc(ReplayReport.warmupLine(r.warmup())));
      }
      if (r.stoppedBy() != null) {
        h.append("; stopped early: ").append(esc(r.stoppedBy()));
      }
      h.append("</p>\n<table><tr><th>table</th><th>what</th><th>log</th><th>replay</th></tr>\n");
      for (String[] line : lines(r)) {
        h.append("<tr><td>").append(esc(line[0])).append("</td><td>").append(esc(line[1]));
        h.append("</td><td class=\"n\">").append(esc(line[2]));
        h.append("</td><td class=\"n\">").append(esc(line[3])).append("</td></tr>\n");
      }
      h.append("</table>\n");
      classes(h, r);
    }
    return h.append("</body></html>\n").toString();
  }

  /** The statement classes' table: the columns the page shows, in its order. */
  private static void classes(StringBuilder h, ReplayResult r) {
    List<Column<ReplayResult.ClassResult>> shown = Column.onPage(ReplayColumns.CLASSES);
    h.append("<table><tr>");
    Column.headers(shown).forEach(t -> h.append("<th>").append(esc(t)).append("</th>"));
    h.append("</tr>\n");
    for (ReplayResult.ClassResult c : r.classes()) {
      h.append("<tr>");
      shown.forEach(col -> col.html(h, c));
      h.append("</tr>\n");
    }
    h.append("</table>\n");
  }

  private static String esc(String s) {
    return HtmlReport.esc(s);
  }
}
