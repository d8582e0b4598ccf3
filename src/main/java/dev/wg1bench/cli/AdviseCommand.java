package dev.wg1bench.cli;

import dev.wg1bench.advise.Advice;
import dev.wg1bench.plan.Checks;
import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.run.Adviser;
import dev.wg1bench.server.PgBouncerTarget;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code wg1bench advise}: measure the seeds' tuning advice, baseline against treatment. */
@Command(
    name = "advise",
    mixinStandardHelpOptions = true,
    description = {
      "Test each piece of advice in config/advice/ on this server.",
      "Run each piece of advice in config/advice/ (or --advice-dir) as baseline against treatment",
      "in randomized complete blocks (one trial of each per block, the order drawn per pair of",
      "blocks and reversed in the pair's second), and say whether this server confirms the claim,",
      "contradicts it (Holm-adjusted paired t test over the blocks' log ratios), shows the arms",
      "equivalent within --margin, or is inconclusive."
    })
final class AdviseCommand implements Callable<Integer> {
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
  int repeat = 5;

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
          "With --precision: wall time for the whole run, shared by the claims (default: 1h).")
  String budget;

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

  @Option(
      names = {"-T", "--duration"},
      paramLabel = "TIME",
      description = "Measured time per trial (default: ${DEFAULT-VALUE}).")
  String duration = "5s";

  @Option(
      names = "--warmup",
      paramLabel = "TIME",
      description = "Warmup per trial (default: ${DEFAULT-VALUE}).")
  String warmup = "2s";

  @Option(
      names = "--iterations",
      paramLabel = "N",
      description = "JMH iterations per trial (default: ${DEFAULT-VALUE}).")
  int iterations = 3;

  @Option(
      names = "--forks",
      paramLabel = "N",
      description = "JMH forks per trial (default: ${DEFAULT-VALUE}).")
  int forks = 1;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description = "Seed of the blocks' orders (default: random, recorded).")
  Long seed;

  @Option(
      names = "--advice-dir",
      paramLabel = "DIR",
      description = "Read advice files from DIR instead of the shipped ones.")
  Path adviceDir;

  @Mixin OutputOption output;

  @Option(
      names = {"-v", "--verbose"},
      description = "Show JMH's own output.")
  boolean verbose;

  /**
   * Parses one arm's options exactly as the run command would, plus {@code --via}: a pooler in
   * front of the targets for this arm only (or, in {@code common}, for both).
   */
  @Command(name = "arm")
  static final class Arm {
    @Mixin RunOptions options;

    @Option(names = "--via")
    String via;

    /** A replay arm: the log replayed instead of a workload run (see {@link ReplayArms}). */
    @Option(names = "--replay", split = ",")
    List<Path> replay = new ArrayList<>();

    @Option(names = "--speed")
    String speed = "1";

    @Option(names = "--fresh", arity = "0..1", fallbackValue = "template")
    String fresh;

    Matrix matrix;
    CommandLine.ParseResult parsed;
  }

  private final ReplayArms replays = new ReplayArms(System.out);

  @Override
  public Integer call() {
    history.check();
    List<Advice> all = adviceDir != null ? Advice.fromDirectory(adviceDir) : Advice.shipped();
    List<Advice> chosen = chosen(all);
    double m = margin.fraction();
    Double p = precision == null ? null : Checks.percent("--precision", precision, 0.1, 100);
    java.time.Duration b = budget(p);
    checkBlocks(p);
    checkOnly(all);
    List<TargetSpec> t = targets.resolve(true);
    long orderSeed = seed != null ? seed : new SecureRandom().nextLong();
    long randomSeed = new SecureRandom().nextLong();
    Path out = output.orStamped("advise");
    List<Adviser.Planned> planned = planned(chosen, t, randomSeed, out);
    String unwritable = JsonReport.unwritable(out);
    if (unwritable != null) {
      throw new UsageException("--output " + out + ": " + unwritable);
    }
    Adviser.Design design =
        new Adviser.Design(repeat, orderSeed, m, p, b, Matrix.BetweenTrials.AUTO);
    try {
      new Adviser(System.out, verbose).run(planned, design, out);
    } finally {
      replays.close();
    }
    history.store(out);
    return 0;
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
          System.out.printf(
              "skipping %s: needs a Java %d+ runtime, this is Java %s%n",
              a.name(), a.java(), Runtime.version());
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

  /** --budget as a duration (1h by default with --precision), null without --precision. */
  private java.time.Duration budget(Double p) {
    if (budget != null && p == null) {
      throw new UsageException(
          "--budget " + budget + ": needs --precision (a goal to spend it on)");
    }
    java.time.Duration b;
    try {
      b = p == null ? null : Durations.parse(budget == null ? "1h" : budget);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--budget " + e.getMessage());
    }
    if (b != null && b.isZero()) {
      throw new UsageException("--budget " + budget + ": must be more than 0");
    }
    return b;
  }

  /** --blocks within 2 (3 with --precision) and 1000. */
  private void checkBlocks(Double p) {
    int minBlocks = p == null ? 2 : 3;
    Checks.range(
        "--blocks",
        repeat,
        minBlocks,
        Matrix.MAX_REPEAT,
        p == null ? "an interval needs 2 blocks" : "3 at least with --precision");
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

  /** Each piece of advice as its two arms of points, with the file of its own result. */
  private List<Adviser.Planned> planned(
      List<Advice> chosen, List<TargetSpec> t, long randomSeed, Path out) {
    List<Adviser.Planned> planned = new ArrayList<>();
    for (Advice a : chosen) {
      Path perAdvice =
          out.resolveSibling(
              out.getFileName().toString().replaceFirst("\\.json$", "") + "-" + a.name() + ".json");
      Map<String, List<Matrix.Point>> arms = new LinkedHashMap<>();
      Map<String, Arm> holders = new LinkedHashMap<>();
      for (String arm : List.of("baseline", "treatment")) {
        List<Matrix.Point> points = new ArrayList<>();
        holders.put(arm, arm(a, arm, t, randomSeed, perAdvice));
        for (Matrix.Point pt : holders.get(arm).matrix.points()) {
          Map<String, String> labels = new LinkedHashMap<>();
          labels.put("advice", a.name());
          labels.put("arm", arm);
          points.add(new Matrix.Point(pt.plan(), pt.target(), labels));
        }
        arms.put(arm, points);
      }
      Adviser.TrialSource source =
          replays.source(a, holders.get("baseline"), holders.get("treatment"));
      if (source == null
          && (holders.get("baseline").options.check || holders.get("treatment").options.check)) {
        // --check in an arm (a workload class's own check(), a workload's rules) checks the
        // claim's trials, as it checks a run's, rather than being dropped
        source = m -> new dev.wg1bench.run.Runner(System.out, verbose).check(true).run(m).trials();
      }
      planned.add(
          new Adviser.Planned(a, arms.get("baseline"), arms.get("treatment"), perAdvice, source));
    }
    return planned;
  }

  private Arm arm(Advice a, String arm, List<TargetSpec> t, long randomSeed, Path out) {
    List<String> tokens = new ArrayList<>();
    tokens.addAll(words(a.common()));
    tokens.addAll(words(arm.equals("baseline") ? a.baseline() : a.treatment()));
    tokens.addAll(
        List.of(
            "--duration",
            duration,
            "--warmup",
            warmup,
            "--iterations",
            Integer.toString(iterations),
            "--forks",
            Integer.toString(forks),
            "--random-seed",
            Long.toString(randomSeed),
            "--repeat",
            "1",
            "--output",
            out.toString()));
    Arm holder = new Arm();
    try {
      holder.parsed = new CommandLine(holder).parseArgs(tokens.toArray(new String[0]));
    } catch (CommandLine.ParameterException e) {
      throw new UsageException("advice " + a.name() + " (" + arm + "): " + e.getMessage());
    }
    try {
      if (!holder.replay.isEmpty()) {
        holder.matrix = replays.matrix(holder, t, out);
        return holder;
      }
      if (holder.via != null) {
        String via = PgBouncerTarget.checkVia(holder.via);
        t = t.stream().map(s -> s.withProvision(s.provided().withVia(via))).toList();
      }
      Matrix m = PlanFactory.build(holder.options, t);
      if (m.points().size() != t.size()) {
        throw new UsageException(
            "advice " + a.name() + " (" + arm + "): an arm must be one point, not a sweep");
      }
      holder.matrix = m;
      return holder;
    } catch (UsageException e) {
      if (e.getMessage().startsWith("advice ")) {
        throw e;
      }
      throw new UsageException("advice " + a.name() + " (" + arm + "): " + e.getMessage());
    }
  }

  private static List<String> words(String s) {
    return s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+"));
  }
}
