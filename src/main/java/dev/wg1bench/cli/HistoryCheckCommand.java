package dev.wg1bench.cli;

import dev.wg1bench.history.ChangePointAnalysis;
import dev.wg1bench.history.ChangePointOutput;
import dev.wg1bench.history.RegressionGate;
import dev.wg1bench.history.Series;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code wg1bench history check}: the CI gate on the latest run(s). */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {
      "The CI gate: the latest run(s) against the segment before them.",
      "Per series, the latest run (or the last --last N) against the segment before them. Exits "
          + HistoryCheckCommand.REGRESSION
          + " when some series is worse by more than",
      "--magnitude and the difference is significant at --p, with one line per regressed series;",
      "improvements are reported and pass; 0 otherwise."
    })
final class HistoryCheckCommand implements Callable<Integer> {
  /** The exit code of a regression (0-3 are taken; see docs/reference/exit-codes.md). */
  static final int REGRESSION = 4;

  @Mixin ChangePointOptions options;

  @Option(
      names = "--last",
      paramLabel = "N",
      description = "How many of the latest runs are the candidate (default: ${DEFAULT-VALUE}).")
  int last = 1;

  @Override
  public Integer call() {
    if (last < 1) {
      throw new dev.wg1bench.plan.UsageException(
          "--last " + last + ": must be at least 1, e.g. --last 1");
    }
    ChangePointAnalysis.Settings s = options.settings();
    int fewest = RegressionGate.fewestPoints(s.method(), last);
    List<Series> series =
        options.selected(
            x -> fewest, "needed to judge it (--last runs and a baseline of at least 2)");
    int regressions = 0;
    int improvements = 0;
    for (Series x : series) {
      RegressionGate.Judged j = RegressionGate.judge(x, s, last);
      if (j.outcome() == RegressionGate.Outcome.PASS) {
        continue;
      }
      if (j.outcome() == RegressionGate.Outcome.REGRESSION) {
        regressions++;
      } else {
        improvements++;
      }
      System.out.println(
          (j.outcome() == RegressionGate.Outcome.REGRESSION ? "REGRESSION " : "improvement ")
              + j.name()
              + ": "
              + ChangePointOutput.line(j.comparison()));
    }
    System.out.printf(
        "history check: %d series, %d regressed, %d improved (last %d %s against the segment"
            + " before, p <= %s, magnitude > %s)%n",
        series.size(),
        regressions,
        improvements,
        last,
        last == 1 ? "run" : "runs",
        s.method().p(),
        s.method().magnitude());
    return regressions > 0 ? REGRESSION : 0;
  }
}
