package dev.wg1bench.report;

import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.CommandStats;
import dev.wg1bench.result.ScriptStats;
import dev.wg1bench.result.TrialResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The per-script and per-command figures as CSV, next to the trials' CSV: FILE-scripts.csv (one row
 * per trial and script: weighted mixes, and any script run with -r) and FILE-commands.csv (one row
 * per trial and command, with -r, or step of a workload class). Long rather than wide tables, so a
 * spreadsheet filters or pivots them by script, line or point; each row repeats the trial's
 * sequence, repeat and knobs, which join it to the trials' CSV. A file is written only when some
 * trial has its figures.
 */
final class CommandsCsv {
  static final List<String> SCRIPT_COLUMNS =
      List.of(
          "script",
          "file",
          "weight",
          "ops",
          "failedOps",
          "retries",
          "retriedOps",
          "retriedOpsAll",
          "tps",
          "latencyMeanMs",
          "latencyStddevMs");

  static final List<String> COMMAND_COLUMNS =
      List.of(
          "script",
          "file",
          "line",
          "command",
          "count",
          "avgMs",
          "stddevMs",
          "failures",
          "retries",
          "p50Ms",
          "p99Ms");

  private CommandsCsv() {}

  /** {@code results.csv} → {@code results-SUFFIX.csv}. */
  static Path sibling(Path file, String suffix) {
    Path summary = CsvReport.summaryFile(file);
    String name = summary.getFileName().toString();
    return file.resolveSibling(
        name.substring(0, name.length() - "summary.csv".length()) + suffix + ".csv");
  }

  /** Writes the files that have rows; returns them. */
  static List<Path> write(List<BenchmarkRun> runs, Path file) {
    List<Path> written = new ArrayList<>();
    String scripts = scripts(runs);
    if (scripts != null) {
      Path f = sibling(file, "scripts");
      CsvReport.atomicWrite(f, scripts);
      written.add(f);
    }
    String commands = commands(runs);
    if (commands != null) {
      Path f = sibling(file, "commands");
      CsvReport.atomicWrite(f, commands);
      written.add(f);
    }
    return written;
  }

  /** The per-script CSV text, null when no trial has per-script figures. */
  static String scripts(List<BenchmarkRun> runs) {
    return table(
        runs,
        SCRIPT_COLUMNS,
        (s, rows, lead) -> {
          List<String> f = new ArrayList<>(lead);
          f.add(Integer.toString(s.index()));
          f.add(s.name());
          f.add(Integer.toString(s.weight()));
          f.add(Long.toString(s.ops()));
          f.add(Long.toString(s.failedOps()));
          f.add(Long.toString(s.retries()));
          f.add(Long.toString(s.retriedOps()));
          f.add(Long.toString(s.retriedOpsAll()));
          f.add(CsvReport.num(s.tps()));
          f.add(CsvReport.num(s.latencyMeanMs()));
          f.add(CsvReport.num(s.latencyStddevMs()));
          rows.add(f);
        });
  }

  /** The per-command CSV text, null when no trial has per-command figures. */
  static String commands(List<BenchmarkRun> runs) {
    return table(
        runs,
        COMMAND_COLUMNS,
        (s, rows, lead) -> {
          if (s.commands() == null) {
            return;
          }
          for (CommandStats c : s.commands()) {
            List<String> f = new ArrayList<>(lead);
            f.add(Integer.toString(c.script()));
            f.add(s.name());
            f.add(Integer.toString(c.line()));
            f.add(c.text());
            f.add(Long.toString(c.count()));
            f.add(CsvReport.num(c.avgMs()));
            f.add(CsvReport.num(c.stddevMs()));
            f.add(Long.toString(c.failures()));
            f.add(Long.toString(c.retries()));
            f.add(CsvReport.num(c.p50Ms()));
            f.add(CsvReport.num(c.p99Ms()));
            rows.add(f);
          }
        });
  }

  private interface Rows {
    void add(ScriptStats s, List<List<String>> rows, List<String> lead);
  }

  private static String table(List<BenchmarkRun> runs, List<String> columns, Rows rowsOf) {
    boolean multi = runs.size() > 1;
    Set<String> keys = CsvReport.pointKeys(runs);
    List<List<String>> rows = new ArrayList<>();
    rows.add(CsvReport.header(multi, keys, columns));
    for (int i = 0; i < runs.size(); i++) {
      for (TrialResult t : runs.get(i).trials()) {
        if (t.measurement() == null || t.measurement().scripts() == null) {
          continue;
        }
        List<String> lead = CsvReport.lead(multi, i, t, keys);
        for (ScriptStats s : t.measurement().scripts()) {
          rowsOf.add(s, rows, lead);
        }
      }
    }
    return rows.size() > 1 ? CsvReport.csv(rows) : null;
  }
}
