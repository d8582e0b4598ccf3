package dev.wg1bench;

import dev.wg1bench.jmh.Trial;
import dev.wg1bench.jmh.TrialRunner;
import dev.wg1bench.load.PgbenchLoader;
import dev.wg1bench.load.ssb.SsbLoader;
import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.ConsoleReport;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.JmhResultMapper;
import dev.wg1bench.result.Machine;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.target.ClientSettings;
import dev.wg1bench.target.ConnectionFactory;
import dev.wg1bench.target.EmbeddedServer;
import dev.wg1bench.target.ServerInfo;
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
import java.util.HashSet;
import java.util.List;
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
    Workload workload = WorkloadRegistry.resolve(plan);
    Set<String> predefined = new HashSet<>(ClientContext.BUILTIN_VARIABLES);
    predefined.addAll(plan.params().defines().keySet());
    // every script error surfaces here, before any server is started or touched
    workload.check(predefined);
    String unwritable = JsonReport.unwritable(plan.output());
    if (unwritable != null) {
      throw new UsageException("--output " + plan.output() + ": " + unwritable);
    }
    Isolation isolation =
        plan.session().isolation() != null
            ? plan.session().isolation()
            : workload.defaultIsolation();
    List<TrialResult> trials = new ArrayList<>();
    Machine machine = Machine.current();
    for (TargetSpec spec : plan.targets()) {
      trials.add(runOn(plan, spec, workload, isolation, trials.size() + 1));
      BenchmarkRun partial = run(plan, workload, machine, trials);
      ConsoleReport.trial(partial, trials.get(trials.size() - 1), out);
      out.println();
    }
    BenchmarkRun run = run(plan, workload, machine, trials);
    JsonReport.write(run, plan.output());
    ConsoleReport.comparison(run, out);
    out.println("result written to " + plan.output());
    return run;
  }

  /**
   * The knob values that identify a trial, so reports can plot and group trials by any of them:
   * target, workload, clients, query mode, isolation, and whatever else the plan set.
   */
  static java.util.Map<String, String> point(RunPlan plan, TargetSpec target, Isolation isolation) {
    java.util.Map<String, String> p = new java.util.LinkedHashMap<>();
    p.put("target", target.name());
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

  private static BenchmarkRun run(RunPlan plan, Workload w, Machine m, List<TrialResult> trials) {
    return new BenchmarkRun(
        "wg1bench",
        BuildInfo.version(),
        BuildInfo.jmh(),
        w.name(),
        w.description(),
        w.seed(),
        plan,
        m,
        List.copyOf(trials),
        dev.wg1bench.result.Summaries.of(trials));
  }

  private TrialResult runOn(
      RunPlan plan, TargetSpec spec, Workload workload, Isolation isolation, int sequence) {
    EmbeddedServer embedded = null;
    try {
      TargetSpec target = spec;
      if (spec.kind() == TargetSpec.Kind.EMBEDDED) {
        long t0 = System.nanoTime();
        embedded = EmbeddedServer.start(spec, plan.connections());
        target = embedded.target();
        out.printf(
            "target %s: started an embedded PostgreSQL in %.1f s at %s (data in %s, removed at exit)%n",
            target.name(),
            (System.nanoTime() - t0) / 1e9,
            target.jdbcUrl(),
            embedded.dataDirectory());
      }
      ClientSettings settings =
          new ClientSettings(
              plan.session().queryMode(), isolation, plan.session().settings(), plan.driver());
      ConnectionFactory cf = new ConnectionFactory(target, settings);
      ServerInfo info;
      Dataset data;
      try (Connection c = cf.openPlain()) {
        info = ServerInfo.read(c);
        out.printf(
            "target %s: PostgreSQL %s, ssl %s%n",
            target.name(), info.version(), ServerInfo.sslInUse(c));
        checkSessionSettings(cf);
        data = prepareTables(c, cf, plan, workload, target, embedded != null);
      } catch (SQLException e) {
        throw cf.failure("connecting", e);
      }
      Path dir = Files.createTempDirectory("wg1bench-trial-");
      try {
        Trial trial =
            Trial.write(
                plan,
                target,
                data.scale(),
                isolation,
                dir,
                point(plan, spec, isolation),
                1,
                sequence);
        out.printf(
            "running %s on %s: %d clients%s%s, warmup %s, %d x %s measured, %d fork(s)...%n",
            workload.name(),
            target.name(),
            plan.clients(),
            plan.pooled() ? " sharing a pool of " + plan.poolSize() + " connections" : "",
            plan.timing().rate() != null ? " at " + plan.timing().rate() + " ops/s (Poisson)" : "",
            dev.wg1bench.plan.Durations.format(plan.timing().warmup()),
            plan.timing().iterations(),
            dev.wg1bench.plan.Durations.format(plan.timing().iterationTime()),
            plan.timing().forks());
        DataCheck dc = workload.dataCheck();
        DataCheck.Snapshot before = check ? snapshot(cf, dc) : null;
        Instant started = Instant.now();
        TrialRunner.Outcome outcome = TrialRunner.run(trial, verbose, out);
        TrialResult r =
            JmhResultMapper.map(
                trial, outcome, info, workload, data.description(), started, Instant.now());
        return check ? r.withCheck(verify(cf, dc, before, r)) : r;
      } finally {
        deleteTree(dir);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (embedded != null) {
        embedded.close();
      }
    }
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
