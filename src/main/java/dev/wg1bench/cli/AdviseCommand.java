package dev.wg1bench.cli;

import dev.wg1bench.advise.Advice;
import dev.wg1bench.advise.RttSweep;
import dev.wg1bench.json.OutputFile;
import dev.wg1bench.plan.BlockDefaults;
import dev.wg1bench.plan.BlockDesignRules;
import dev.wg1bench.plan.Checks;
import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RoundTrip;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.result.AdviceResult;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.RttSweepRow;
import dev.wg1bench.run.BlockExperiment;
import dev.wg1bench.server.Targets;
import dev.wg1bench.stats.Verdict;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/** {@code wg1bench advise}: measure the seeds' tuning advice, baseline against treatment. */
@Command(
    name = "advise",
    mixinStandardHelpOptions = true,
    defaultValueProvider = TimingOptions.BlockDefaults.class,
    description = {
      "Test each piece of advice in config/advice/ on this server.",
      "Run each piece of advice in config/advice/ (or --advice-dir) as baseline against treatment "
          + "in randomized complete blocks (one trial of each per block, the order drawn per pair of "
          + "blocks and reversed in the pair's second), and say whether this server confirms the claim, "
          + "contradicts it (Holm-adjusted paired t test over the blocks' log ratios), shows the arms "
          + "equivalent within --margin, or is inconclusive."
    })
