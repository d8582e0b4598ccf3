package dev.wg1bench.run;

import dev.wg1bench.jmh.JmhLaunch;
import dev.wg1bench.jmh.TrialSpec;
import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.result.JmhResultMapper;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.FactoryDataSource;
import dev.wg1bench.server.ServerSampler;
import dev.wg1bench.workload.DataCheck;
import dev.wg1bench.workload.FailureKind;
import dev.wg1bench.workload.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * One trial of one point on one target: its tables made ready and its hygiene done, then measured
 * through JMH (a forked JVM reads the trial from a file), mapped to a result, and with --check the
 * workload's guarantees verified against the database.
 */
final class TrialExecution {
  private final PrintStream out;
  private final boolean verbose;
  private final boolean check;
  private final boolean sweep;
  private final Hygiene hygiene;
  private final AgentSession agent;

  TrialExecution(PrintStream out, boolean verbose, boolean check, Matrix m, AgentSession agent) {
    this.out = out;
    this.agent = agent;
    this.verbose = verbose;
    this.check = check;
    this.sweep = m.isSweep();
    this.hygiene = new Hygiene(m.between(), out);
  }

  TrialResult measure(Matrix.Point p, Workload workload, LiveTarget lt, int repeat, int sequence) {
    RunPlan plan = p.plan();
    ClientSettings settings = ClientSettings.of(plan, workload.defaultIsolation());
    ConnectionFactory cf = lt.target.clients(settings);
    DataSet ds = DataSet.of(workload.schema());
    PreparedData data = prepare(plan, workload, lt, cf, ds);
    setUp(workload, cf);
    Path dir = newTrialDir();
    try {
      TrialSpec trial =
          TrialSpec.write(
              agent != null ? agent.share(plan) : plan,
              lt.spec,
              data.scale(),
              settings,
              dir,
              PointLabels.of(p, settings.isolation()),
              repeat,
              sequence);
      if (!sweep) {
        announce(plan, workload, lt);
      }
      if (agent != null) {
        trial = agent.slot(trial);
      }
      return launch(trial, plan, workload, lt, cf, ds, data);
    } finally {
      TrialSpec.release(dir);
      deleteTree(dir);
      LIVE_DIRS.remove(dir);
    }
  }

  /**
   * The schema's tables made ready once per target (later trials reuse them) and the hygiene done
   * before every trial, on one plain connection; an agent that shares another's data leaves the
   * hygiene to the agent that prepares it.
   */
  private PreparedData prepare(
      RunPlan plan, Workload workload, LiveTarget lt, ConnectionFactory cf, DataSet ds) {
    try (Connection c = cf.openPlain()) {
      checkSessionSettings(cf);
      PreparedData data = lt.prepared.get(workload.schema());
      if (data == null) {
        data = ds.prepare(workload, c, cf, plan, lt, new DataSet.Output(out, verbose));
        lt.prepared.put(workload.schema(), data);
      }
      if (agent == null || agent.preparesData()) {
        hygiene.beforeTrial(plan, workload, lt, data, c);
      }
      return data;
    } catch (SQLException e) {
      throw cf.failure("preparing", e);
    }
  }

