package dev.wg1bench.cli;

import dev.wg1bench.history.analysis.ChangePointAnalysis;
import dev.wg1bench.history.analysis.ChangePointFinder;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.report.HistoryReport;
import dev.wg1bench.history.store.RunFilter;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.stats.EDivisive;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code history report --html DIR}: the history's series drawn, with their change points. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Write HTML pages of the history: DIR/index.html lists every series with",
      "its latest change; DIR/series/ has a page per series with its chart (each "
          + "run with its own interval, segment means, change points), its change "
          + "points and every run's commit."
    })
final class HistoryReportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--html",
      required = true,
      paramLabel = "DIR",
      description = "Directory to write index.html and the series' pages into.")
  Path html;

  @Option(
      names = "--series",
      paramLabel = "GLOB",
      description = "The series to draw: a name or a glob (* and ?). Default: all.")
  String series;

  @Mixin HistoryLocation history;

  @Mixin RunFilterOptions runs;

  /** The change points the pages show: {@code history analyze}'s, at Otava's defaults. */
  static ChangePointFinder finder() {
    return ChangePointAnalysis.finder(
        new ChangePointAnalysis.Settings(EDivisive.Settings.OTAVA, false));
  }

  @Override
  public Integer call() {
    RunFilter filter = runs.filter();
    List<Series> selected = history.use((store, at) -> filter.series(store, series));
    String where = history.where();
    if (selected.isEmpty()) {
      throw new UsageException(HistoryExportCommand.noSeries(series, where));
    }
    Path index;
    try {
      index = HistoryReport.write(selected, finder(), html, where);
    } catch (UncheckedIOException e) {
      throw new RunFailure("report: " + e.getMessage(), e);
    }
    out().println("report of " + selected.size() + " series written to " + index);
    return 0;
  }

  /** Standard output: picocli's, as Main or a test set it. */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }
}
