package dev.wg1bench.cli;

import dev.wg1bench.advise.Advice;
import dev.wg1bench.advise.Analysis;
import dev.wg1bench.history.analysis.ChangePointAnalysis;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.gate.Confirmation;
import dev.wg1bench.history.gate.GateReport;
import dev.wg1bench.history.gate.RegressionGate;
import dev.wg1bench.history.store.MissingFigures;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.run.BlockExperiment;
import dev.wg1bench.stats.Verdict;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code wg1bench history check}: the CI gate on the latest run(s). */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    defaultValueProvider = TimingOptions.BlockDefaults.class,
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
  @Spec CommandSpec spec;

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
    String confirmedOn = null;
    Map<String, Confirmation.Confirmed> confirmations = Map.of();
    List<Series> remeasure = confirming ? remeasured(judged) : List.of();
    if (!remeasure.isEmpty()) {
      confirmations = remeasure(remeasure, confirm.output.orStamped("history-check"));
      // several configurations ran one experiment each: the first one's file, each names its own
      confirmedOn =
          confirmations.values().stream().map(c -> c.arms().resultFile()).findFirst().orElse(null);
    }
    List<GateReport.Checked> checked = new ArrayList<>();
    for (Map.Entry<Series, RegressionGate.Judged> e : judged.entrySet()) {
      checked.add(
          GateReport.of(e.getValue(), e.getKey().metric(), confirmations.get(e.getKey().name())));
    }
    boolean regressed =
        checked.stream().anyMatch(c -> c.outcome() == RegressionGate.Outcome.REGRESSION);
    // a latest run with no finite figure for a judged series is no point of it: the gate would
    // judge the run before it, so it fails as a regression does
    List<String> missing = MissingFigures.inLatest(options.takenRuns(), series, last);
    missing.forEach((format == Format.json ? err() : out())::println);
    GateReport.Gate gate =
        new GateReport.Gate(
            regressed ? "regression" : !missing.isEmpty() ? "broken" : "pass",
            regressed || !missing.isEmpty() ? REGRESSION : 0,
            last,
            p,
            borderlineP,
            s.method().magnitude(),
            confirmedOn,
            checked);
    if (format == Format.json) {
      out().print(GateReport.json(gate));
    } else {
      GateReport.lines(gate).forEach(out()::println);
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
            err()
                .println(
                    "wg1bench: note: series "
                        + x.name()
                        + " is not re-measured: the blocks compare ratios of "
                        + String.join(", ", Analysis.METRICS)
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
   * Runs baseline and candidate in randomized blocks, one experiment per configuration of the
   * series with the arms of that configuration, and judges each series from its own experiment's
   * trials. Everything it prints goes to stderr: stdout is the gate's, and with {@code --format
   * json} it must parse as JSON whatever the arms print (a replayed log's progress, the trials'
   * lines of an arm with {@code --check}).
   */
  private Map<String, Confirmation.Confirmed> remeasure(List<Series> series, Path out) {
    PrintStream err = Console.err(spec);
    String unwritable = JsonReport.unwritable(out);
    if (unwritable != null) {
      throw new UsageException("--output " + out + ": " + unwritable);
    }
    List<ConfigurationArms.Group> groups =
        ConfigurationArms.groups(series, confirm.baseline(), confirm.candidate(), err);
    Map<String, Confirmation.Confirmed> byName = new LinkedHashMap<>();
    AdviceArms.ArmNames names =
        (a, arm) -> arm.equals("baseline") ? "--confirm-baseline" : "--confirm-candidate";
    try (AdviceArms arms = new AdviceArms(confirm.shape(), confirm.verbose, names, err)) {
      List<BlockExperiment.Planned> planned = new ArrayList<>();
      List<ConfigurationArms.Group> kept = new ArrayList<>();
      for (ConfigurationArms.Group g : groups) {
        Path file = groups.size() == 1 ? out : numbered(out, kept.size() + 1);
        Series first = g.series().get(0);
        Advice claim =
            Confirmation.claim(first.metric(), first.higherIsBetter(), g.baseline(), g.candidate());
        BlockExperiment.Planned p =
            arms.planned(claim, confirm.targets.resolve(true), new SecureRandom().nextLong(), file);
        String contradiction = ConfigurationArms.contradiction(g.configuration(), p);
        if (contradiction != null) {
          ConfigurationArms.refuse(
              err,
              g.series(),
              "the arms do not measure its configuration '"
                  + g.configuration()
                  + "': "
                  + contradiction);
          continue;
        }
        planned.add(p);
        kept.add(g);
      }
      for (int i = 0; i < kept.size(); i++) {
        byName.putAll(experiment(kept.get(i), planned.get(i), err));
      }
    }
    return byName;
  }

  /** One configuration's experiment, each of its series judged from its trials. */
  private Map<String, Confirmation.Confirmed> experiment(
      ConfigurationArms.Group g, BlockExperiment.Planned planned, PrintStream err) {
    double margin = confirm.margin.fraction();
    long orderSeed =
        confirm.timing.seed != null ? confirm.timing.seed : new SecureRandom().nextLong();
    BlockExperiment.Design design =
        new BlockExperiment.Design(
            confirm.blocks(), orderSeed, margin, null, null, Matrix.BetweenTrials.AUTO);
    // the experiment's own lines go to stderr: stdout is the gate's (and its JSON)
    BenchmarkRun run =
        new BlockExperiment(err, confirm.verbose).run(List.of(planned), design, planned.output());
    String failure = run.advice().isEmpty() ? null : run.advice().get(0).failure();
    Confirmation.Arms arms =
        new Confirmation.Arms(
            g.configuration(), g.baseline(), g.candidate(), planned.output().toString());
    Map<String, Confirmation.Confirmed> byName = new LinkedHashMap<>();
    for (Confirmation.Confirmed c :
        Confirmation.judge(run, g.series(), planned.advice(), margin, failure, arms)) {
      byName.put(c.series(), c);
    }
    return byName;
  }

  /** The result file of the n-th configuration's experiment: {@code out} with "-n" before .json. */
  static Path numbered(Path out, int n) {
    String name = out.getFileName().toString();
    String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
    return out.resolveSibling(stem + "-" + n + ".json");
  }

  /**
   * A re-measurement with a broken arm, after the gate's lines: one that could not run is a runtime
   * failure (exit 1); one whose ops failed above the allowed rate exits 3, naming the arm, its
   * counts and first error on stderr: it says nothing on speed, and the gate does not pass.
   */
  private int brokenConfirmations(Map<String, Confirmation.Confirmed> confirmations) {
    for (Confirmation.Confirmed c : confirmations.values()) {
      if (c.result().verdict() == Verdict.Kind.BROKEN && c.result().failure() != null) {
        throw new RunFailure(
            "history check: the re-measurement of "
                + c.series()
                + " failed: "
                + c.result().failure());
      }
    }
    for (Confirmation.Confirmed c : confirmations.values()) {
      if (c.result().verdict() == Verdict.Kind.BROKEN) {
        err()
            .println(
                "wg1bench: history check: the re-measurement of "
                    + c.series()
                    + " is "
                    + c.result().verdictText());
        return Main.COMPLETED_WITH_FAILURES;
      }
    }
    return 0;
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
