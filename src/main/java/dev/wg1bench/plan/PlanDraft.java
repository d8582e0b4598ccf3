package dev.wg1bench.plan;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link RunPlan} being put together: the CLI and the Java API set what they were given, knobs
 * through {@link #set(Knob, Object)}, and {@link #build()} validates the result once. A sweep
 * copies one draft per point.
 */
public final class PlanDraft {
  String workload;
  List<ScriptSource> scripts = List.of();
  List<TargetSpec> targets = List.of();
  int clients = Knobs.CLIENTS.unset();
  Integer poolSize;
  Duration warmup = TimingDefaults.RUN.warmup();
  Duration duration = TimingDefaults.RUN.duration();
  int iterations = TimingDefaults.RUN.iterations();
  int forks = TimingDefaults.RUN.forks();
  Duration progress;
  Double rate;
  Duration latencyLimit;
  boolean perCommand;
  List<Double> predictRttsMs;
  Long transactions;
  TxLogSpec log;
  Isolation isolation;
  QueryMode queryMode = QueryMode.SIMPLE;
  Map<String, String> settings = new LinkedHashMap<>();
  int maxTries = SessionKnobs.DEFAULT_MAX_TRIES;
  boolean exitOnError;
  boolean continueOnError;
  boolean exitOnAbort;
  String sslmode;
  Integer prepareThreshold;
  Map<String, String> jdbcProperties = new LinkedHashMap<>();
  Integer scale;
  Map<String, String> defines = new LinkedHashMap<>();
  int batchSize = WorkloadKnobs.DEFAULT_BATCH_SIZE;
  long randomSeed;
  Integer fillfactor;
  List<String> classpath = List.of();
  Map<String, String> tableOptions = new LinkedHashMap<>();
  final Map<String, String> knobs = new LinkedHashMap<>();
  Path output;

  public <T> PlanDraft set(Knob<T> knob, T value) {
    knob.set(this, value);
    return this;
  }

  public PlanDraft workload(String name, List<ScriptSource> scripts) {
    this.workload = name;
    this.scripts = List.copyOf(scripts);
    return this;
  }

  /** Where a workload class of the user's is loaded from (--classpath). */
  public PlanDraft classpath(List<String> entries) {
    this.classpath = List.copyOf(entries);
    return this;
  }

  public PlanDraft targets(List<TargetSpec> targets) {
    this.targets = List.copyOf(targets);
    return this;
  }

  public PlanDraft timing(
      Duration warmup, Duration duration, int iterations, int forks, Duration progress) {
    this.warmup = warmup;
    this.duration = duration;
    this.iterations = iterations;
    this.forks = forks;
    this.progress = progress;
    return this;
  }

  public PlanDraft latencyLimit(Duration limit) {
    this.latencyLimit = limit;
    return this;
  }

  /** The round-trip times, in ms, trials are predicted at; null for the default. */
  public PlanDraft predictRtts(List<Double> ms) {
    this.predictRttsMs = ms;
    return this;
  }

  /** Per-statement latency, failures and retries (pgbench -r). */
  public PlanDraft reportPerCommand(boolean on) {
    this.perCommand = on;
    return this;
  }

  /** pgbench -t: ops per client instead of a duration; null for a timed run. */
  public PlanDraft transactions(Long perClient) {
    this.transactions = perClient;
    return this;
  }

  /** pgbench -l and its companions; null for no log. */
  public PlanDraft log(TxLogSpec log) {
    this.log = log;
    return this;
  }

  /** pgbench --exit-on-abort: the run ends when any client is stopped by an error. */
  public PlanDraft exitOnAbort(boolean e) {
    this.exitOnAbort = e;
    return this;
  }

  public PlanDraft retries(int maxTries, boolean exitOnError) {
    this.maxTries = maxTries;
    this.exitOnError = exitOnError;
    return this;
  }

  /** Keep clients running after errors that won't heal (pgbench's --continue-on-error). */
  public PlanDraft continueOnError(boolean c) {
    this.continueOnError = c;
    return this;
  }

  public PlanDraft data(Integer scale, Map<String, String> defines, long randomSeed) {
    this.scale = scale;
    this.defines = new LinkedHashMap<>(defines);
    this.randomSeed = randomSeed;
    return this;
  }

  public PlanDraft output(Path output) {
    this.output = output;
    return this;
  }

  public PlanDraft copy() {
    PlanDraft d = new PlanDraft();
    d.workload = workload;
    d.scripts = scripts;
    d.targets = targets;
    d.clients = clients;
    d.poolSize = poolSize;
    d.warmup = warmup;
    d.duration = duration;
    d.iterations = iterations;
    d.forks = forks;
    d.progress = progress;
    d.rate = rate;
    d.latencyLimit = latencyLimit;
    d.perCommand = perCommand;
    d.predictRttsMs = predictRttsMs;
    d.transactions = transactions;
    d.log = log;
    d.exitOnAbort = exitOnAbort;
    d.isolation = isolation;
    d.queryMode = queryMode;
    d.settings = new LinkedHashMap<>(settings);
    d.maxTries = maxTries;
    d.exitOnError = exitOnError;
    d.continueOnError = continueOnError;
    d.sslmode = sslmode;
    d.prepareThreshold = prepareThreshold;
    d.jdbcProperties = new LinkedHashMap<>(jdbcProperties);
    d.scale = scale;
    d.defines = new LinkedHashMap<>(defines);
    d.batchSize = batchSize;
    d.randomSeed = randomSeed;
    d.fillfactor = fillfactor;
    d.classpath = classpath;
    d.tableOptions = new LinkedHashMap<>(tableOptions);
    d.knobs.putAll(knobs);
    d.output = output;
    return d;
  }

  /** The plan, validated (a {@link UsageException} names the first bad value). */
  public RunPlan build() {
    return new RunPlan(
        workload,
        scripts,
        targets,
        clients,
        poolSize,
        new Timing(
            warmup,
            duration,
            iterations,
            forks,
            progress,
            rate,
            latencyLimit,
            transactions,
            log,
            perCommand,
            predictRttsMs),
        new SessionKnobs(
            isolation, queryMode, settings, maxTries, exitOnError, continueOnError, exitOnAbort),
        new DriverKnobs(sslmode, prepareThreshold, jdbcProperties, Knobs.declaredPgjdbc(knobs)),
        new WorkloadKnobs(
            scale, defines, batchSize, randomSeed, fillfactor, tableOptions, classpath),
        output,
        knobs);
  }
}
