package dev.wg1bench.cli;

import dev.wg1bench.advise.Advice;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.run.BlockExperiment;
import dev.wg1bench.run.RunStage;
import dev.wg1bench.server.PgBouncerTarget;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A claim's two arms, each parsed from its run options exactly as the run command parses them, made
 * into the one-point matrices the block experiment runs. {@code advise} plans its advice files with
 * it and {@code history check --confirm-baseline/--confirm-candidate} its re-measurement, so an arm
 * means the same in both.
 */
final class AdviceArms implements AutoCloseable {
  /**
   * Parses one arm's options exactly as the run command would, plus {@code --via}: a pooler in
   * front of the targets for this arm only (or, in {@code common}, for both).
   */
  @Command(name = "arm", defaultValueProvider = TimingOptions.RunDefaults.class)
  static final class Arm {
    @Mixin RunOptions options;

    @Option(names = "--via")
    String via;

    /** A replay arm: the log replayed instead of a workload run (see {@link ReplayArms}). */
    @Option(names = "--replay", split = ",")
    List<Path> replay = new ArrayList<>();

    /** A replay arm's --speed and --fresh, as replay declares them. */
    @Mixin ReplayTrialOptions trial;

    Matrix matrix;
    CommandLine.ParseResult parsed;
  }

  /**
   * What every trial of the experiment shares, whatever its arm says: the trial's length and JMH's
   * forks and iterations come from the experiment, so that both arms are measured alike.
   */
  record TrialShape(String duration, String warmup, int iterations, int forks) {}

  /** How a message names the arm it is about. */
  interface ArmNames {
    String of(Advice a, String arm);
  }

  /** advise's: the advice file and the arm, as in "advice batch-rewrite (treatment)". */
  static final ArmNames ADVICE = (a, arm) -> "advice " + a.name() + " (" + arm + ")";

  private final ReplayArms replays;
  private final PrintStream console;
  private final TrialShape shape;
  private final boolean verbose;
  private final ArmNames names;

  /** {@code out} takes the arms' own lines: a replayed log's progress, a checked trial's. */
  AdviceArms(TrialShape shape, boolean verbose, ArmNames names, PrintStream out) {
    this.replays = new ReplayArms(out);
    this.console = out;
    this.shape = shape;
    this.verbose = verbose;
    this.names = names;
  }

  /** Each piece of advice as its two arms of points, with the file of its own result. */
  List<BlockExperiment.Planned> planned(
      List<Advice> chosen, List<TargetSpec> t, long randomSeed, Path out) {
    List<BlockExperiment.Planned> planned = new ArrayList<>();
    for (Advice a : chosen) {
      Path perAdvice =
          out.resolveSibling(
              out.getFileName().toString().replaceFirst("\\.json$", "") + "-" + a.name() + ".json");
      planned.add(planned(a, t, randomSeed, perAdvice));
    }
    return planned;
  }

  /** One claim as its two arms of points; its trials' own result goes to {@code out}. */
  BlockExperiment.Planned planned(Advice a, List<TargetSpec> t, long randomSeed, Path out) {
    Map<String, List<Matrix.Point>> arms = new LinkedHashMap<>();
    Map<String, Arm> holders = new LinkedHashMap<>();
    for (String arm : List.of("baseline", "treatment")) {
      List<Matrix.Point> points = new ArrayList<>();
      holders.put(arm, arm(a, arm, t, randomSeed, out));
      for (Matrix.Point pt : holders.get(arm).matrix.points()) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("advice", a.name());
        labels.put("arm", arm);
        points.add(new Matrix.Point(pt.plan(), pt.target(), labels));
      }
      arms.put(arm, points);
    }
    BlockExperiment.TrialSource source =
        replays.source(a, holders.get("baseline"), holders.get("treatment"));
    if (source == null
        && (holders.get("baseline").options.check || holders.get("treatment").options.check)) {
      // --check in an arm (a workload class's own check(), a workload's rules) checks the
      // claim's trials, as it checks a run's, rather than being dropped
      source = m -> new RunStage(console, verbose).check(true).run(m).trials();
    }
    return new BlockExperiment.Planned(a, arms.get("baseline"), arms.get("treatment"), out, source);
  }

  private Arm arm(Advice a, String arm, List<TargetSpec> t, long randomSeed, Path out) {
    List<String> tokens = new ArrayList<>();
    tokens.addAll(words(a.common()));
    tokens.addAll(words(arm.equals("baseline") ? a.baseline() : a.treatment()));
    tokens.addAll(
        List.of(
            "--duration",
            shape.duration(),
            "--warmup",
            shape.warmup(),
            "--iterations",
            Integer.toString(shape.iterations()),
            "--forks",
            Integer.toString(shape.forks()),
            "--random-seed",
            Long.toString(randomSeed),
            "--repeat",
            "1",
            "--output",
            out.toString()));
    String where = names.of(a, arm);
    Arm holder = new Arm();
    try {
      holder.parsed = new CommandLine(holder).parseArgs(tokens.toArray(new String[0]));
    } catch (CommandLine.ParameterException e) {
      throw new UsageException(where + ": " + e.getMessage());
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
        throw new UsageException(where + ": an arm must be one point, not a sweep");
      }
      holder.matrix = m;
      return holder;
    } catch (UsageException e) {
      if (e.getMessage().startsWith(where)) {
        throw e;
      }
      throw new UsageException(where + ": " + e.getMessage());
    }
  }

  private static List<String> words(String s) {
    return s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+"));
  }

  @Override
  public void close() {
    replays.close();
  }
}
