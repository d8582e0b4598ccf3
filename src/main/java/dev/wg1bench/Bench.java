package dev.wg1bench;

import dev.wg1bench.jmh.Trial;
import dev.wg1bench.jmh.TrialRunner;
import dev.wg1bench.load.PgbenchLoader;
import dev.wg1bench.load.ssb.SsbLoader;
import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.ConsoleReport;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.JmhResultMapper;
import dev.wg1bench.result.Machine;
import dev.wg1bench.result.MatrixInfo;
import dev.wg1bench.result.Summaries;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.target.ClientSettings;
import dev.wg1bench.target.ConnectionFactory;
import dev.wg1bench.target.EmbeddedServer;
import dev.wg1bench.target.ServerInfo;
import dev.wg1bench.target.ServerSampler;
import dev.wg1bench.workload.ClientContext;
import dev.wg1bench.workload.DataCheck;
import dev.wg1bench.workload.FailureKind;
import dev.wg1bench.workload.Workload;
import dev.wg1bench.workload.WorkloadRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Runs a {@link RunPlan}: for each target, start it if embedded, check it, prepare its tables,
 * measure through JMH, map the result; then write the JSON and print the summary. This is the Java
 * API as well as what the CLI calls.
 */
public final class Bench {
  private final PrintStream out;
  private final boolean verbose;

  private boolean check;

  public Bench(PrintStream out, boolean verbose) {
    this.out = out;
    this.verbose = verbose;
  }

  /** --check: verify the workload's {@link DataCheck} against the database after each trial. */
  public Bench check(boolean on) {
    this.check = on;
    return this;
  }

  /** Runs the plan on every target and writes the JSON result to the plan's output path. */
  public BenchmarkRun run(RunPlan plan) {
    return run(Matrix.of(plan));
  }

  /** A server kept up for the whole run, with the data each schema was prepared to. */
  private static final class Live implements AutoCloseable {
    final TargetSpec spec;
    final TargetSpec target;
    final EmbeddedServer embedded;
    final ServerInfo info;
    final Map<Workload.Schema, Dataset> datasets = new HashMap<>();

    /** Fillfactor of the pgbench tables as they are now (100 unless wg1bench created them so). */
    int fillfactor = 100;

    /** Storage parameters wg1bench set on the workload tables, to reset when no longer wanted. */
    final Map<String, String> tableOptions = new LinkedHashMap<>();

    boolean checkpointDenied;

    Live(TargetSpec spec, TargetSpec target, EmbeddedServer embedded, ServerInfo info) {
      this.spec = spec;
      this.target = target;
      this.embedded = embedded;
      this.info = info;
    }

    @Override
    public void close() {
      if (embedded != null) {
        embedded.close();
      }
    }
  }

