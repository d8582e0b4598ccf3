package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import dev.wg1bench.plan.Knob;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.PlanDraft;
import dev.wg1bench.plan.RoundTrip;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.plan.Secret;
import dev.wg1bench.plan.SessionKnobs;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.TimingDefaults;
import dev.wg1bench.plan.WorkloadKnobs;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.run.PgbenchInit;
import dev.wg1bench.run.RunStage;
import dev.wg1bench.server.DataSourceTarget;
import dev.wg1bench.server.DataSources;
import dev.wg1bench.server.Targets;
import dev.wg1bench.workload.JavaWorkloads;
import dev.wg1bench.workload.WorkloadRegistry;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.apiguardian.api.API;

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
 * <p>A description is immutable: every method returns a new one and leaves this one as it was, so
 * one description can be the start of several arms and be run any number of times. Its defaults are
 * the command line's but for these, said here once: in-process ({@code forks(0)}, the command
 * line's is 1), 5 s measured (10 s), 1 s warmup (5 s), 3 iterations (5), random seed 42 (random).
 *
 * <p>Every knob is validated by the command line's rules, in the API's words: a bad argument is
 * refused by the method it is given to ({@link InvalidSettingException}). An external target needs
 * the pgbench tables ({@code initPgbench(scale)} creates them).
 */
@API(status = STABLE, since = "0.1")
public final class Wg1bench {
  private final String workload;
  private final List<ScriptSource> scripts;
  private List<TargetSpec> targets = List.of();

  /** What this description registered in this JVM, shared by the descriptions made from it. */
  private ApiRegistrations registrations;

  /** The knobs set so far ({@link #with}); a fresh draft holds their defaults. */
  private PlanDraft knobs = new PlanDraft();

  private Duration duration = TimingDefaults.API.duration();
  private Duration warmup = TimingDefaults.API.warmup();
  private int iterations = TimingDefaults.API.iterations();
  private int forks = TimingDefaults.API.forks();
  private int maxTries = SessionKnobs.DEFAULT_MAX_TRIES;
  private boolean reportPerCommand;
  private Integer scale;
  private long randomSeed = 42;
  private Path output;
  private PrintStream out = new PrintStream(OutputStream.nullOutputStream());
  private Integer initScale;
  private Map<String, String> params = Map.of();
  private Map<String, String> settings = Map.of();
  private Map<String, String> jdbcProperties = Map.of();

  /** The workload is a supplier registered in this JVM, which forks cannot reach. */
  private boolean supplied;

  private Wg1bench(String workload, List<ScriptSource> scripts) {
    this.workload = workload;
    this.scripts = scripts;
    this.registrations = new ApiRegistrations();
  }

  /** A copy of this description with one change: every setter returns one, this stays as it is. */
  private Wg1bench copy(Consumer<Wg1bench> change) {
    Wg1bench c = new Wg1bench(workload, scripts);
    c.targets = targets;
    c.registrations = registrations;
    c.knobs = knobs.copy();
    c.duration = duration;
    c.warmup = warmup;
    c.iterations = iterations;
    c.forks = forks;
    c.maxTries = maxTries;
    c.reportPerCommand = reportPerCommand;
    c.scale = scale;
    c.randomSeed = randomSeed;
    c.output = output;
    c.out = out;
    c.initScale = initScale;
    c.params = params;
    c.settings = settings;
    c.jdbcProperties = jdbcProperties;
    c.supplied = supplied;
    change.accept(c);
    return c;
  }

  /** A built-in workload ({@code wg1bench list}). */
  public static Wg1bench workload(String name) {
    Args.given("workload", name, "a workload's name, e.g. \"tpcb\"");
    return new Wg1bench(
        name,
        Args.checked("workload(" + Args.quoted(name) + ")", () -> WorkloadRegistry.sources(name)));
  }

  /**
   * Your own data-access code: a {@link JdbcWorkload} class with a public no-argument constructor,
   * one instance per client. Runs in this JVM or in forks (the class is on the class path the forks
   * inherit).
   */
  public static Wg1bench workload(Class<? extends JdbcWorkload> workloadClass) {
    Args.given("workload", workloadClass, "a JdbcWorkload class");
    Args.checked(
        "workload(" + workloadClass.getName() + ".class)",
        () -> JavaWorkloads.constructor(workloadClass.getName(), List.of()));
    return new Wg1bench(JavaWorkloads.nameOf(workloadClass.getName()), List.of());
  }