final class AdviseCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin TargetOptions targets;
  @Mixin HistoryOptions history;

  @Option(
      names = "--only",
      paramLabel = "NAME",
      split = ",",
      description = "Run only these pieces of advice.")
  List<String> only = new ArrayList<>();

  @Option(
      names = {"--blocks", "--repeat"},
      paramLabel = "N",
      description =
          "Blocks per claim, each one baseline and one treatment trial; with --precision the"
              + " pilot whose sd fixes the total (default: ${DEFAULT-VALUE}).")
  int repeat = BlockDefaults.ADVISE.blocks();

  @Mixin MarginOption margin;

  @Option(
      names = "--precision",
      paramLabel = "P%",
      description =
          "Add the blocks the pilot's sd says give a 95%% half-width of P%% (Stein's two stages),"
              + " unless --budget is spent first.")
  String precision;

  @Option(
      names = "--budget",
      paramLabel = "TIME",
      description =
          "With --precision: wall time for the whole run, shared by the claims (default:"
              + " ${DEFAULT-VALUE}).")
  String budget = Durations.option(BlockDefaults.ADVISE.budget());

  @Option(
      names = "--allowed-failure-rate",
      paramLabel = "P%",
      description =
          "Share of an arm's attempted ops that may fail (after all their tries) before the claim"
              + " is broken, its own verdict (default: ${DEFAULT-VALUE}: any failed op breaks"
              + " it).")
  String allowedFailureRate = BlockDefaults.percent(BlockDefaults.ADVISE.allowedFailureRate());

  @Option(
      names = "--aa",
      description =
          "Add an A/A claim: both arms the same but for application_name (with --only, beside"
              + " those; alone, the only claim). Calibrates the method on this server.")
  boolean aa;

  @Option(
      names = "--aa-options",
      paramLabel = "OPTIONS",
      description = "The A/A claim's run options (default: ${DEFAULT-VALUE}).")
  String aaOptions = "--workload tpcb --clients 4";

  @Mixin TimingOptions timing;

  @Option(
      names = "--advice-dir",
      paramLabel = "DIR",
      description = "Read advice files from DIR instead of the shipped ones.")
  Path adviceDir;

  @Option(
      names = "--rtt",
      paramLabel = "DURATION",
      split = ",",
      description =
          "Ask each claim again at each round-trip time (both arms with --rtt), e.g."
              + " 0,0.5ms,2ms: its verdict and ratio per RTT, and where a verdict flips or the"
              + " effect moves beyond its interval.")
  List<String> rtt = new ArrayList<>();

  @Mixin OutputOption output;

  @Option(
      names = {"-v", "--verbose"},
      description = "Show JMH's own output.")
  boolean verbose;

  @Override
  public Integer call() {
    history.check();
    List<Advice> all = adviceDir != null ? Advice.fromDirectory(adviceDir) : Advice.shipped();
    List<String> rtts = rtts();
    List<Advice> chosen = atRtts(chosen(all), rtts);
    BlockExperiment.Design design = design();
    checkOnly(all);
    List<TargetSpec> t = targets.resolve(true);
    long randomSeed = new SecureRandom().nextLong();
    Path out = output.orStamped("advise");
    AdviceArms arms = new AdviceArms(timing.shape(), verbose, AdviceArms.ADVICE, Console.out(spec));
    String unwritable = JsonReport.unwritable(out);
    if (unwritable != null) {
      throw new UsageException("--output " + out + ": " + unwritable);
    }
    BenchmarkRun run;
    try (arms) {
      List<BlockExperiment.Planned> planned = arms.planned(chosen, t, randomSeed, out);
      run = new BlockExperiment(Console.out(spec), verbose).run(planned, design, out);
    }
    if (!rtts.isEmpty()) {
      List<RttSweepRow> rows = RttSweep.rows(rtts, run.advice());
      RttSweep.print(Console.out(spec), rtts, rows);
      run = run.withRttSweep(rows);
      JsonReport.write(run, out);
    }
    history.store(OutputFile.actual(out));
    return exitCode(run);
  }

  /** The blocks' design as the options give it, each checked (the seed drawn when not given). */
  BlockExperiment.Design design() {
    double m = margin.fraction();
    Double p = precision == null ? null : Checks.percent("--precision", precision, 0.1, 100);
    Duration b = budget(p);
    checkBlocks(p);
    double allowed = allowedFailures();
    long orderSeed = timing.seed != null ? timing.seed : new SecureRandom().nextLong();
    return new BlockExperiment.Design(
        repeat, orderSeed, m, p, b, Matrix.BetweenTrials.AUTO, allowed);
  }

  /** --rtt's values as typed (0.5ms stays 0.5ms in the claims' names), each a distinct RTT. */
  private List<String> rtts() {
    List<String> out = new ArrayList<>();
    List<Duration> seen = new ArrayList<>();
    for (String v : rtt) {
      Duration d;
      try {
        d = RoundTrip.parse(v);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--rtt " + e.getMessage());
      }
      if (seen.contains(d)) {
        throw new UsageException("--rtt lists " + RoundTrip.text(d) + " twice");
      }
      seen.add(d);
      out.add(v.strip());
    }
    return out;
  }

  /** Each claim once per round-trip time (the A/A claim once, at the path as it is). */
  private static List<Advice> atRtts(List<Advice> chosen, List<String> rtts) {
    if (rtts.isEmpty()) {
      return chosen;
    }
    List<Advice> out = new ArrayList<>();
    for (Advice a : chosen) {
      if (a.name().equals("aa")) {
        out.add(a);
        continue;
      }
      rtts.forEach(r -> out.add(RttSweep.at(a, r)));
    }
    return out;
  }

  /** --allowed-failure-rate as a fraction. */
  private double allowedFailures() {
    return Checks.percent("--allowed-failure-rate", allowedFailureRate, 0, 100);
  }

  /**
   * 1 when an arm of some claim could not run, 3 when an arm's ops failed above the allowed rate
   * (or a block of it measured nothing), else 0: a broken claim is never a verdict on speed.
   */
  static int exitCode(BenchmarkRun run) {
    boolean couldNotRun = false;
    boolean broken = false;
    for (AdviceResult r : run.advice()) {
      if (r.verdict() == Verdict.Kind.BROKEN) {
        broken = true;
        couldNotRun |= r.failure() != null;
      }
    }
    return couldNotRun ? 1 : broken ? Main.COMPLETED_WITH_FAILURES : 0;
  }

  /** The advice to run: --only's, else all that run on this Java (and the A/A test if asked). */
  private List<Advice> chosen(List<Advice> all) {
    List<Advice> chosen = new ArrayList<>();
    for (Advice a : all) {
      if ((only.isEmpty() && !aa) || only.contains(a.name())) {
        if (!a.runsHere()) {
          if (!only.isEmpty()) {
            throw new UsageException(
                "--only "
                    + a.name()
                    + ": needs a Java "
                    + a.java()
                    + "+ runtime, got Java "
                    + Runtime.version());
          }
          // the other claims still run on an older runtime
          out()
              .printf(
                  "skipping %s: needs a Java %d+ runtime, this is Java %s%n",
                  a.name(), a.java(), Runtime.version());
          continue;
        }
        if (only.isEmpty() && a.needsContainers() && !containers()) {
          // as for the runtime: the other claims still run where no Docker engine answers
          out().printf("skipping %s: needs a Docker engine and none answers%n", a.name());
          continue;
        }
        chosen.add(a);
      }
    }
    if (aa) {
      chosen.add(Advice.aa(aaOptions));
    }
    return chosen;
  }

  private Boolean containers;

  /** Whether a Docker engine answers, asked once. */
  private boolean containers() {
    if (containers == null) {
      containers = Targets.containersAvailable();
    }
    return containers;
  }

  /** --budget as a duration (its default with --precision), null without --precision. */
  private Duration budget(Double p) {
    Duration b;
    try {
      b = Durations.parse(budget);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--budget " + e.getMessage());
    }
    boolean given = TimingOptions.given(parsed(), "--budget");
    BlockDesignRules.budget("--budget", given ? b : null, budget, p != null, "--precision");
    return p == null ? null : b;
  }

  /** The command line as parsed, null when the command was made without one. */
  private ParseResult parsed() {
    return spec == null || spec.commandLine() == null ? null : spec.commandLine().getParseResult();
  }

  /** --blocks within 2 (3 with --precision) and 1000. */
  private void checkBlocks(Double p) {
    BlockDesignRules.blocks("--blocks", repeat, p != null);
  }

  /** Every --only name is a piece of advice. */
  private void checkOnly(List<Advice> all) {
    for (String n : only) {
      if (all.stream().noneMatch(a -> a.name().equals(n))) {
        throw new UsageException(
            "--only '"
                + n
                + "' is not a piece of advice; valid: "
                + String.join(", ", all.stream().map(Advice::name).toList()));
      }
    }
  }

  /** Standard output: picocli's, as Main or a test set it. */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }
}