  /**
   * Runs every trial of the matrix: targets are started once (embedded ones included) and kept for
   * the whole run; trials run in the matrix's order with its hygiene before each; the JSON holds
   * every trial and a summary per point.
   */
  public BenchmarkRun run(Matrix m) {
    Map<String, Workload> byPoint = new LinkedHashMap<>();
    for (Matrix.Point p : m.points()) {
      Workload w = WorkloadRegistry.resolve(p.plan());
      Set<String> predefined = new HashSet<>(ClientContext.BUILTIN_VARIABLES);
      predefined.addAll(p.plan().params().defines().keySet());
      // every script error surfaces here, before any server is started or touched
      w.check(predefined);
      byPoint.put(key(p), w);
    }
    String unwritable = JsonReport.unwritable(m.output());
    if (unwritable != null) {
      throw new UsageException("--output " + m.output() + ": " + unwritable);
    }
    Machine machine = Machine.current();
    List<TrialResult> trials = new ArrayList<>();
    Map<String, Live> live = new LinkedHashMap<>();
    int connections = m.points().stream().mapToInt(p -> p.plan().connections()).max().orElse(1);
    List<Matrix.TrialRef> schedule = m.schedule();
    Set<String> varying = varying(m);
    try {
      for (TargetSpec spec : m.targets()) {
        live.put(spec.name(), open(spec, connections));
      }
      if (m.isSweep()) {
        out.printf(
            "%d trials: %d points x %d repeats, %s order%s%n",
            schedule.size(),
            m.points().size(),
            m.repeat(),
            m.order().name().toLowerCase(Locale.ROOT),
            m.order() == Matrix.Order.RANDOM ? " (--seed " + m.seed() + ")" : "");
      }
      out.println(
          ConsoleReport.expectedWallTime(m.points().get(0).plan().timing(), schedule.size()));
      for (Matrix.TrialRef ref : schedule) {
        Matrix.Point p = m.points().get(ref.point());
        Workload w = byPoint.get(key(p));
        Live lt = live.get(p.target().name());
        TrialResult r = trial(m, p, w, lt, ref.repeat(), trials.size() + 1);
        trials.add(r);
        if (m.isSweep()) {
          ConsoleReport.trialLine(r, schedule.size(), varying, out);
        } else {
          ConsoleReport.trial(run(m, byPoint, machine, trials), r, out);
          out.println();
        }
      }
    } finally {
      live.values().forEach(Live::close);
    }
    BenchmarkRun run = run(m, byPoint, machine, trials);
    JsonReport.write(run, m.output());
    if (m.isSweep()) {
      ConsoleReport.summary(run, varying, out);
    } else {
      ConsoleReport.comparison(run, out);
    }
    out.println("result written to " + m.output());
    return run;
  }

  private static String key(Matrix.Point p) {
    return System.identityHashCode(p.plan()) + "/" + p.target().name();
  }

  /** Point keys whose values differ between points: what the console names for each trial. */
  static Set<String> varying(Matrix m) {
    Map<String, Set<String>> values = new LinkedHashMap<>();
    for (Matrix.Point p : m.points()) {
      point(p, p.plan().session().isolation())
          .forEach((k, v) -> values.computeIfAbsent(k, x -> new HashSet<>()).add(v));
    }
    Set<String> out = new java.util.LinkedHashSet<>();
    out.add("target");
    values.forEach(
        (k, v) -> {
          if (v.size() > 1) {
            out.add(k);
          }
        });
    return out;
  }

  private Live open(TargetSpec spec, int connections) {
    EmbeddedServer embedded = null;
    TargetSpec target = spec;
    if (spec.kind() == TargetSpec.Kind.EMBEDDED) {
      long t0 = System.nanoTime();
      embedded = EmbeddedServer.start(spec, connections);
      target = embedded.target();
      out.printf(
          "target %s: started an embedded PostgreSQL in %.1f s at %s (data in %s, removed at exit)%n",
          target.name(),
          (System.nanoTime() - t0) / 1e9,
          target.jdbcUrl(),
          embedded.dataDirectory());
    }
    ConnectionFactory cf = new ConnectionFactory(target, ClientSettings.defaults());
    try (Connection c = cf.openPlain()) {
      ServerInfo info = ServerInfo.read(c);
      out.printf(
          "target %s: PostgreSQL %s, ssl %s%n",
          target.name(), info.version(), ServerInfo.sslInUse(c));
      return new Live(spec, target, embedded, info);
    } catch (SQLException e) {
      if (embedded != null) {
        embedded.close();
      }
      throw cf.failure("connecting", e);
    } catch (RuntimeException e) {
      if (embedded != null) {
        embedded.close();
      }
      throw e;
    }
  }