  /**
   * Your own data-access code made by {@code instances}, one call per client: a lambda, or
   * instances built with the test's own objects. In this JVM only ({@code forks(0)}, the default).
   */
  public static Wg1bench workload(String name, Supplier<JdbcWorkload> instances) {
    Args.given("workload", name, "a name for the workload, e.g. \"cached\"");
    Args.given("workload(" + Args.quoted(name) + ", ...)", instances, "a Supplier of instances");
    Wg1bench w = new Wg1bench(JavaWorkloads.register(name, instances), List.of());
    w.supplied = true;
    w.registrations.workloads.add(w.workload);
    return w;
  }

  /** A parameter your workload reads with {@code op.param(name)} ({@code -D}; default none). */
  public Wg1bench param(String name, String value) {
    Args.named("param", name, value, Args.PARAM_NAME, "a parameter name of letters, digits and _");
    Map<String, String> p = new LinkedHashMap<>(params);
    p.put(name, value);
    return copy(c -> c.params = Map.copyOf(p));
  }

  /** Your own pgbench-style script, run with the defaults above. */
  public static Wg1bench script(String name, String text) {
    Args.given("script", name, "a name for the script");
    Args.given("script(" + Args.quoted(name) + ", null)", text, "the script's text");
    return new Wg1bench("custom", List.of(new ScriptSource(name, text, 1)));
  }

  /** This description with one knob of the engine set, validated when the run starts. */
  private <T> Wg1bench with(Knob<T> knob, T value) {
    return copy(c -> c.knobs.set(knob, value));
  }

  /** Concurrent clients, each with its own connection (default 4, as the command line's). */
  public Wg1bench clients(int n) {
    return with(
        Knobs.CLIENTS,
        (int) Args.range("clients", n, 1, Args.MAX_CLIENTS, "from 1 to 10000 clients"));
  }

  /**
   * Let {@code m} pooled connections serve the clients (HikariCP), as an application server does
   * (default: no pool, one connection per client).
   */
  public Wg1bench poolSize(int m) {
    return with(
        Knobs.POOL_SIZE,
        (int) Args.range("poolSize", m, 1, Args.MAX_CLIENTS, "from 1 to clients() connections"));
  }

  /**
   * Run the clients on virtual threads (needs a Java 21+ runtime) or platform threads (the
   * default). In this JVM (forks 0) the clients run on JMH's worker threads of that kind.
   */
  public Wg1bench threads(ThreadKind kind) {
    return with(Knobs.THREADS, Args.given("threads", kind, "PLATFORM or VIRTUAL").plan());
  }

  /**
   * The network's round-trip time (--rtt; default zero, the path as it is): each client
   * connection's replies become readable this long after they arrived.
   */
  public Wg1bench rtt(Duration d) {
    return with(
        Knobs.RTT,
        Args.duration(
            "rtt", d, Duration.ZERO, false, RoundTrip.MAX, "a round-trip time from 0 to 10 s"));
  }

  /**
   * Round-trip times each trial's latency and throughput are predicted at, in order (the command
   * line's {@code --predict-rtt}; default 0.5 ms, 1 ms and 2 ms, the command line's too); one it
   * would refuse throws {@link InvalidSettingException}. Experimental, as the prediction is.
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public Wg1bench predictRtt(Duration... rtts) {
    return copy(c -> c.knobs.predictRtts(Args.rttsMs("predictRtt", rtts)));
  }

  /** Measured time per trial (default 5 s; the command line's {@code -T} is 10 s). */
  public Wg1bench duration(Duration d) {
    Args.duration("duration", d, Duration.ZERO, true, null, "a time more than 0");
    return copy(c -> c.duration = d);
  }

  /** Warmup per trial (default 1 s; the command line's is 5 s). */
  public Wg1bench warmup(Duration d) {
    Args.duration("warmup", d, Duration.ZERO, false, null, "a time of 0 or more");
    return copy(c -> c.warmup = d);
  }

  /** JMH iterations the duration is split into (default 3; the command line's is 5). */
  public Wg1bench iterations(int n) {
    Args.range("iterations", n, 1, 1000, "from 1 to 1000 iterations");
    return copy(c -> c.iterations = n);
  }

  /** JMH forks; 0 (the default here) runs in this JVM. A DataSource target needs 0. */
  public Wg1bench forks(int n) {
    Args.range("forks", n, 0, 100, "from 0 (this JVM) to 100 forks");
    return copy(c -> c.forks = n);
  }

  /** A target rate of ops per second over all clients (default: as fast as they go). */
  public Wg1bench rate(double opsPerSecond) {
    if (!(opsPerSecond > 0 && opsPerSecond <= Args.MAX_RATE)) {
      throw Args.refused(
          "rate(" + Args.plain(opsPerSecond) + ")",
          "ops per second, more than 0 and at most 10000000",
          Args.plain(opsPerSecond));
    }
    return with(Knobs.RATE, opsPerSecond);
  }

