package dev.wg1bench.cli;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.HtmlReport;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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
      "DIR/index.html (self-contained), the plots as PNG, and as CSV the trials",
      "(results.csv), the points (results-summary.csv) and the clients table",
      "(results-clients.csv)."
    })
final class ReportCommand implements Callable<Integer> {
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
    List<HtmlReport.Source> sources = ResultFiles.read("report", files);
    Path index;
    try {
      index = HtmlReport.write(sources, html, baseline);
    } catch (HtmlReport.BadBaseline e) {
      throw new UsageException("report: " + e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw new RunFailure("report: " + e.getMessage(), e);
    }
    System.out.println("report written to " + index);
    return 0;
  }
}
