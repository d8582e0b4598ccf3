package dev.wg1bench.cli;

import dev.wg1bench.advise.ResultDiff;
import dev.wg1bench.plan.Checks;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.DiffTable;
import dev.wg1bench.report.HtmlReport;
import dev.wg1bench.result.PointsDiff;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code wg1bench diff BASE.json NEW.json}: two saved results compared point by point. */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    description = {
      "Compare two saved results, point by point.",
      "Points are matched by their knob values; per point the new / base tps ratio with its 95%% "
          + "interval, the p50 and p99 ratios and a verdict (new faster, new slower, equivalent within "
          + "--margin, or inconclusive; Holm-adjusted over the points)."
    })
final class DiffCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "BASE.json", description = "The result to compare against.")
  Path base;

  @Parameters(index = "1", paramLabel = "NEW.json", description = "The result to compare.")
  Path neu;

  @Mixin MarginOption margin;

  @Option(
      names = "--allowed-failure-rate",
      paramLabel = "P%",
      description =
          "Share of a point's attempted ops that may fail on either side before the point is"
              + " broken, its own verdict, exit 3 (default: ${DEFAULT-VALUE}).")
  String allowedFailureRate = "0%";

  @Override
  public Integer call() {
    double m = margin.fraction();
    double allowed = Checks.percent("--allowed-failure-rate", allowedFailureRate, 0, 100);
    HtmlReport.Source b = read(base);
    HtmlReport.Source n = read(neu);
    PointsDiff r;
    try {
      r = ResultDiff.compare(b.run(), n.run(), m, allowed);
    } catch (UsageException e) {
      throw new UsageException("diff " + base + " " + neu + ": " + e.getMessage());
    }
    out().printf("diff %s -> %s%n", base, neu);
    DiffTable.print(r, m, Console.out(spec));
    return r.anyBroken() ? Main.COMPLETED_WITH_FAILURES : 0;
  }

  private static HtmlReport.Source read(Path f) {
    try {
      return HtmlReport.read(f);
    } catch (HtmlReport.BadInput e) {
      throw new UsageException("diff: " + e.getMessage(), e);
    }
  }

  /** Standard output: picocli's, as Main or a test set it. */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }
}