  private TrialResult trial(
      Matrix m, Matrix.Point p, Workload workload, Live lt, int repeat, int sequence) {
    RunPlan plan = p.plan();
    Isolation isolation =
        plan.session().isolation() != null
            ? plan.session().isolation()
            : workload.defaultIsolation();
    ClientSettings settings =
        new ClientSettings(
            plan.session().queryMode(), isolation, plan.session().settings(), plan.driver());
    ConnectionFactory cf = new ConnectionFactory(lt.target, settings);
    Dataset data;
    try (Connection c = cf.openPlain()) {
      checkSessionSettings(cf);
      data = lt.datasets.get(workload.schema());
      if (data == null) {
        data = prepareTables(c, cf, plan, workload, lt.target, lt.embedded != null);
        lt.datasets.put(workload.schema(), data);
        if (workload.schema() == Workload.Schema.PGBENCH) {
          lt.fillfactor = PgbenchLoader.fillfactor(c);
        }
      }
      beforeTrial(m.between(), plan, workload, lt, data, c);
    } catch (SQLException e) {
      throw cf.failure("preparing", e);
    }
    Path dir;
    try {
      dir = Files.createTempDirectory("wg1bench-trial-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      Trial trial =
          Trial.write(
              plan, lt.target, data.scale(), isolation, dir, point(p, isolation), repeat, sequence);
      if (!m.isSweep()) {
        out.printf(
            "running %s on %s: %d client%s%s%s, warmup %s, %d x %s measured, %d fork(s)...%n",
            workload.name(),
            lt.target.name(),
            plan.clients(),
            plan.clients() == 1 ? "" : "s",
            plan.pooled() ? " sharing a pool of " + plan.poolSize() + " connections" : "",
            plan.timing().rate() != null ? " at " + plan.timing().rate() + " ops/s (Poisson)" : "",
            Durations.format(plan.timing().warmup()),
            plan.timing().iterations(),
            Durations.format(plan.timing().iterationTime()),
            plan.timing().forks());
      }
      Instant started = Instant.now();
      ServerSampler sampler =
          plan.timing().progress() != null && !tablesOf(workload.schema()).isEmpty()
              ? new ServerSampler(
                  new ConnectionFactory(lt.target, ClientSettings.defaults()),
                  tablesOf(workload.schema()),
                  plan.timing().progress().toNanos())
              : null;
      DataCheck dc = workload.dataCheck();
      DataCheck.Snapshot before = check ? snapshot(cf, dc) : null;
      TrialRunner.Outcome outcome;
      List<ServerSampler.Sample> samples = List.of();
      try {
        outcome = TrialRunner.run(trial, verbose, out);
      } finally {
        if (sampler != null) {
          samples = sampler.finish();
        }
      }
      TrialResult r =
          JmhResultMapper.map(
              trial,
              outcome,
              lt.info,
              workload,
              data.description(),
              samples,
              started,
              Instant.now());
      return check ? r.withCheck(verify(cf, dc, before, r)) : r;
    } finally {
      deleteTree(dir);
    }
  }

  /**
   * The seeds' hygiene before a trial: a CHECKPOINT so one trial's dirty buffers are not written
   * during the next (2015 §3.3), VACUUM, or a fresh data set (2020 §4.6).
   */
  private void beforeTrial(
      Matrix.BetweenTrials between, RunPlan plan, Workload w, Live lt, Dataset data, Connection c)
      throws SQLException {
    Integer ff = plan.params().fillfactor();
    boolean refill = w.schema() == Workload.Schema.PGBENCH && ff != null && ff != lt.fillfactor;
    if (refill && lt.embedded == null && between != Matrix.BetweenTrials.REINIT) {
      throw new UsageException(
          "--fillfactor "
              + ff
              + ": the pgbench tables on target "
              + lt.target.name()
              + " have fillfactor "
              + lt.fillfactor
              + "; add --between-trials reinit to re-create them (or run init -F "
              + ff
              + ")");
    }
    if (refill) {
      // the embedded server's tables are wg1bench's own; re-create them with this fillfactor
      PgbenchLoader.init(c, data.scale(), ff, true, null);
      lt.fillfactor = ff;
    }
    applyTableOptions(plan, w, lt, c);
    Matrix.BetweenTrials what =
        between == Matrix.BetweenTrials.AUTO
            ? (w.readOnly() ? Matrix.BetweenTrials.NONE : Matrix.BetweenTrials.CHECKPOINT)
            : between;
    try (java.sql.Statement st = c.createStatement()) {
      switch (what) {
        case CHECKPOINT -> {
          if (!lt.checkpointDenied) {
            try {
              st.execute("CHECKPOINT");
            } catch (SQLException e) {
              lt.checkpointDenied = true;
              out.printf(
                  "warning: target %s: CHECKPOINT between trials not allowed (%s); trials run without it%n",
                  lt.target.name(), ConnectionFactory.oneLine(e));
            }
          }
        }
        case VACUUM -> {
          if (w.schema() == Workload.Schema.PGBENCH) {
            for (String t : PgbenchLoader.TABLES) {
              st.execute("VACUUM ANALYZE " + t);
            }
          } else {
            st.execute("VACUUM ANALYZE");
          }
        }
        case REINIT -> {
          if (w.schema() == Workload.Schema.PGBENCH && !refill) {
            // asked for explicitly: dropping the pgbench tables (only those) is the point
            PgbenchLoader.init(c, data.scale(), lt.fillfactor, true, null);
            applyTableOptions(plan, w, lt, c);
          }
        }
        default -> {
          // NONE (or AUTO on a read-only workload)
        }
      }
    }
  }

  /** The tables a workload's schema consists of (for storage parameters and server sampling). */
  static List<String> tablesOf(Workload.Schema schema) {
    return switch (schema) {
      case PGBENCH -> PgbenchLoader.TABLES;
      case SSB -> SsbLoader.TABLES;
      default -> List.of();
    };
  }

  /**
   * Sets the trial's storage parameters on the workload's tables and resets those an earlier trial
   * set but this one does not, so one trial's settings never leak into the next.
   */
  private static void applyTableOptions(RunPlan plan, Workload w, Live lt, Connection c)
      throws SQLException {
    Map<String, String> want = plan.params().tableOptions();
    List<String> tables = tablesOf(w.schema());
    if (!want.isEmpty() && tables.isEmpty()) {
      throw new UsageException(
          "--table-option needs a workload with known tables (pgbench or ssb), not " + w.name());
    }
    try (java.sql.Statement st = c.createStatement()) {
      for (String k : List.copyOf(lt.tableOptions.keySet())) {
        if (!want.containsKey(k)) {
          for (String t : tables) {
            st.execute("ALTER TABLE " + t + " RESET (" + k + ")");
          }
          lt.tableOptions.remove(k);
        }
      }
      for (Map.Entry<String, String> e : want.entrySet()) {
        if (!e.getValue().equals(lt.tableOptions.get(e.getKey()))) {
          for (String t : tables) {
            try {
              st.execute("ALTER TABLE " + t + " SET (" + e.getKey() + " = " + e.getValue() + ")");
            } catch (SQLException ex) {
              throw new UsageException(
                  "--table-option "
                      + e.getKey()
                      + "="
                      + e.getValue()
                      + ": "
                      + ConnectionFactory.oneLine(ex));
            }
          }
          lt.tableOptions.put(e.getKey(), e.getValue());
        }
      }
    }
  }

  private static BenchmarkRun run(
      Matrix m, Map<String, Workload> workloads, Machine machine, List<TrialResult> trials) {
    List<Workload> distinct = new ArrayList<>();
    for (Workload w : workloads.values()) {
      if (distinct.stream().noneMatch(d -> d.name().equals(w.name()))) {
        distinct.add(w);
      }
    }
    String names = String.join(",", distinct.stream().map(Workload::name).toList());
    String descriptions = String.join("; ", distinct.stream().map(Workload::description).toList());
    String seeds = String.join("; ", distinct.stream().map(Workload::seed).distinct().toList());
    return new BenchmarkRun(
        "wg1bench",
        BuildInfo.version(),
        BuildInfo.jmh(),
        names,
        descriptions,
        seeds,
        m.points().get(0).plan(),
        new MatrixInfo(
            m.points().size(),
            m.repeat(),
            m.order().name().toLowerCase(Locale.ROOT),
            m.seed(),
            m.between().name().toLowerCase(Locale.ROOT)),
        machine,
        List.copyOf(trials),
        Summaries.of(trials));
  }

  /**
   * The knob values that identify a trial, so reports can plot and group trials by any of them:
   * target, workload, clients, query mode, isolation, and whatever else the plan set.
   */
  static Map<String, String> point(Matrix.Point mp, Isolation isolation) {
    RunPlan plan = mp.plan();
    Map<String, String> p = new LinkedHashMap<>(mp.labels());
    p.put("target", mp.target().name());
    p.put("workload", plan.workload());
    p.put("clients", Integer.toString(plan.clients()));
    p.put("queryMode", plan.session().queryMode().cliName());
    p.put("isolation", isolation == null ? "default" : isolation.cliName());
    if (plan.poolSize() != null) {
      p.put("poolSize", plan.poolSize().toString());
    }
    if (plan.timing().rate() != null) {
      p.put("rate", plan.timing().rate().toString());
    }
    plan.session().settings().forEach((k, v) -> p.put("set." + k, v));
    if (plan.params().fillfactor() != null) {
      p.put("fillfactor", plan.params().fillfactor().toString());
    }
    plan.params().tableOptions().forEach((k, v) -> p.put("table." + k, v));
    var d = plan.driver();
    if (d.prepareThreshold() != null) {
      p.put("prepareThreshold", d.prepareThreshold().toString());
    }
    if (d.binaryTransfer() != null) {
      p.put("binaryTransfer", d.binaryTransfer().toString());
    }
    if (d.fetchSize() != null) {
      p.put("fetchSize", d.fetchSize().toString());
    }
    if (d.rewriteBatchedInserts()) {
      p.put("rewriteBatchedInserts", "true");
    }
    if (d.sslmode() != null) {
      p.put("sslmode", d.sslmode());
    }
    d.properties().forEach((k, v) -> p.put("jdbc." + k, v));
    return p;
  }

  private static DataCheck.Snapshot snapshot(ConnectionFactory cf, DataCheck dc) {
    try (Connection c = cf.openPlain()) {
      return dc.snapshot(c);
    } catch (SQLException e) {
      throw cf.failure("--check (reading the tables before the run)", e);
    }
  }

  /** The workload's guarantees against the database; a failure to read it fails the check. */
  private static DataCheck.Outcome verify(
      ConnectionFactory cf, DataCheck dc, DataCheck.Snapshot before, TrialResult r) {
    var m = r.measurement();
    long serialization =
        r.errors().stream()
            .filter(e -> e.kind().equals(FailureKind.SERIALIZATION.label()))
            .mapToLong(e -> e.count())
            .sum();
    long connection = r.outages().stream().mapToLong(o -> o.failedOps()).sum();
    try (Connection c = cf.openPlain()) {
      return dc.verify(
          c, before, new DataCheck.Counts(m.totalOps(), serialization, connection, m.stoppedBy()));
    } catch (SQLException e) {
      return new DataCheck.Outcome(
          false, List.of(), List.of("could not read the tables: " + ConnectionFactory.oneLine(e)));
    }
  }

  /** A --set that the server rejects is the user's mistake: say which one, exit 2. */
  private static void checkSessionSettings(ConnectionFactory cf) {
    if (cf.settings().sessionSettings().isEmpty()) {
      return;
    }
    try (Connection c = cf.openClient()) {
      // applying them is the check
    } catch (SQLException e) {
      String state = e.getSQLState() == null ? "" : e.getSQLState();
      if (state.equals("42704")
          || state.equals("22023")
          || state.equals("55P02")
          || state.startsWith("42")) {
        throw new UsageException("--set: " + ConnectionFactory.oneLine(e));
      }
      throw cf.failure("applying --set", e);
    }
  }

  /**
   * Makes sure the workload's tables exist and says what they hold. The embedded server is fresh,
   * so it is initialized here; an external server must have been initialized with {@code init}.
   */
  /** What the workload runs on: the scale its scripts see as :scale, and a description. */
  record Dataset(int scale, String description) {
    static Dataset pgbench(int scale) {
      return new Dataset(scale, "pgbench scale " + scale);
    }
  }

  private Dataset prepareTables(
      Connection c,
      ConnectionFactory cf,
      RunPlan plan,
      Workload workload,
      TargetSpec target,
      boolean embedded)
      throws SQLException {
    if (workload.schema() == Workload.Schema.SSB) {
      return prepareSsb(c, cf, plan, target, embedded);
    }
    if (embedded) {
      Integer given = plan.params().scale();
      int scale = given != null ? given : RunPlan.EMBEDDED_DEFAULT_SCALE;
      out.printf("target %s: creating pgbench tables at scale %d%n", target.name(), scale);
      PgbenchLoader.init(c, scale, 100, false, verbose ? out : null);
      return Dataset.pgbench(scale);
    }
    Integer detected = PgbenchLoader.detectScale(c);
    if (workload.schema() == Workload.Schema.PGBENCH) {
      List<String> missing = new ArrayList<>(PgbenchLoader.TABLES);
      missing.removeAll(PgbenchLoader.existing(c));
      if (!missing.isEmpty() || detected == null || detected == 0) {
        throw new RunFailure(
            "target "
                + target.name()
                + ": the pgbench tables are missing or empty ("
                + (missing.isEmpty() ? "pgbench_branches has no rows" : String.join(", ", missing))
                + "); create them first with: java -jar target/wg1bench.jar init --scale 10 --target '"
                + target.name()
                + "="
                + target.jdbcUrl()
                + "'");
      }
      Integer given = plan.params().scale();
      if (given != null && given.intValue() != detected) {
        out.printf(
            "warning: --scale %d ignored: pgbench_branches holds %d rows, so the scale is %d (as pgbench does)%n",
            given, detected, detected);
      }
      return Dataset.pgbench(detected);
    }
    if (plan.params().scale() != null) {
      return Dataset.pgbench(plan.params().scale());
    }
    return Dataset.pgbench(detected != null && detected > 0 ? detected : 1);
  }

  /**
   * SSB workloads run on a database loaded by {@code init ssb}. The embedded server loads itself at
   * SF {@value #EMBEDDED_SSB_SCALE} (or --scale), small enough to take seconds.
   */
  private Dataset prepareSsb(
      Connection c, ConnectionFactory cf, RunPlan plan, TargetSpec target, boolean embedded)
      throws SQLException {
    if (embedded) {
      Integer given = plan.params().scale();
      double sf = given != null ? given : EMBEDDED_SSB_SCALE;
      out.printf(
          "target %s: loading the Star Schema Benchmark at SF %s%n",
          target.name(), SsbLoader.scaleKey(sf));
      SsbLoader.load(
          cf,
          new SsbLoader.Options(sf, false, false, false, SsbLoader.defaultThreads()),
          verbose ? out : null);
      return new Dataset(1, "SSB SF " + SsbLoader.scaleKey(sf) + " (plain)");
    }
    SsbLoader.Loaded loaded = SsbLoader.detect(c);
    if (loaded == null) {
      throw new RunFailure(
          "target "
              + target.name()
              + ": the SSB tables are missing or empty; create them first with: "
              + "java -jar target/wg1bench.jar init ssb --scale 1 --target '"
              + target.name()
              + "="
              + target.jdbcUrl()
              + "'");
    }
    return new Dataset(1, "SSB SF " + loaded.scaleFactor() + " (" + loaded.variant() + ")");
  }

  /** SSB scale factor of the embedded server when --scale is not given. */
  static final double EMBEDDED_SSB_SCALE = 0.01;

  /** {@code wg1bench init}: create and load the pgbench tables on each target. */
  public void init(List<TargetSpec> targets, int scale, int fillfactor, boolean force) {
    for (TargetSpec t : targets) {
      if (t.kind() == TargetSpec.Kind.EMBEDDED) {
        throw new UsageException(
            "init --target embedded: the embedded server is created fresh for every run and"
                + " initializes itself; give init an external --target URL");
      }
      ConnectionFactory cf = new ConnectionFactory(t, ClientSettings.defaults());
      try (Connection c = cf.openPlain()) {
        ServerInfo info = ServerInfo.read(c);
        out.printf("target %s: PostgreSQL %s%n", t.name(), info.version());
        PgbenchLoader.init(c, scale, fillfactor, force, out);
      } catch (SQLException e) {
        throw cf.failure("init", e);
      }
    }
  }

  static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      System.err.println("wg1bench: could not remove " + dir + ": " + e.getMessage());
    }
  }
}