  /** Trial directories not yet removed: a SIGTERM or Ctrl-C removes them on the way out. */
  private static final Set<Path> LIVE_DIRS = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> LIVE_DIRS.forEach(TrialExecution::deleteTree), "wg1bench-trial-dirs"));
  }

  /**
   * The forked JVM reads its trial from a file: a directory of its own (owner-only, as {@link
   * Files#createTempDirectory} makes it), removed afterwards, or by the shutdown hook when the run
   * is stopped.
   */
  private static Path newTrialDir() {
    try {
      Path dir = Files.createTempDirectory("wg1bench-trial-");
      LIVE_DIRS.add(dir);
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The written trial run through JMH (or through the agent that times it with the others), sampled
   * from the server while it runs, mapped to a result and with --check verified. The snapshot for
   * --check is taken before the clients connect so the check sees only their writes.
   */
  private TrialResult launch(
      TrialSpec trial,
      RunPlan plan,
      Workload workload,
      LiveTarget lt,
      ConnectionFactory cf,
      DataSet ds,
      PreparedData data) {
    Instant started = Instant.now();
    List<String> tables = ds.tables(workload);
    ServerSampler sampler =
        plan.timing().progress() != null && !tables.isEmpty()
            ? new ServerSampler(lt.target.admin(), tables, plan.timing().progress().toNanos())
            : null;
    DataCheck dc = workload.dataCheck();
    DataCheck.Snapshot before = check ? snapshot(cf, dc) : null;
    if (agent == null) {
      // an agent's pooler is shared with the other agents' clients: nothing to wait for
      lt.target.beforeClients(out);
    }
    JmhLaunch.Outcome outcome;
    List<ServerSampler.Sample> samples = List.of();
    try {
      outcome =
          agent != null
              ? agent.run(trial, plan, () -> JmhLaunch.run(trial, verbose, out), out)
              : JmhLaunch.run(trial, verbose, out);
    } finally {
      if (sampler != null) {
        samples = sampler.finish();
      }
    }
    TrialResult r =
        JmhResultMapper.map(
            trial, outcome, lt.info, workload, data.description(), samples, started, Instant.now());
    if (agent != null) {
      agent.measured(r, outcome);
    }
    return check ? r.withCheck(verify(cf, dc, before, r, workload)) : r;
  }

  private void announce(RunPlan plan, Workload workload, LiveTarget lt) {
    var t = plan.timing();
    out.printf(
        "running %s on %s: %d client%s%s%s, %s, %d fork(s)...%n",
        workload.name(),
        lt.name(),
        plan.clients(),
        plan.clients() == 1 ? "" : "s",
        plan.pooled() ? " sharing a pool of " + plan.poolSize() + " connections" : "",
        t.rate() != null ? " at " + t.rate() + " ops/s (Poisson)" : "",
        t.countsOps()
            ? t.transactions() + " ops per client (-t), no warmup"
            : "warmup "
                + Durations.format(t.warmup())
                + ", "
                + t.iterations()
                + " x "
                + Durations.format(t.iterationTime())
                + " measured",
        t.forks());
  }

  private static DataCheck.Snapshot snapshot(ConnectionFactory cf, DataCheck dc) {
    try (Connection c = cf.openPlain()) {
      return dc.snapshot(c);
    } catch (SQLException e) {
      throw cf.failure("--check (reading the tables before the run)", e);
    }
  }

  /**
   * The workload's own set-up before the trial's clients connect (a user's workload class creates
   * and loads its tables there); one that throws ends the run with one line naming it, exit 1, or
   * exit 2 for an IllegalArgumentException (a -D parameter it refuses).
   */
  private static void setUp(Workload workload, ConnectionFactory cf) {
    try {
      workload.setUp(new FactoryDataSource(cf));
    } catch (IllegalArgumentException e) {
      // a workload refusing one of its -D parameters: bad input, said in the workload's words
      throw new UsageException("workload " + workload.name() + ": " + e.getMessage(), e);
    } catch (RunFailure e) {
      // already one line naming the workload (its class's constructor threw)
      throw e;
    } catch (Exception | AssertionError e) {
      throw new RunFailure(
          "setUp() of workload "
              + workload.name()
              + " failed: "
              + (e instanceof SQLException q ? ConnectionFactory.oneLine(q) : String.valueOf(e)),
          e);
    }
  }

  /**
   * The workload's named conditions beside the tool's rules: each said to hold ("ok") or not, what
   * broke a failed one among the failures (TPC-C: which clauses of 3.3.2 it checked).
   */
  private static DataCheck.Outcome named(DataCheck.Outcome o, Map<String, String> conditions) {
    // no rules of the tool's (o null): the conditions are all that was checked
    List<String> details = new ArrayList<>(o == null ? List.of() : o.details());
    List<String> failures = new ArrayList<>(o == null ? List.of() : o.failures());
    conditions.forEach(
        (name, broke) -> {
          details.add(name + (broke == null ? " ok" : " failed"));
          if (broke != null) {
            failures.add(name + " " + broke);
          }
        });
    return new DataCheck.Outcome(failures.isEmpty(), details, failures);
  }

  /** The workload's own check beside its rules: what it throws is the check's problem. */
  private static DataCheck.Outcome verify(
      ConnectionFactory cf,
      DataCheck dc,
      DataCheck.Snapshot before,
      TrialResult r,
      Workload workload) {
    DataCheck.Outcome o = verify(cf, dc, before, r);
    try {
      long committed = r.measurement().committedOps();
      Map<String, String> conditions = workload.verify(new FactoryDataSource(cf), committed);
      if (!conditions.isEmpty()) {
        return named(dc == DataCheck.NONE ? null : o, conditions);
      }
      if (dc == DataCheck.NONE && workload.verifies() && o.failures().isEmpty()) {
        // no rules of the tool's: the workload's own check is what was checked, not "nothing"
        return new DataCheck.Outcome(
            true,
            List.of(
                "check() of workload "
                    + workload.name()
                    + " passed ("
                    + committed
                    + " committed ops)"),
            List.of());
      }
      return o;
    } catch (Exception | AssertionError e) {
      List<String> failures = new ArrayList<>(o.failures());
      failures.add("check() of workload " + workload.name() + ": " + e.getMessage());
      return new DataCheck.Outcome(false, o.details(), failures);
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
          c,
          before,
          new DataCheck.Counts(m.committedOps(), serialization, connection, m.stoppedBy()));
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
    try (Connection c = cf.openClientCheckingSettings()) {
      // applying them is the check
    } catch (SQLException e) {
      throw cf.failure("applying --set", e);
    }
  }

  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return; // removed already (the shutdown hook beside the trial's own end)
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (NoSuchFileException e) {
      // removed beside us
    } catch (IOException | UncheckedIOException e) {
      System.err.println("wg1bench: could not remove " + dir + ": " + e.getMessage());
    }
  }
}
