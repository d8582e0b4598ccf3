package dev.wg1bench.api;

import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.Knob;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.PlanDraft;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.plan.Secret;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.run.PgbenchInit;
import dev.wg1bench.run.RunStage;
import dev.wg1bench.server.DataSourceTarget;
import dev.wg1bench.server.DataSources;
import dev.wg1bench.server.Targets;
import dev.wg1bench.workload.WorkloadRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The Java API: describe a run, point it at a server, run it, assert on the result. For JUnit tests
 * of data-access code, against a Testcontainers {@code PostgreSQLContainer}, any JDBC URL, the
 * application's own {@link DataSource}, or an embedded server:
 *
 * <pre>{@code
 * Comparison c =
 *     Wg1bench.compare(
 *             Wg1bench.workload(NPlusOne.class).clients(4).againstEmbedded(),
 *             Wg1bench.workload(OneJoin.class).clients(4))
 *         .blocks(10)
 *         .run();
 * Verdicts.assertFaster(c); // the whole table when it fails
 * }</pre>
 *
 * A test asserts a verdict with its uncertainty ({@link #compare}), or what a run did ({@code
 * r.failedOps()}), never an absolute speed: that changes with the machine.
 *
 * <p>Runs are in-process ({@code forks(0)}) by default, so tests stay fast; every knob of the CLI
 * that makes sense in a test is here, validated the same way (a {@link
 * dev.wg1bench.plan.UsageException} names the bad value). The pgbench tables must exist on an
 * external target ({@code initPgbench(scale)} creates them); the embedded server creates its own.
 */
public final class Wg1bench {
  private final String workload;
  private final List<ScriptSource> scripts;
  private final List<TargetSpec> targets = new ArrayList<>();
  private final List<String> registered = new ArrayList<>();

  /** The knobs set so far ({@link #with}); a fresh draft holds their defaults. */
  private final PlanDraft knobs = new PlanDraft();

  private Duration duration = Duration.ofSeconds(5);
  private Duration warmup = Duration.ofSeconds(1);
  private int iterations = 3;
  private int forks;
  private int maxTries = 1;
  private boolean reportPerCommand;
  private Integer scale;
  private long randomSeed = 42;
  private Path output;
  private PrintStream out = new PrintStream(OutputStream.nullOutputStream());
  private Integer initScale;
  private final Map<String, String> params = new LinkedHashMap<>();

  /** The workload is a supplier registered in this JVM, forgotten after the run. */
  private boolean supplied;

  private Wg1bench(String workload, List<ScriptSource> scripts) {
    this.workload = workload;
    this.scripts = scripts;
  }

  /** A built-in workload ({@code wg1bench list}). */
  public static Wg1bench workload(String name) {
    return new Wg1bench(name, WorkloadRegistry.sources(name));
  }

  /**
   * Your own data-access code: a {@link JdbcWorkload} class with a public no-argument constructor,
   * one instance per client. Runs in this JVM or in forks (the class is on the class path the forks
   * inherit).
   */
  public static Wg1bench workload(Class<? extends JdbcWorkload> workloadClass) {
    JavaWorkloads.constructor(workloadClass.getName(), List.of());
    return new Wg1bench(JavaWorkloads.nameOf(workloadClass.getName()), List.of());
  }

  /**
   * Your own data-access code made by {@code instances}, one call per client: a lambda, or
   * instances built with the test's own objects. In this JVM only ({@code forks(0)}, the default).
   */
  public static Wg1bench workload(String name, Supplier<JdbcWorkload> instances) {
    Wg1bench w = new Wg1bench(JavaWorkloads.register(name, instances), List.of());
    w.supplied = true;
    return w;
  }

  /** A run parameter your workload reads with {@code op.param(name)} ({@code -D NAME=VALUE}). */
  public Wg1bench param(String name, String value) {
    params.put(name, value);
    return this;
  }

  /** Your own pgbench-style script. */
  public static Wg1bench script(String name, String text) {
    return new Wg1bench("custom", List.of(new ScriptSource(name, text, 1)));
  }

  /**
   * Any declared knob, e.g. {@code with(Knobs.FETCH_SIZE, 100)}: the builder method every knob of
   * {@link Knobs} has, validated when the run starts as on the command line.
   */
  public <T> Wg1bench with(Knob<T> knob, T value) {
    knobs.set(knob, value);
    return this;
  }

  public Wg1bench clients(int n) {
    return with(Knobs.CLIENTS, n);
  }

  /**
   * Let {@code m} pooled connections serve the clients (HikariCP), as an application server does.
   */
  public Wg1bench poolSize(int m) {
    return with(Knobs.POOL_SIZE, m);
  }

  /**
   * Run the clients on virtual threads (needs a Java 21+ runtime) or platform threads (the
   * default). In this JVM (forks 0) the clients run on JMH's worker threads of that kind.
   */
  public Wg1bench threads(dev.wg1bench.plan.ThreadKind kind) {
    return with(Knobs.THREADS, kind);
  }

  /**
   * The round-trip time of the application's network (--rtt): every client connection's replies
   * become readable this long after they arrived, e.g. {@code Duration.ofMillis(1)}; zero (the
   * default) leaves the path as it is.
   */
  public Wg1bench rtt(Duration d) {
    return with(Knobs.RTT, d);
  }

  public Wg1bench duration(Duration d) {
    this.duration = d;
    return this;
  }

  public Wg1bench warmup(Duration d) {
    this.warmup = d;
    return this;
  }

  public Wg1bench iterations(int n) {
    this.iterations = n;
    return this;
  }

  /** JMH forks; 0 (the default here) runs in this JVM. A DataSource target needs 0. */
  public Wg1bench forks(int n) {
    this.forks = n;
    return this;
  }

