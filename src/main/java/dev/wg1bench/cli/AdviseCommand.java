package dev.wg1bench.cli;

import dev.wg1bench.advise.Advice;
import dev.wg1bench.advise.Adviser;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
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
      "Runs baseline against treatment (config/advice/ or --advice-dir), interleaved, repeated and in random order, and says whether this server confirms the claim, shows no significant difference, or contradicts it (95%% confidence interval of the ratio)."
    })
final class AdviseCommand implements Callable<Integer> {
  @Mixin TargetOptions targets;

  @Option(
      names = "--only",
      paramLabel = "NAME",
      split = ",",
      description = "Run only these pieces of advice.")
  List<String> only = new ArrayList<>();

  @Option(
      names = "--repeat",
      paramLabel = "N",
      description = "Trials per arm (default: ${DEFAULT-VALUE}).")
  int repeat = 5;

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
      description = "Seed of the trial order (default: random, recorded).")
  Long seed;

  @Option(
      names = "--advice-dir",
      paramLabel = "DIR",
      description = "Read advice files from DIR instead of the shipped ones.")
  Path adviceDir;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "JSON result (default: results/TIMESTAMP-advise.json).")
  Path output;

  @Option(
      names = {"-v", "--verbose"},
      description = "Show JMH's own output.")
  boolean verbose;

  /** Parses one arm's options exactly as the run command would. */
  @Command(name = "arm")
  static final class Arm {
    @Mixin RunOptions options;
  }

  @Override
  public Integer call() {
    List<Advice> all = adviceDir != null ? Advice.fromDirectory(adviceDir) : Advice.shipped();
    List<Advice> chosen = new ArrayList<>();
    for (Advice a : all) {
      if (only.isEmpty() || only.contains(a.name())) {
        chosen.add(a);
      }
    }
    for (String n : only) {
      if (all.stream().noneMatch(a -> a.name().equals(n))) {
        throw new UsageException(
            "--only '"
                + n
                + "' is not a piece of advice; valid: "
                + String.join(", ", all.stream().map(Advice::name).toList()));
      }
    }
    List<TargetSpec> t = targets.resolve(true);
    long orderSeed = seed != null ? seed : new SecureRandom().nextLong();
    long randomSeed = new SecureRandom().nextLong();
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path out = output != null ? output : Path.of("results", stamp + "-advise.json");
    List<Adviser.Planned> planned = new ArrayList<>();
    for (Advice a : chosen) {
      List<Matrix.Point> points = new ArrayList<>();
      for (String arm : List.of("baseline", "treatment")) {
        Matrix m = arm(a, arm, t, randomSeed, out);
        for (Matrix.Point p : m.points()) {
          Map<String, String> labels = new LinkedHashMap<>();
          labels.put("advice", a.name());
          labels.put("arm", arm);
          points.add(new Matrix.Point(p.plan(), p.target(), labels));
        }
      }
      Path perAdvice =
          out.resolveSibling(
              out.getFileName().toString().replaceFirst("\\.json$", "") + "-" + a.name() + ".json");
      planned.add(
          new Adviser.Planned(
              a,
              new Matrix(
                  points,
                  repeat,
                  Matrix.Order.RANDOM,
                  orderSeed,
                  Matrix.BetweenTrials.AUTO,
                  perAdvice)));
    }
    new Adviser(System.out, verbose).run(planned, out);
    return 0;
  }

  private Matrix arm(Advice a, String arm, List<TargetSpec> t, long randomSeed, Path out) {
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
      new CommandLine(holder).parseArgs(tokens.toArray(new String[0]));
    } catch (CommandLine.ParameterException e) {
      throw new UsageException("advice " + a.name() + " (" + arm + "): " + e.getMessage());
    }
    try {
      Matrix m = PlanFactory.build(holder.options, t);
      if (m.points().size() != t.size()) {
        throw new UsageException(
            "advice " + a.name() + " (" + arm + "): an arm must be one point, not a sweep");
      }
      return m;
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
