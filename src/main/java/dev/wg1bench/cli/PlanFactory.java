package dev.wg1bench.cli;

import dev.wg1bench.plan.Checks;
import dev.wg1bench.plan.Knob;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.PlanDraft;
import dev.wg1bench.plan.RoundTrip;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.workload.JavaWorkloads;
import dev.wg1bench.workload.WorkloadRegistry;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Turns parsed options into a {@link Matrix} of validated {@link RunPlan}s: one per combination of
 * the declared knobs' values ({@link Knobs}), each on every target. Reads script files, nothing
 * else.
 */
final class PlanFactory {
  private PlanFactory() {}

  static Matrix build(RunOptions o, List<TargetSpec> targets) {
    Selected selected = select(o);
    List<String> named = selected.named();
    List<String> classpath = selected.classpath();
    List<PgbenchFlags.Entry> mix = PgbenchFlags.mix(o);
    List<ScriptSource> custom = new ArrayList<>();
    if (mix.size() == 1 && mix.get(0).workload() != null && mix.get(0).source().weight() > 0) {
      // one built-in alone is that workload, with its name, description and --check
      named = List.of(mix.get(0).workload());
    } else {
      mix.forEach(e -> custom.add(e.source()));
    }
    List<String> workloads = named.isEmpty() ? List.of("custom") : distinct(named);
    for (String w : workloads) {
      if (!custom.isEmpty()) {
        break;
      }
      sources(w); // names an unknown workload with the valid ones
    }
    checkLength(o);
    // -t counts ops from one single-shot iteration, as pgbench: no warmup and one iteration
    // unless given, in place of the command's timing defaults
    boolean perClient = o.transactions != null;
    TimingOptions t = o.timing;
    Duration warmup = perClient && !given(o, "--warmup") ? Duration.ZERO : t.warmup;
    int iterations = perClient && !given(o, "--iterations") ? 1 : t.iterations;
    Duration duration = t.duration;
    long seed = o.randomSeed != null ? o.randomSeed : new SecureRandom().nextLong();
    Path output = output(o, workloads);
    PlanDraft base =
        new PlanDraft()
            .targets(targets)
            .timing(warmup, duration, iterations, t.forks, o.progress)
            .transactions(o.transactions)
            .log(PgbenchFlags.log(o))
            .exitOnAbort(o.exitOnAbort)
            .latencyLimit(o.latencyLimit)
            .reportPerCommand(o.reportPerCommand)
            .predictRtts(
                o.predictRtt == null ? null : RoundTrip.listMs("--predict-rtt", o.predictRtt))
            .retries(o.maxTries, o.exitOnError)
            .continueOnError(o.continueOnError)
            .data(o.scale.scale, o.defines, seed)
            .classpath(classpath)
            .output(output);
    List<Map<Knob<?>, Object>> combos = combos(o, workloads);
    List<Matrix.Point> points = points(base, combos, custom, targets);
    boolean swept = combos.size() > 1;
    int repeat = o.repeat.orElse(swept ? 3 : 1);
    long orderSeed = t.seed != null ? t.seed : new SecureRandom().nextLong();
    if (o.log && (points.size() * repeat > 1 || t.forks > 1)) {
      // every trial would write the same files, as pgbench's run writes them once
      throw new UsageException(
          "-l (--log) writes one set of files for one trial; give one point, --repeat 1 and"
              + " --forks 0 or 1");
    }
    return new Matrix(points, repeat, order(o.order), orderSeed, between(o), output);
  }

  /** Whether the command line gave this option (the run's timing options always hold a value). */
  private static boolean given(RunOptions o, String option) {
    return TimingOptions.given(o.parseResult(), option);
  }

  /** How long a trial runs is given one way: by ops per client or by time, as in pgbench. */
  private static void checkLength(RunOptions o) {
    if (o.transactions != null && given(o, "--duration")) {
      throw new UsageException(
          "-t (--transactions) and -T (--duration) exclude each other, as in pgbench; give one");
    }
    if (o.jobs != null) {
      Checks.range("-j (--jobs)", o.jobs, 1, Integer.MAX_VALUE);
    }
  }