  /** The transaction isolation level (default read committed). */
  public Wg1bench isolation(Isolation i) {
    return with(
        Knobs.ISOLATION,
        Args.given("isolation", i, "READ_COMMITTED, REPEATABLE_READ or SERIALIZABLE").plan());
  }

  /** How statements go to the server (default simple, as the command line's). */
  public Wg1bench queryMode(QueryMode m) {
    return with(
        Knobs.QUERY_MODE, Args.given("queryMode", m, "SIMPLE, EXTENDED or PREPARED").plan());
  }

  /**
   * A session setting on every connection, e.g. {@code set("synchronous_commit", "off")} (default:
   * none set, the server's).
   */
  public Wg1bench set(String name, String value) {
    Args.named("set", name, value, Args.SETTING_NAME, "a setting name of letters, digits, _ and .");
    Map<String, String> all = new LinkedHashMap<>(settings);
    all.put(name, value);
    return copy(c -> c.settings = all).with(Knobs.SET, all);
  }

  /** Rows pgjdbc fetches per round trip (pgjdbc's defaultRowFetchSize; default pgjdbc's, 0). */
  public Wg1bench fetchSize(int rows) {
    return with(
        Knobs.FETCH_SIZE,
        (int) Args.range("fetchSize", rows, 0, 100_000_000, "from 0 (pgjdbc's) to 100000000 rows"));
  }

  /**
   * pgjdbc's prepareThreshold: executions of a statement before it is prepared on the server, -1
   * for at once (default: the query mode's; {@link QueryMode#EXTENDED} or {@link
   * QueryMode#PREPARED} only).
   */
  public Wg1bench prepareThreshold(int n) {
    return with(
        Knobs.PREPARE_THRESHOLD,
        (int) Args.range("prepareThreshold", n, -1, 1_000_000, "from -1 to 1000000 executions"));
  }

  /**
   * A pgjdbc connection property on every connection the run opens (default: none set); one the API
   * sets by a method of its own ({@code defaultRowFetchSize}: {@link #fetchSize}) is refused,
   * naming that method.
   */
  public Wg1bench jdbcProperty(String name, String value) {
    Map<String, String> all = new LinkedHashMap<>(jdbcProperties);
    all.put(name, value);
    Args.jdbcProperty(name, value);
    return copy(c -> c.jdbcProperties = all).with(Knobs.JDBC_PROPERTY, all);
  }

  /** The server's statement_timeout on every connection (default: none, the server's). */
  public Wg1bench statementTimeout(Duration d) {
    return with(
        Knobs.STATEMENT_TIMEOUT,
        Args.duration(
            "statementTimeout", d, Duration.ZERO, false, null, "a time of 0 (none) or more"));
  }

  /** Tries per op after a serialization failure or deadlock (default 1: no retry). */
  public Wg1bench maxTries(int n) {
    Args.range("maxTries", n, 1, 1_000_000, "from 1 (no retry) to 1000000 tries");
    return copy(c -> c.maxTries = n);
  }

  /** Per-statement latency, failures and retries in the result (pgbench -r; default off). */
  public Wg1bench reportPerCommand(boolean on) {
    return copy(c -> c.reportPerCommand = on);
  }

  /** The data's scale factor the workload assumes (default: what the tables hold). */
  public Wg1bench scale(int s) {
    Args.range("scale", s, 1, WorkloadKnobs.MAX_SCALE, "a scale factor from 1 to 1000000");
    return copy(c -> c.scale = s);
  }

  /**
   * pgjdbc's {@code reWriteBatchedInserts} on every connection the run opens (default false, as
   * pgjdbc's): a JDBC batch of INSERTs goes as multi-row INSERTs.
   */
  public Wg1bench reWriteBatchedInserts(boolean on) {
    return with(Knobs.REWRITE_BATCHED_INSERTS, on);
  }

  /** Rows per JDBC batch for the workloads that insert in batches (default: the workload's). */
  public Wg1bench batchSize(int n) {
    return with(
        Knobs.BATCH_SIZE, (int) Args.range("batchSize", n, 1, 100_000, "from 1 to 100000 rows"));
  }

  /**
   * Seed of the clients' random numbers (default 42, so a test repeats; the command line's is
   * random and recorded).
   */
  public Wg1bench randomSeed(long seed) {
    return copy(c -> c.randomSeed = seed);
  }

  /** Where the JSON result goes (default: a temporary file, deleted when the run ends). */
  public Wg1bench output(Path file) {
    Args.given("output", file, "a file for the JSON result");
    return copy(c -> c.output = file);
  }

