package dev.wg1bench.cli;

import dev.wg1bench.advise.ResultDiff;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.replay.report.ReplayTables;
import dev.wg1bench.replay.result.ReplayResult;
import dev.wg1bench.report.HtmlReport;
import dev.wg1bench.result.PointsDiff;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code wg1bench report RESULT.json... --html DIR}: an HTML page with plots of one or more result
 * files, for reading and sharing without wg1bench.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Write an HTML report of one or more JSON results.",
      "DIR/index.html (self-contained), the plots as PNG, and as CSV the trials "
          + "(results.csv), the points (results-summary.csv) and the clients table "
          + "(results-clients.csv). "
          + "Replay results (wg1bench replay -o) get their own report: DIR/index.html with each"
          + " trial's fidelity, lag and statement-class tables, and DIR/replay.csv and"
          + " DIR/replay-fidelity.csv."
    })
final class ReportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "RESULT.json", description = "Result files of runs.")
  List<Path> files = new ArrayList<>();

  @Option(
      names = "--html",
      paramLabel = "DIR",
      required = true,
      description = "Directory to write index.html, the PNGs and the CSV files into.")
  Path html;

  @Option(
      names = "--baseline",
      paramLabel = "COLUMN|KNOB=VALUE[,KNOB=VALUE]",
      description =
          "Baseline of the clients table's ratios: a column's label (\"local, simple\") or knob"
              + " values (queryMode=simple: each column against the simple one of its target)."
              + " Default: the first column.")
  String baseline;

  @Override
  public Integer call() {
    List<HtmlReport.Source> sources = new ArrayList<>();
    List<ReplayResult> replays = new ArrayList<>();
    for (Path f : files) {
      List<ReplayResult> replay = ReplayTables.read(f);
      if (replay != null) {
        replays.addAll(replay);
        continue;
      }
      sources.addAll(ResultFiles.read("report", List.of(f)));
    }
    if (!replays.isEmpty()) {
      if (!sources.isEmpty()) {
        throw new UsageException(
            "report: replay results and run results go in separate reports (one command each)");
      }
      Path index = html.resolve("index.html");
      ReplayTables.writeHtml(replays, index);
      ReplayTables.writeCsv(replays, html.resolve("replay.csv"));
      out().println("report written to " + index);
      return 0;
    }
    Path index;
    try {
      // two results: the second read against the first, as diff compares them (margin ±5%)
      PointsDiff diff =
          sources.size() == 2
              ? ResultDiff.attempt(sources.get(0).run(), sources.get(1).run(), 0.05)
              : null;
      index = HtmlReport.write(sources, html, baseline, diff);
    } catch (HtmlReport.BadBaseline e) {
      throw new UsageException("report: " + e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw new RunFailure("report: " + e.getMessage(), e);
    }
    out().println("report written to " + index);
    return 0;
  }

  /** Standard output: picocli's, as Main or a test set it. */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }
}