  /**
   * One plan per combination of the swept knobs, each run on every target: the base draft copied,
   * the combination's values set on it, and its workload's scripts (or the custom mix) attached.
   */
  private static List<Matrix.Point> points(
      PlanDraft base,
      List<Map<Knob<?>, Object>> combos,
      List<ScriptSource> custom,
      List<TargetSpec> targets) {
    List<Matrix.Point> points = new ArrayList<>();
    for (Map<Knob<?>, Object> c : combos) {
      PlanDraft d = base.copy();
      c.forEach((k, v) -> set(d, k, v));
      String w = (String) c.get(Knobs.WORKLOAD);
      d.workload(w, custom.isEmpty() ? sources(w) : custom);
      RunPlan plan = d.build();
      for (TargetSpec t : targets) {
        points.add(new Matrix.Point(plan, t));
      }
    }
    return points;
  }

  /** The workloads --workload or --workload-class name (none: scripts), and the classpath. */
  private record Selected(List<String> named, List<String> classpath) {}

  /**
   * What the options select to run, checked before anything connects: --workload, --script (and
   * pgbench's -b, -S, -N) and --workload-class exclude each other, a class must load.
   */
  private static Selected select(RunOptions o) {
    @SuppressWarnings("unchecked")
    List<String> named = (List<String>) o.raw(Knobs.WORKLOAD);
    named = named == null ? List.of() : named;
    boolean builtin = o.selectOnly || o.simpleUpdate || !o.builtins.isEmpty();
    if (!named.isEmpty() && !o.scripts.isEmpty()) {
      throw new UsageException("--workload and --script exclude each other; give one of them");
    }
    if (!named.isEmpty() && builtin) {
      throw new UsageException(
          "--workload and "
              + PgbenchFlags.builtinFlag(o)
              + " exclude each other; give one of them (-S is --workload select_only, -N is"
              + " --workload simple_update)");
    }
    List<String> classpath = classpath(o);
    if (!o.workloadClasses.isEmpty()) {
      if (!named.isEmpty() || !o.scripts.isEmpty() || builtin) {
        throw new UsageException(
            "--workload-class excludes --workload, --script, -b, -S and -N; give one of them");
      }
      // every class is checked here, before anything connects: a missing one is one line, exit 2
      named =
          o.workloadClasses.stream()
              .map(String::strip)
              .peek(c -> JavaWorkloads.constructor(c, classpath))
              .map(JavaWorkloads::nameOf)
              .toList();
    } else if (o.classpath != null) {
      throw new UsageException("--classpath is for --workload-class; no class was given");
    }
    if (named.isEmpty() && o.scripts.isEmpty() && !builtin) {
      throw new UsageException(
          "--workload, --script or --workload-class is required (see 'wg1bench list')");
    }
    return new Selected(named, classpath);
  }

  /** A built-in's scripts; none for a workload class of the user's. */
  private static List<ScriptSource> sources(String workload) {
    return workload.startsWith(WorkloadRegistry.CLASS_PREFIX)
        ? List.of()
        : WorkloadRegistry.sources(workload);
  }