  /** Where the console summary goes (default: nowhere). */
  public Wg1bench console(PrintStream s) {
    Args.given("console", s, "a PrintStream, e.g. System.out");
    return copy(c -> c.out = s);
  }

  /**
   * Create (or re-create: the tables are the test's) the pgbench tables before running (default:
   * none created, the tables are used as they are).
   */
  public Wg1bench initPgbench(int scale) {
    Args.range(
        "initPgbench", scale, 1, WorkloadKnobs.MAX_SCALE, "a scale factor from 1 to 1000000");
    return copy(c -> c.initScale = scale);
  }

  /** A server by JDBC URL and credentials (default: no target; each {@code against} adds one). */
  public Wg1bench against(String jdbcUrl, String user, String password) {
    // the password is never part of a message
    String call = "against(" + Args.quoted(jdbcUrl) + ", " + Args.quoted(user) + ", password)";
    Args.given("against", jdbcUrl, "a JDBC URL, e.g. jdbc:postgresql://localhost/app");
    TargetSpec t = Args.checked(call, () -> Targets.parse(jdbcUrl, Map.of(), null));
    return withTarget(
        new TargetSpec(t.name(), t.kind(), t.jdbcUrl(), user, null, Secret.of(password)));
  }

  /**
   * The application's own DataSource, its pool and driver settings used as they are (default: no
   * target; each {@code against} adds one).
   */
  public Wg1bench against(DataSource ds) {
    String id = DataSources.register(Args.given("against", ds, "a DataSource"));
    registrations.dataSources.add(id);
    return withTarget(DataSourceTarget.spec("datasource", id));
  }

  /** An embedded PostgreSQL with stock settings, started for this run and removed after it. */
  public Wg1bench againstEmbedded() {
    return withTarget(Targets.defaultTarget());
  }

  /** The run as a plan on these targets: what {@link #run()} runs, and each arm of a comparison. */
  RunPlan plan(Path out, List<TargetSpec> on) {
    if (supplied && forks != 0) {
      throw Failures.suppliedInForks(forks, label());
    }
    return knobs
        .copy()
        .workload(workload, scripts)
        .targets(on)
        .timing(warmup, duration, iterations, forks, null)
        .retries(maxTries, false)
        .reportPerCommand(reportPerCommand)
        .data(scale, params, randomSeed)
        .output(out)
        .build();
  }

  /** This description with one more target. */
  private Wg1bench withTarget(TargetSpec t) {
    List<TargetSpec> all = new ArrayList<>(targets);
    all.add(t);
    return copy(c -> c.targets = List.copyOf(all));
  }

  /** The targets given so far. */
  List<TargetSpec> targets() {
    return targets;
  }

  /** What a comparison calls this arm. */
  String label() {
    return workload.startsWith(WorkloadRegistry.CLASS_PREFIX)
        ? JavaWorkloads.label(workload)
        : workload;
  }

  /** Creates the pgbench tables on these targets when asked ({@link #initPgbench}). */
  void init(List<TargetSpec> on) {
    if (initScale != null) {
      new PgbenchInit(this.out)
          .load(on.stream().filter(t -> !Targets.of(t).fresh()).toList(), initScale, 100, true);
    }
  }

  /** The scale {@link #initPgbench} asked for, or null. */
  Integer initScale() {
    return initScale;
  }

  /** The console this run writes to. */
  PrintStream console() {
    return out;
  }

  /** Runs on every target; refuses what the command line refuses ({@link Wg1benchException}). */
  public Result run() {
    return Failures.translated(() -> ApiRegistrations.withOutput(output, "wg1bench-", this::run));
  }

  private Result run(Path file) {
    RunPlan plan = plan(file, targets);
    init(targets);
    return new Result(new RunStage(out, false).run(plan));
  }

  /**
   * The baseline against the treatment, in randomized complete blocks on the baseline's target (as
   * {@code advise} runs its claims): configure it, then {@code run()} it for a {@link Comparison}
   * and its verdict.
   */
  public static Comparison.Builder compare(Wg1bench baseline, Wg1bench treatment) {
    return new Comparison.Builder(baseline, treatment);
  }

  /**
   * What a run measured: every trial ({@link #trials()}, one per target), the JSON the command line
   * writes ({@link #json()}), and for a run of one trial its figures directly ({@link #tps()}...;
   * with several trials these refuse in one line, naming {@code trials()}). Made by {@link
   * Wg1bench#run()} only: the engine's record it reads is not part of the API.
   */
  @API(status = STABLE, since = "0.1")
  public static final class Result extends ResultFigures {
    Result(BenchmarkRun run) {
      super(run);
    }

    /** {@link #json()}: the whole run, as the command line writes it. */
    @Override
    public String toString() {
      return json();
    }
  }
}
