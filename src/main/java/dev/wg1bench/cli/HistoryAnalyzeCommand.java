package dev.wg1bench.cli;

import dev.wg1bench.history.analysis.ChangePointAnalysis;
import dev.wg1bench.history.analysis.ChangePointOutput;
import dev.wg1bench.history.analysis.Series;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code wg1bench history analyze}: each series' change points, as Apache Otava finds them. */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description = {
      "Change points per series, as Apache Otava finds them.",
      "E-Divisive means with a t-test, windowed, weak points re-checked. For each change point: "
          + "the run and commit where the new segment starts, the means before and after with 95%% "
          + "intervals over each segment's runs, the relative change with its interval, and p."
    })
final class HistoryAnalyzeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ChangePointOptions options;

  /** The output formats. */
  enum Format {
    table,
    csv,
    json
  }

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description =
          "table, csv (one row per change point) or json (an array of {name, changePoints})"
              + " (default: ${DEFAULT-VALUE}).")
  Format format = Format.table;

  @Override
  public Integer call() {
    ChangePointAnalysis.Settings s = options.settings();
    int fewest = ChangePointAnalysis.fewestPoints(s.method());
    List<Series> series =
        options.selected(x -> fewest, "needed to split it (two --min-segment, at least 2)");
    List<ChangePointAnalysis.Analyzed> all =
        series.stream().map(x -> ChangePointAnalysis.analyze(x, s)).toList();
    out()
        .print(
            switch (format) {
              case table -> ChangePointOutput.table(all);
              case csv -> ChangePointOutput.csv(all);
              case json -> ChangePointOutput.json(all);
            });
    return 0;
  }

  /** Standard output: picocli's, as Main or a test set it. */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }
}