  /**
   * --classpath as absolute entries, so the forks, which may start elsewhere, load the same files.
   */
  private static List<String> classpath(RunOptions o) {
    if (o.classpath == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (String e : o.classpath.split(File.pathSeparator)) {
      if (e.isBlank()) {
        continue;
      }
      boolean all = e.endsWith("/*") || e.equals("*");
      Path p = Path.of(all ? (e.equals("*") ? "." : e.substring(0, e.length() - 2)) : e);
      if (!Files.exists(p)) {
        throw new UsageException("--classpath " + e + ": no such file or directory");
      }
      out.add(p.toAbsolutePath().normalize() + (all ? "/*" : ""));
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static <T> void set(PlanDraft d, Knob<T> k, Object v) {
    d.set(k, (T) v);
  }

  /** Every combination of the knobs' values: the cartesian product, first knob slowest. */
  static List<Map<Knob<?>, Object>> combos(RunOptions o, List<String> workloads) {
    return product(Knobs.ALL, k -> k == Knobs.WORKLOAD ? workloads : k.points(o.raw(k)));
  }

  /** The cartesian product of some knobs' values, first knob slowest (the replay's sweep too). */
  static List<Map<Knob<?>, Object>> product(
      List<Knob<?>> knobs, Function<Knob<?>, List<?>> points) {
    List<Map<Knob<?>, Object>> out = new ArrayList<>();
    out.add(new LinkedHashMap<>());
    for (Knob<?> k : knobs) {
      List<?> values = points.apply(k);
      List<Map<Knob<?>, Object>> next = new ArrayList<>();
      for (Map<Knob<?>, Object> m : out) {
        for (Object v : values) {
          Map<Knob<?>, Object> n = new LinkedHashMap<>(m);
          n.put(k, v);
          next.add(n);
        }
      }
      out = next;
    }
    return out;
  }

  private static <T> List<T> distinct(List<T> values) {
    return new ArrayList<>(new LinkedHashSet<>(values));
  }

  private static Path output(RunOptions o, List<String> workloads) {
    return o.output.orStamped(String.join("+", workloads));
  }

  static Matrix.Order order(String s) {
    try {
      Matrix.Order o = Matrix.Order.valueOf(s.trim().toUpperCase(Locale.ROOT));
      if (o == Matrix.Order.BLOCKS) {
        // advise's design, not a user's choice for a sweep
        throw new IllegalArgumentException();
      }
      return o;
    } catch (IllegalArgumentException e) {
      throw new UsageException("--order '" + s + "' is not one of random, sequential");
    }
  }

  /** --between-trials, or -n (pgbench's no-vacuum: nothing before the trial). */
  static Matrix.BetweenTrials between(RunOptions o) {
    if (o.noVacuum) {
      if (o.betweenTrials != null && !o.betweenTrials.trim().equalsIgnoreCase("none")) {
        throw new UsageException(
            "-n (--no-vacuum) and --between-trials " + o.betweenTrials + " exclude each other");
      }
      return Matrix.BetweenTrials.NONE;
    }
    return between(o.betweenTrials);
  }

  static Matrix.BetweenTrials between(String s) {
    if (s == null) {
      return Matrix.BetweenTrials.AUTO;
    }
    try {
      Matrix.BetweenTrials b = Matrix.BetweenTrials.valueOf(s.trim().toUpperCase(Locale.ROOT));
      if (b != Matrix.BetweenTrials.AUTO) {
        return b;
      }
    } catch (IllegalArgumentException e) {
      // fall through to the message
    }
    throw new UsageException(
        "--between-trials '"
            + s
            + "' is not one of "
            + String.join(", ", Arrays.asList("checkpoint", "vacuum", "reinit", "none")));
  }

  /** FILE or FILE@WEIGHT, as pgbench -f; the weight is split at the last '@'. */
  static ScriptSource readScript(String spec) {
    String file = spec;
    int weight = 1;
    int at = spec.lastIndexOf('@');
    if (at > 0 && spec.substring(at + 1).matches("\\d+")) {
      file = spec.substring(0, at);
      try {
        weight = Integer.parseInt(spec.substring(at + 1));
      } catch (NumberFormatException e) {
        throw new UsageException(
            "--script " + spec + ": weight must be an integer from 0 to " + Integer.MAX_VALUE);
      }
    } else if (at > 0 && !Files.exists(Path.of(spec))) {
      throw new UsageException(
          "--script "
              + spec
              + ": weight '"
              + spec.substring(at + 1)
              + "' is not a non-negative integer");
    }
    Path p = Path.of(file);
    if (!Files.isRegularFile(p)) {
      throw new UsageException("--script " + file + ": no such file");
    }
    try {
      // labelled with the path as typed, as pgbench's "SQL script N: PATH"
      return new ScriptSource(p.getFileName().toString(), utf8(p, file), weight, file);
    } catch (IOException e) {
      throw new UsageException("--script " + file + ": cannot read it (" + e.getMessage() + ")");
    }
  }

  /**
   * The file's text, or one line naming where it stops being UTF-8 (a binary file, a script saved
   * in Latin-1): the line and byte offset of the first byte that is not, rather than the decoder's
   * "Input length = 1". pgbench sends such bytes on and the server refuses every op ("invalid byte
   * sequence for encoding UTF8"); here the script is refused before anything runs.
   */
  private static String utf8(Path p, String file) throws IOException {
    byte[] bytes = Files.readAllBytes(p);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer text = CharBuffer.allocate(bytes.length);
    CharsetDecoder d =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    CoderResult r = d.decode(in, text, true);
    if (!r.isError()) {
      r = d.flush(text);
    }
    if (r.isError()) {
      int at = in.position();
      int line = 1;
      for (int k = 0; k < at; k++) {
        line += bytes[k] == '\n' ? 1 : 0;
      }
      throw new UsageException(
          String.format(
              "--script %s: line %d is not UTF-8 text (byte 0x%02x at byte offset %d of the file);"
                  + " a script must be UTF-8",
              file, line, bytes[at] & 0xff, at));
    }
    return text.flip().toString();
  }
}
