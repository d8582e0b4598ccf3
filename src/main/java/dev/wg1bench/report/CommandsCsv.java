package dev.wg1bench.report;

import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.TrialResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The per-script and per-command figures as CSV, next to the trials' CSV: FILE-scripts.csv (one row
 * per trial and script: weighted mixes, and any script run with -r) and FILE-commands.csv (one row
 * per trial and command, with -r, or step of a workload class). Long rather than wide tables, so a
 * spreadsheet filters or pivots them by script, line or point; each row repeats the trial's
 * sequence, repeat and knobs, which join it to the trials' CSV. A file is written only when some
 * trial has its figures.
 */
final class CommandsCsv {
  /** The per-script columns after the trial's lead, as {@link CommandColumns} declares. */
  static final List<String> SCRIPT_COLUMNS = Column.names(CommandColumns.SCRIPTS);

  /** The per-command columns after the trial's lead, as {@link CommandColumns} declares. */
  static final List<String> COMMAND_COLUMNS = Column.names(CommandColumns.COMMANDS);

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
    return table(runs, CommandColumns.SCRIPTS, CommandColumns::scripts);
  }

  /** The per-command CSV text, null when no trial has per-command figures. */
  static String commands(List<BenchmarkRun> runs) {
    return table(
        runs,
        CommandColumns.COMMANDS,
        m -> m.scripts().stream().flatMap(s -> CommandColumns.commands(m, s).stream()).toList());
  }

  /** A trial's rows (its scripts, its commands) under these columns, after the trial's lead. */
  private static <R> String table(
      List<BenchmarkRun> runs, List<Column<R>> columns, Function<Measurement, List<R>> rowsOf) {
    List<Column<R>> written = Column.inCsv(columns);
    boolean multi = runs.size() > 1;
    Set<String> keys = CsvReport.pointKeys(runs);
    List<List<String>> rows = new ArrayList<>();
    rows.add(CsvReport.header(multi, keys, Column.names(columns)));
    for (int i = 0; i < runs.size(); i++) {
      for (TrialResult t : runs.get(i).trials()) {
        if (t.measurement() == null || t.measurement().scripts() == null) {
          continue;
        }
        List<String> lead = CsvReport.lead(multi, i, t, keys);
        for (R r : rowsOf.apply(t.measurement())) {
          List<String> f = new ArrayList<>(lead);
          written.forEach(c -> f.add(c.csv(r)));
          rows.add(f);
        }
      }
    }
    return rows.size() > 1 ? CsvReport.csv(rows) : null;
  }
}
