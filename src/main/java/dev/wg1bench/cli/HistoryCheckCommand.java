package dev.wg1bench.cli;

import dev.wg1bench.advise.Advice;
import dev.wg1bench.history.ChangePointAnalysis;
import dev.wg1bench.history.Confirmation;
import dev.wg1bench.history.GateReport;
import dev.wg1bench.history.RegressionGate;
import dev.wg1bench.history.Series;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.run.BlockExperiment;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
          + " when some series is worse by more than "
          + "--magnitude and the difference is significant at --p, with one line per regressed series; "
          + "improvements are reported and pass; 0 otherwise. With --confirm-baseline and "
          + "--confirm-candidate, the series the history cannot settle (borderline: worse, p between "
          + "--p and --borderline-p) are re-measured on this machine in randomized blocks before the "
          + "gate decides."
    })
final class HistoryCheckCommand implements Callable<Integer> {
  /** The exit code of a regression (0-3 are taken; see docs/reference/exit-codes.md). */
  static final int REGRESSION = 4;

  @Mixin ChangePointOptions options;

  @Mixin ConfirmOptions confirm;

  /** The output formats. */
  enum Format {
    table,
    json
  }

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description =
          "table (a line per series that regressed, improved, is borderline or was re-measured,"
              + " then a summary) or json (every series judged) (default: ${DEFAULT-VALUE}).")
  Format format = Format.table;

  @Option(
      names = "--last",
      paramLabel = "N",
      description = "How many of the latest runs are the candidate (default: ${DEFAULT-VALUE}).")
  int last = 1;

  @Override
  public Integer call() {
    if (last < 1) {
      throw new UsageException("--last " + last + ": must be at least 1, e.g. --last 1");
    }
    ChangePointAnalysis.Settings s = options.settings();
    double p = s.method().p();
    boolean confirming = confirm.on();
    double borderlineP = confirm.borderlineP(p, RegressionGate.defaultBorderline(p));
    int fewest = RegressionGate.fewestPoints(s.method(), last);
    List<Series> series =
        options.selected(
            x -> fewest, "needed to judge it (--last runs and a baseline of at least 2)");
    Map<Series, RegressionGate.Judged> judged = new LinkedHashMap<>();
    for (Series x : series) {
      judged.put(x, RegressionGate.judge(x, s, last, borderlineP));
    }
    Path confirmedOn = null;
    Map<String, Confirmation.Confirmed> confirmations = Map.of();
    List<Series> remeasure = confirming ? remeasured(judged) : List.of();
    if (!remeasure.isEmpty()) {
      confirmedOn = confirm.output.orStamped("history-check");
      confirmations = onStderr(remeasure, confirmedOn);
    }
    List<GateReport.Checked> checked = new ArrayList<>();
    for (Map.Entry<Series, RegressionGate.Judged> e : judged.entrySet()) {
      checked.add(
          GateReport.of(e.getValue(), e.getKey().metric(), confirmations.get(e.getKey().name())));
    }
    boolean regressed = checked.stream().anyMatch(c -> c.outcome().equals("regression"));
    GateReport.Gate gate =
        new GateReport.Gate(
            regressed ? "regression" : "pass",
            regressed ? REGRESSION : 0,
            last,
            p,
            borderlineP,
            s.method().magnitude(),
            confirmedOn == null ? null : confirmedOn.toString(),
            checked);
    if (format == Format.json) {
      System.out.print(GateReport.json(gate));
    } else {
      GateReport.lines(gate).forEach(System.out::println);
    }
    int broken = brokenConfirmations(confirmations);
    return broken != 0 ? broken : gate.exitCode();
  }

  /**
   * The series the blocks re-measure, as --confirm asks; a series whose metric is a count (failed
   * ops, retries) keeps the history's outcome, said on stderr.
   */
  private List<Series> remeasured(Map<Series, RegressionGate.Judged> judged) {
    List<Series> out = new ArrayList<>();
    judged.forEach(
        (x, j) -> {
          boolean flagged = j.outcome() == RegressionGate.Outcome.REGRESSION;
          boolean wanted =
              switch (confirm.which()) {
                case borderline -> j.borderline();
                case regressions -> flagged;
                case all -> j.borderline() || flagged;
              };
          if (!wanted) {
            return;
          }
          if (!Confirmation.measurable(x.metric())) {
            System.err.println(
                "wg1bench: note: series "
                    + x.name()
                    + " is not re-measured: the blocks compare ratios of "
                    + String.join(", ", dev.wg1bench.advise.Analysis.METRICS)
                    + ", and "
                    + x.metric()
                    + " is a count; the history's outcome stands");
            return;
          }
          out.add(x);
        });
    return out;
  }

  /**
   * The re-measurement with everything it prints on stderr: stdout is the gate's, and with {@code
   * --format json} it must parse as JSON whatever the arms print (a replayed log's progress, the
   * trials' lines of an arm with {@code --check}), so the process's stdout is stderr meanwhile.
   */
  private Map<String, Confirmation.Confirmed> onStderr(List<Series> series, Path out) {
    java.io.PrintStream stdout = System.out;
    System.setOut(System.err);
    try {
      return remeasure(series, out);
    } finally {
      System.setOut(stdout);
    }
  }

  /** Runs baseline and candidate in randomized blocks and judges each series from their trials. */
  private Map<String, Confirmation.Confirmed> remeasure(List<Series> series, Path out) {
    String unwritable = JsonReport.unwritable(out);
    if (unwritable != null) {
      throw new UsageException("--output " + out + ": " + unwritable);
    }
    oneConfiguration(series);
    Series first = series.get(0);
    Advice claim =
        Confirmation.claim(
            first.metric(), first.higherIsBetter(), confirm.baseline, confirm.candidate);
    double margin = confirm.margin.fraction();
    long orderSeed = confirm.seed != null ? confirm.seed : new SecureRandom().nextLong();
    BlockExperiment.Design design =
        new BlockExperiment.Design(
            confirm.blocks(), orderSeed, margin, null, null, Matrix.BetweenTrials.AUTO);
    BenchmarkRun run;
    AdviceArms.ArmNames names =
        (a, arm) -> arm.equals("baseline") ? "--confirm-baseline" : "--confirm-candidate";
    try (AdviceArms arms = new AdviceArms(confirm.shape(), confirm.verbose, names)) {
      BlockExperiment.Planned planned =
          arms.planned(claim, confirm.targets.resolve(true), new SecureRandom().nextLong(), out);
      // the experiment's own lines go to stderr: stdout is the gate's (and its JSON)
      run = new BlockExperiment(System.err, confirm.verbose).run(List.of(planned), design, out);
    }
    String failure = run.advice().isEmpty() ? null : run.advice().get(0).failure();
    Map<String, Confirmation.Confirmed> byName = new LinkedHashMap<>();
    for (Confirmation.Confirmed c : Confirmation.judge(run, series, claim, margin, failure)) {
      byName.put(c.series(), c);
    }
    return byName;
  }

  /**
   * One pair of arms measures one configuration: series of several (another workload, other knob
   * values, another target) would be confirmed or cleared by blocks that ran something else, so
   * they are refused in one line before anything runs.
   */
  static void oneConfiguration(List<Series> series) {
    java.util.Set<String> configs = new java.util.LinkedHashSet<>();
    for (Series x : series) {
      String suffix = "/" + x.metric();
      String name = x.name();
      configs.add(
          name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : name);
    }
    if (configs.size() > 1) {
      throw new UsageException(
          "--confirm-baseline/--confirm-candidate: one pair of arms re-measures one configuration,"
              + " and the series to re-measure are of "
              + configs.size()
              + " ('"
              + String.join("', '", configs)
              + "'); check each with its own arms, selected with --series");
    }
  }

  /**
   * A re-measurement with a broken arm, after the gate's lines: one that could not run is a runtime
   * failure (exit 1); one whose ops failed above the allowed rate exits 3, naming the arm, its
   * counts and first error on stderr: it says nothing on speed, and the gate does not pass.
   */
  private static int brokenConfirmations(Map<String, Confirmation.Confirmed> confirmations) {
    for (Confirmation.Confirmed c : confirmations.values()) {
      if (c.result().verdict().equals("broken") && c.result().failure() != null) {
        throw new RunFailure(
            "history check: the re-measurement of "
                + c.series()
                + " failed: "
                + c.result().failure());
      }
    }
    for (Confirmation.Confirmed c : confirmations.values()) {
      if (c.result().verdict().equals("broken")) {
        System.err.println(
            "wg1bench: history check: the re-measurement of "
                + c.series()
                + " is "
                + c.result().verdictText());
        return Main.COMPLETED_WITH_FAILURES;
      }
    }
    return 0;
  }
}
