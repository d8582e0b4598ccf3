package dev.wg1bench.cli;

import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.format.HistoryExport;
import dev.wg1bench.history.store.RunFilter;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.CsvReport;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code history export --format ...}: the history in a format another tool reads, so a team keeps
 * the dashboards it has.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Export series for other tools: Apache Otava's CSV or JSON (every run),",
      "Bencher Metric Format or github-action-benchmark's custom JSON (one run: "
          + "the latest, or --run), or a plain CSV (one row per run and series, with "
          + "each run's own 95%% interval). "
          + "github-action-benchmark reads one direction per file: with -o FILE.json "
          + "the higher-is-better figures go to FILE-customBiggerIsBetter.json, the "
          + "others to FILE-customSmallerIsBetter.json (the tool setting that reads each)."
    })
final class HistoryExportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--format",
      required = true,
      paramLabel = "otava-csv|otava-json|bencher|github-action-benchmark|csv",
      description = "The format to write.")
  String format;

  @Option(
      names = "--series",
      paramLabel = "GLOB",
      description = "The series to export: a name or a glob (* and ?). Default: all.")
  String series;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "The file to write. Default: standard output.")
  Path output;

  @Option(
      names = "--run",
      paramLabel = "ID",
      description = "bencher, github-action-benchmark: the run to report. Default: the latest.")
  String run;

  @Mixin HistoryLocation history;

  @Mixin RunFilterOptions runFilter;

  @Override
  public Integer call() {
    history.check();
    if (!HistoryExport.FORMATS.contains(format)) {
      throw new UsageException(
          "--format " + format + ": unknown; valid: " + String.join(", ", HistoryExport.FORMATS));
    }
    RunFilter filter = runFilter.filter();
    List<Series> selected = history.use((store, at) -> filter.series(store, series));
    List<StoredRun> runs = history.use((store, at) -> filter.runs(store));
    String where = history.where();
    if (selected.isEmpty()) {
      throw new UsageException(noSeries(series, where));
    }
    HistoryExport.Result r = HistoryExport.export(selected, runs, format, run);
    if (output == null) {
      print(r);
    } else {
      write(r, selected, runs);
    }
    return 0;
  }

  /** Without -o: the one part on standard output, the note on standard error. */
  private void print(HistoryExport.Result r) {
    if (r.parts().size() > 1) {
      throw new UsageException(
          "--format github-action-benchmark: the selected series have both directions, which"
              + " the action reads from separate files: give -o FILE.json, or select one"
              + " direction with --series");
    }
    out().print(r.parts().get(0).text());
    out().flush();
    if (r.note() != null) {
      err().println("wg1bench: " + r.note());
    }
  }

  /** With -o: each part to its file, then what was written and, for Otava, a test that reads it. */
  private void write(HistoryExport.Result r, List<Series> selected, List<StoredRun> runs) {
    List<Path> written = new ArrayList<>();
    for (HistoryExport.Part p : r.parts()) {
      Path f = p.suffix() == null ? output : withSuffix(output, p.suffix());
      try {
        CsvReport.atomicWrite(f, p.text());
      } catch (UncheckedIOException e) {
        throw new RunFailure(e.getMessage(), e);
      }
      written.add(f);
    }
    if (r.note() != null) {
      out().println(r.note());
    }
    for (Path f : written) {
      out().println("written to " + f);
    }
    if (format.equals("otava-csv")) {
      out()
          .print(
              "an otava.yaml test that reads it (the directions are the history's):\n"
                  + HistoryExport.otavaYaml(selected, runs, output.toString()));
    }
  }

  /** {@code bench.json} with {@code -x} → {@code bench-x.json}. */
  static Path withSuffix(Path file, String suffix) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String stem = dot > 0 ? name.substring(0, dot) : name;
    String ext = dot > 0 ? name.substring(dot) : "";
    return file.resolveSibling(stem + suffix + ext);
  }

  /** The line for a selection that matches nothing, with what there is. */
  static String noSeries(String glob, String where) {
    return glob == null
        ? "the history " + where + " has no series yet"
        : "--series "
            + glob
            + ": no series matches in the history "
            + where
            + " ('history list' shows them)";
  }

  /** Standard output: picocli's, as Main or a test set it. */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }

  /** Standard error: picocli's, as Main or a test set it. */
  private PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