  public Wg1bench rate(double opsPerSecond) {
    return with(Knobs.RATE, opsPerSecond);
  }

  public Wg1bench isolation(Isolation i) {
    return with(Knobs.ISOLATION, i);
  }

  public Wg1bench queryMode(QueryMode m) {
    return with(Knobs.QUERY_MODE, m);
  }

  /** A session setting on every connection, e.g. {@code set("synchronous_commit", "off")}. */
  public Wg1bench set(String name, String value) {
    settings.put(name, value);
    return with(Knobs.SET, settings);
  }

  private final Map<String, String> settings = new LinkedHashMap<>();

  public Wg1bench maxTries(int n) {
    this.maxTries = n;
    return this;
  }

  /** Per-statement latency, failures and retries in the result (pgbench -r). */
  public Wg1bench reportPerCommand(boolean on) {
    this.reportPerCommand = on;
    return this;
  }

  public Wg1bench scale(int s) {
    this.scale = s;
    return this;
  }

  public Wg1bench batchSize(int n) {
    return with(Knobs.BATCH_SIZE, n);
  }

  public Wg1bench randomSeed(long seed) {
    this.randomSeed = seed;
    return this;
  }

  /** Where the JSON result goes (default: a temporary file). */
  public Wg1bench output(Path file) {
    this.output = file;
    return this;
  }

  /** Where the console summary goes (default: nowhere). */
  public Wg1bench console(PrintStream s) {
    this.out = s;
    return this;
  }

  /** Create (or re-create: the tables are the test's) the pgbench tables before running. */
  public Wg1bench initPgbench(int scale) {
    this.initScale = scale;
    return this;
  }

  /** A server by JDBC URL and credentials. */
  public Wg1bench against(String jdbcUrl, String user, String password) {
    TargetSpec t = Targets.parse(jdbcUrl, Map.of(), null);
    targets.add(new TargetSpec(t.name(), t.kind(), t.jdbcUrl(), user, null, Secret.of(password)));
    return this;
  }

  /** The application's own DataSource (its pool and driver settings are used as they are). */
  public Wg1bench against(DataSource ds) {
    String id = DataSources.register(ds);
    registered.add(id);
    targets.add(DataSourceTarget.spec("datasource", id));
    return this;
  }

  /** An embedded PostgreSQL with stock settings, started for this run and removed after it. */
  public Wg1bench againstEmbedded() {
    targets.add(Targets.defaultTarget());
    return this;
  }

  /** The run as a plan: what {@link #run()} runs, and each arm of a {@link #compare} blocks run. */
  RunPlan plan(Path out) {
    return knobs
        .copy()
        .workload(workload, scripts)
        .targets(targets)
        .timing(warmup, duration, iterations, forks, null)
        .retries(maxTries, false)
        .reportPerCommand(reportPerCommand)
        .data(scale, params, randomSeed)
        .output(out)
        .build();
  }

  /** Runs on {@code other}'s targets (a comparison's treatment that names none). */
  void sameTargetAs(Wg1bench other) {
    targets.addAll(other.targets);
  }

  /** The targets given so far. */
  List<TargetSpec> targets() {
    return List.copyOf(targets);
  }

  /** What a comparison calls this arm. */
  String label() {
    return workload.startsWith(WorkloadRegistry.CLASS_PREFIX)
        ? JavaWorkloads.label(workload)
        : workload;
  }

  /** Creates the pgbench tables first when asked ({@link #initPgbench}). */
  void init() {
    if (initScale != null) {
      new PgbenchInit(this.out)
          .load(
              targets.stream().filter(t -> !Targets.of(t).fresh()).toList(), initScale, 100, true);
    }
  }

  /** The console this run writes to. */
  PrintStream console() {
    return out;
  }

  /** Forgets what this run registered in this JVM (DataSources, workload suppliers). */
  void release() {
    registered.forEach(DataSources::unregister);
    if (supplied) {
      JavaWorkloads.unregister(workload);
    }
  }

  /**
   * Runs on every target and returns the result; throws UsageException / RunFailure as the CLI
   * does.
   */
  public Result run() {
    try {
      Path out = output != null ? output : Files.createTempFile("wg1bench-", ".json");
      RunPlan plan = plan(out);
      init();
      return new Result(new RunStage(this.out, false).run(plan));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      release();
    }
  }

  /**
   * The baseline against the treatment, in randomized complete blocks on the baseline's target (as
   * {@code advise} runs its claims): configure it, then {@code run()} it for a {@link Comparison}
   * and its verdict.
   */
  public static Comparison.Builder compare(Wg1bench baseline, Wg1bench treatment) {
    return new Comparison.Builder(baseline, treatment);
  }

  /** What a test asserts on; {@link #run()} gives access to everything else. */
  public record Result(BenchmarkRun run) {
    private dev.wg1bench.result.Measurement m() {
      return run.trials().get(0).measurement();
    }

    /** Successful ops per second (first target). */
    public double tps() {
      return m().tps();
    }

    public double p50Ms() {
      return m().latencyMs().p50();
    }

    public double p99Ms() {
      return m().latencyMs().p99();
    }

    /** Ops that failed after all their tries, in the measurement windows: the JSON's failedOps. */
    public long failedOps() {
      return m().failedOps();
    }

    /** Ops that failed after all their tries over the whole run, warmup included. */
    public long totalFailedOps() {
      return m().totalFailedOps();
    }

    public long retries() {
      return m().retries();
    }

    /** Successful ops over the whole run, warmup included (what the data shows). */
    public long committedOps() {
      return m().totalOps();
    }
  }
}
