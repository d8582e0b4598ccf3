package dev.wg1bench.plan;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Everything a run needs, validated once and then never changed. The CLI builds it; every later
 * stage only reads it. It is serialized (minus passwords) into the JSON result and into the file
 * that forked JMH JVMs read.
 *
 * @param workload built-in workload name, or {@code custom} for {@code --script} runs
 * @param scripts the scripts of the op mix, with their text and weight
 * @param targets servers to run against, in order; at least one (the embedded server by default)
 * @param clients concurrent clients = JMH threads, one connection each
 * @param warmup total warmup time (one JMH warmup iteration), zero for none
 * @param duration total measured time, split into {@code iterations} JMH iterations
 * @param iterations JMH measurement iterations (at least 2 for an error estimate)
 * @param forks JMH forks; 0 runs in this JVM (tests), 1 or more in fresh JVMs
 * @param isolation isolation level, or null for the workload's own default
 * @param queryMode pgbench -M protocol
 * @param sessionSettings {@code --set NAME=VALUE}, applied with set_config on every connection
 * @param maxTries tries per op for serialization failures and deadlocks (1 = no retry)
 * @param scale pgbench scale; null = detect from pgbench_branches (external) or the embedded
 *     default
 * @param defines {@code --define NAME=VALUE} script variables
 * @param exitOnError stop the run at the first failed op that retries cannot save
 * @param randomSeed seed of the clients' random generators (recorded so a run can be repeated)
 * @param sslmode pgjdbc sslmode, or null for the driver's default (prefer)
 * @param output JSON result path
 */
public record RunPlan(
    String workload,
    List<ScriptSource> scripts,
    List<TargetSpec> targets,
    int clients,
    Duration warmup,
    Duration duration,
    int iterations,
    int forks,
    Isolation isolation,
    QueryMode queryMode,
    Map<String, String> sessionSettings,
    int maxTries,
    Integer scale,
    Map<String, String> defines,
    boolean exitOnError,
    long randomSeed,
    String sslmode,
    Path output) {

  /** Scale the embedded server is initialized at when the user gives no --scale. */
  public static final int EMBEDDED_DEFAULT_SCALE = 1;

  static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*");
  static final List<String> SSLMODES =
      List.of("disable", "allow", "prefer", "require", "verify-ca", "verify-full");

  /** Canonical constructor: fields are assigned first so validation sees the final values. */
  public RunPlan(
      String workload,
      List<ScriptSource> scripts,
      List<TargetSpec> targets,
      int clients,
      Duration warmup,
      Duration duration,
      int iterations,
      int forks,
      Isolation isolation,
      QueryMode queryMode,
      Map<String, String> sessionSettings,
      int maxTries,
      Integer scale,
      Map<String, String> defines,
      boolean exitOnError,
      long randomSeed,
      String sslmode,
      Path output) {
    this.workload = workload;
    this.scripts = List.copyOf(scripts);
    this.targets = List.copyOf(targets);
    this.clients = clients;
    this.warmup = warmup;
    this.duration = duration;
    this.iterations = iterations;
    this.forks = forks;
    this.isolation = isolation;
    this.queryMode = queryMode;
    this.sessionSettings =
        java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sessionSettings));
    this.maxTries = maxTries;
    this.scale = scale;
    this.defines = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(defines));
    this.exitOnError = exitOnError;
    this.randomSeed = randomSeed;
    this.sslmode = sslmode;
    this.output = output;
    validate(this);
  }

  /**
   * All combinations are checked here, in one place, with "option constraint, got value" messages.
   */
  private static void validate(RunPlan p) {
    range("--clients", p.clients, 1, 10_000);
    range("--iterations", p.iterations, 1, 1000);
    range("--forks", p.forks, 0, 100);
    range("--max-tries", p.maxTries, 1, 1_000_000);
    if (p.scale != null) {
      range("--scale", p.scale, 1, 1_000_000);
    }
    if (p.duration.isNegative() || p.duration.isZero()) {
      throw new UsageException("--duration must be > 0, got " + Durations.format(p.duration));
    }
    if (p.warmup.isNegative()) {
      throw new UsageException("--warmup must be >= 0, got " + Durations.format(p.warmup));
    }
    if (p.duration.toMillis() / p.iterations < 100) {
      throw new UsageException(
          "--duration "
              + Durations.format(p.duration)
              + " split into --iterations "
              + p.iterations
              + " gives iterations shorter than 100 ms; lengthen --duration or lower --iterations");
    }
    if (p.exitOnError && p.forks == 0) {
      // JMH skips its trial teardown when a benchmark throws in-process, leaving stale state
      throw new UsageException(
          "--exit-on-error needs --forks 1 or more: JMH cannot stop an in-process run cleanly");
    }
    if (p.scripts.isEmpty()) {
      throw new UsageException("--workload or --script is required (see 'wg1bench list')");
    }
    if (p.scripts.stream().mapToInt(ScriptSource::weight).sum() == 0) {
      throw new UsageException("--script weights must not all be 0");
    }
    if (p.targets.isEmpty()) {
      throw new UsageException("at least one target is required");
    }
    for (String k : p.sessionSettings.keySet()) {
      if (!IDENT.matcher(k).matches()) {
        throw new UsageException(
            "--set '" + k + "' is not a setting name (letters, digits, _ and .)");
      }
    }
    for (String k : p.defines.keySet()) {
      if (!k.matches("[A-Za-z0-9_]+")) {
        throw new UsageException(
            "--define '" + k + "' is not a variable name (letters, digits and _)");
      }
    }
    if (p.sslmode != null && !SSLMODES.contains(p.sslmode)) {
      throw new UsageException(
          "--sslmode '" + p.sslmode + "' is not one of " + String.join(", ", SSLMODES));
    }
    long names = p.targets.stream().map(TargetSpec::name).distinct().count();
    if (names != p.targets.size()) {
      throw new UsageException("--target names must differ; name them with NAME=URL");
    }
  }

  private static void range(String option, long value, long min, long max) {
    if (value < min || value > max) {
      throw new UsageException(
          option + " must be between " + min + " and " + max + ", got " + value);
    }
  }

  /** Measured time of one JMH iteration. */
  public Duration iterationTime() {
    return duration.dividedBy(iterations);
  }

  public RunPlan withTargets(List<TargetSpec> t) {
    return new RunPlan(
        workload,
        scripts,
        t,
        clients,
        warmup,
        duration,
        iterations,
        forks,
        isolation,
        queryMode,
        sessionSettings,
        maxTries,
        scale,
        defines,
        exitOnError,
        randomSeed,
        sslmode,
        output);
  }
}
