package dev.wg1bench.jmh;

import com.zaxxer.hikari.HikariDataSource;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.ThreadKind;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.workload.FailureKind;
import dev.wg1bench.workload.OpFailedException;
import dev.wg1bench.workload.Workload;
import dev.wg1bench.workload.WorkloadRegistry;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The one benchmark: JMH threads are the clients, one invocation is one op of the workload. Which
 * workload, target and knobs come from the {@link TrialSpec} file, never from {@code @Param}s (they
 * would show up in JMH's tables and command lines, passwords included).
 *
 * <p>The benchmark-scoped state holds what all clients share (the workload, the connection factory
 * or pool) and collects their measurements at iteration boundaries; nothing is shared on the per-op
 * path except the optional progress sampler.
 *
 * <p>Latency is measured from the op's intended start: its scheduled time under {@code --rate} (so
 * a stalled server shows in the percentiles instead of being hidden), else the moment the client
 * asked for it, pool wait included.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class WorkloadBenchmark {
  TrialSpec trial;
  Workload workload;

  /** Whether ops' statements are the socket's count (a workload class's: the runner sees none). */
  boolean socketStatements;

  ConnectionFactory connections;
  HikariDataSource pool;
  ProgressSampler progress;
  MeasurementWindow window;

  /** With --agent: holds the clients until the agents agreed on the start; else null. */
  AgentGate gate;

  long meanIntervalNanos;

  /** pgbench --exit-on-abort: a stopped client ends the run. */
  boolean exitOnAbort;

  /** pgbench -t: ops each client runs in its single shot; 0 for a timed run. */
  long opsPerClient;

  long latencyLimitNanos = Long.MAX_VALUE;

  /** The per-op path, made once the trial's settings are known. */
  private OpPath ops;

  /** What this fork measured, written as its report when the last client is done. */
  final ForkTally tally = new ForkTally();

  private int clientsDone;
  private boolean written;

  /** Set once a client gave up under --exit-on-error; the others stop at their next op. */
  volatile boolean stopping;

  /** {@link StallWatchdog#graceNanos()} in seconds, for the result's client settings. */
  public static double stallGraceSeconds() {
    return StallWatchdog.graceNanos() / 1e9;
  }

  /** Every client of this fork, for the watchdog. */
  final List<Client> clients = new CopyOnWriteArrayList<>();

  private StallWatchdog watchdog;

  ClientStops stops;

  /**
   * Why this fork's set-up failed (the pool could not be filled, the workload not resolved), null
   * when it did not: every client then stops with this reason instead of JMH failing the fork.
   */
  volatile String trialSetupFailure;

  /** Clients reach the server through a pooler (--via): its refusals are kind pooler. */
  boolean viaPooler;

  /** Virtual-thread trials: JFR's pinned events and the carriers in use; else null. */
  private PinWatch pins;

  /** A client's set-up runs on the thread JMH gave it: the kind the trial really ran on. */
  void clientThread(Thread t) {
    tally.clientThread(t);
  }

  /** Trial level: loading the plan, resolving the workload and filling the pool happen once. */
  @Setup(Level.Trial)
  public void loadTrial() {
    trial = TrialSpec.load();
    RunPlan p = trial.plan();
    stops = new ClientStops(p.session().continueOnError(), p.clients());
    viaPooler = trial.target().provided() != null && trial.target().provided().via() != null;
    workload = WorkloadRegistry.resolve(p);
    socketStatements = !workload.countsStatements();
    connections = new ConnectionFactory(trial.target(), trial.client());
    try {
      openPool(p);
    } catch (SQLException | RuntimeException e) {
      // never an exception for JMH (see Client.connect): the clients stop with the reason
      FailureKind kind = e instanceof SQLException q ? connectFailureKind(q) : FailureKind.OTHER;
      recordSetupError(kind, e);
      trialSetupFailure =
          ClientStops.SETUP + " (" + kind.label() + "): " + ConnectionFactory.oneLine(e);
    }
    if (p.timing().rate() != null) {
      // each client gets an equal share of the rate, as pgbench -R spreads it over clients
      // an agent's clients are a share of all agents': --rate is the whole run's rate
      int all = trial.slot() != null ? trial.slot().clients() : p.clients();
      meanIntervalNanos = Math.round(1e9 * all / p.timing().rate());
    }
    if (p.timing().latencyLimit() != null) {
      latencyLimitNanos = p.timing().latencyLimit().toNanos();
    }
    if (p.timing().progress() != null) {
      progress = new ProgressSampler(p.timing().progress().toNanos(), trial.dir());
    }
    exitOnAbort = p.session().exitOnAbort();
    opsPerClient = p.timing().countsOps() ? p.timing().transactions() : 0;
    window = new MeasurementWindow(connections, opsPerClient > 0);
    if (trial.slot() != null) {
      gate = new AgentGate(trial.dir(), trial.slot().gateTimeoutMs());
    }
    if (Knobs.threads(p) == ThreadKind.VIRTUAL
        && Boolean.parseBoolean(System.getProperty("wg1bench.pins", "true"))) {
      // started before the clients connect, so set-up pins count in pinnedAll
      pins = PinWatch.start();
    }
    ops = new OpPath(this);
    watchdog = new StallWatchdog(clients);
  }

  private void openPool(RunPlan p) throws SQLException {
    if (p.pooled()) {
      try {
        pool = connections.pool(p.poolSize());
      } catch (RuntimeException e) {
        // HikariCP wraps the server's refusal: the SQLException says what the server said
        if (e.getCause() instanceof SQLException q) {
          throw q;
        }
        throw e;
      }
      awaitPoolFilled(p.poolSize());
    }
  }

  /**
   * HikariCP opens one connection and fills the rest in the background, retrying refusals quietly:
   * a pool the server lets have fewer connections than --pool-size ran another workload than the
   * one asked. As the unpooled clients each connect before the first iteration, the pool gets the
   * connect timeout to fill; short of it, the run is failed (see ClientStops#poolShort) with the
   * server's reason, read by asking it for one more connection of the same kind.
   */
  private void awaitPoolFilled(int size) {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(ConnectionFactory.CONNECT_TIMEOUT_S);
    while (pool.getHikariPoolMXBean().getTotalConnections() < size && System.nanoTime() < end) {
      LockSupport.parkNanos(20_000_000L);
    }
    int held = pool.getHikariPoolMXBean().getTotalConnections();
    if (held >= size) {
      return;
    }
    String why;
    try {
      connections.openBenchmarkClient().close();
      why = "not within " + ConnectionFactory.CONNECT_TIMEOUT_S + " s";
    } catch (SQLException e) {
      why = "could not connect (" + e.getSQLState() + "): " + ConnectionFactory.oneLine(e);
    }
    stops.poolShort(
        "the pool opened " + held + " of " + size + " connections (--pool-size): " + why);
  }

  /**
   * JMH may tear down this benchmark-scoped state while other threads still run their last
   * iteration teardown, so the last client to finish writes the report instead.
   */
  void clientDone(int threads) {
    boolean last;
    synchronized (this) {
      last = ++clientsDone == threads;
    }
    // the report is written outside the monitor: it waits for the last window's server count and
    // for JFR's last events, and a virtual thread blocked inside synchronized pins on Java 21-23
    if (last) {
      if (watchdog != null) {
        watchdog.stop();
      }
      writeReport();
      if (pool != null) {
        pool.close();
      }
    }
  }

  private void writeReport() {
    synchronized (this) {
      if (written) {
        return;
      }
      written = true;
    }
    if (progress != null) {
      progress.stop();
    }
    if (opsPerClient > 0) {
      // a -t window still open (the fork ends abnormally) ends now, not at its provisional length
      window.truncate();
    }
    tally.write(trial.dir(), window, pool != null, meanIntervalNanos > 0, stops, pins);
  }

  /** Folds a client's iteration into the fork's counts (see ForkTally#absorb). */
  synchronized void absorb(Client c, boolean measurement) {
    tally.absorb(c, measurement, window.current(), opsPerClient > 0);
  }

  void connectionLost(Client c) {
    tally.outages.lost(c);
  }

  void connectionBack(Client c) {
    tally.outages.back(c);
  }

  void connected(long nanos) {
    tally.connected(nanos);
  }

  /** See {@link ForkTally#claimClientInfo()}. */
  boolean claimClientInfo() {
    return tally.claimClientInfo();
  }

  /** See {@link ForkTally#clientInfo}. */
  void clientInfo(ConnectionFactory.Opened o) {
    tally.clientInfo(o);
  }

  /** See {@link ForkTally#clientInfoRefused}. */
  void clientInfoRefused(SQLException e) {
    tally.clientInfoRefused(e);
  }

  /**
   * How a failure to connect or set up a session is counted: a pooler's own refusal (SQLSTATE
   * 08P01, the class PgBouncer answers with when it has no server connection to give, or too many
   * clients) is kind pooler, since the server never saw the client.
   */
  FailureKind connectFailureKind(SQLException e) {
    FailureKind kind = FailureKind.of(e);
    if (viaPooler && kind == FailureKind.CONNECTION && "08P01".equals(e.getSQLState())) {
      return FailureKind.POOLER;
    }
    return kind;
  }

  /**
   * A client's set-up failed: the error is kept in the result (phase "setup", counted by kind) and
   * the client stops with the reason in one line, as pgbench aborts a client that cannot start.
   */
  void setupFailed(Client c, Throwable e) {
    FailureKind kind = e instanceof SQLException q ? connectFailureKind(q) : FailureKind.OTHER;
    recordSetupError(kind, e);
    String state =
        e instanceof SQLException q && q.getSQLState() != null ? ", " + q.getSQLState() : "";
    clientNotStarted(
        c, ClientStops.SETUP + " (" + kind.label() + state + "): " + ConnectionFactory.oneLine(e));
  }

  /** A client could not connect at the start and stops (see ClientStops.stopsConnect). */
  void connectRefused(Client c, SQLException e, FailureKind kind) {
    recordSetupError(kind, e);
    String label = kind == FailureKind.POOLER ? "pooler, " : "";
    clientNotStarted(
        c, "could not connect (" + label + e.getSQLState() + "): " + ConnectionFactory.oneLine(e));
  }

  /**
   * A client that could not start (connect or set up) stops, and is counted as not started: the run
   * then did not run the clients it was asked for, which fails it (exit 1), as pgbench exits 1 on
   * "could not create connection for client N".
   */
  void clientNotStarted(Client c, String why) {
    stops.notStarted(why);
    clientStopped(c, why);
  }

  /** An error of a client's set-up that does not stop it (it reconnects), kept by kind. */
  void setupError(FailureKind kind, SQLException e) {
    recordSetupError(kind, e);
  }

  private void recordSetupError(FailureKind kind, Throwable e) {
    tally.setupError(kind, e);
  }

  /**
   * --exit-on-error: JMH will not run the teardowns after the exception, so the failing client
   * folds in its partial iteration and writes the report now.
   */
  synchronized void stop(Client c, String why) {
    if (tally.stoppedBy(why)) {
      stopping = true;
      window.truncate();
      absorb(c, c.measuring);
      writeReport();
    }
  }

  /**
   * A client stops on an error that won't heal: its connection goes back to the server at once.
   * When it was the last one running, a forked run ends now with the reason (an in-process one
   * cannot be stopped cleanly: its clients idle to the end).
   */
  void clientStopped(Client c, String why) {
    c.stoppedBy = why;
    if (c.conn != null) {
      try {
        c.conn.close();
      } catch (SQLException e) {
        // a broken connection is as good as closed
      }
      c.conn = null;
    }
    // the count and the run's reason change together: a client idling on noneLeft() writes the
    // report through allStopped(), on this lock, so never before the reason is in it (else the
    // run read as completed with failures, exit 3, though every client had stopped)
    synchronized (this) {
      if (stops.stop(why)) {
        tally.allStoppedBy(stops.allStopped());
      }
    }
  }

  /**
   * Every client stopped: each one's partial iteration is folded in (they are all idle) and the
   * report written, since JMH runs no teardown after the exception that ends the fork.
   */
  synchronized void allStopped() {
    if (written) {
      return;
    }
    stopping = true;
    // the window ends now: its scheduled close would hold the fork until the full duration
    window.truncate();
    for (Client x : clients) {
      absorb(x, x.measuring);
    }
    writeReport();
    // no teardown follows the exception that ends the run: what clientDone would close, now
    if (watchdog != null) {
      watchdog.stop();
    }
    if (pool != null) {
      pool.close();
    }
  }

  /**
   * {@code committed} and {@code trouble} are asked for so that JMH reports their counters, views
   * of the client's counts.
   */
  @Benchmark
  public void op(Client c, Committed committed, FailureCounters trouble) throws SQLException {
    committed.watch(c.all);
    trouble.watch(c.all);
    try {
      if (opsPerClient == 0) {
        ops.run(c);
        return;
      }
      try {
        ops.run(c);
      } finally {
        if (++c.invocations == opsPerClient) {
          window.clientFinished(c.threads());
        }
      }
    } catch (OpFailedException e) {
      throw e;
    } catch (SQLException | RuntimeException | Error e) {
      failedInside(c, e);
      throw e;
    }
  }

  /**
   * Anything unexpected out of an op or a client's iteration set-up ends the run in JMH, with no
   * teardown to write the report: the report is written first, with the cause as the reason the run
   * stopped, so the user reads that instead of "no measurements".
   */
  void failedInside(Client c, Throwable e) {
    stop(c, "client " + c.clientId() + " failed inside wg1bench: " + e);
  }
}
