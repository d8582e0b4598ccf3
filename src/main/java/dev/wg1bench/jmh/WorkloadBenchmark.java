package dev.wg1bench.jmh;

import com.zaxxer.hikari.HikariDataSource;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.workload.FailureKind;
import dev.wg1bench.workload.OpFailedException;
import dev.wg1bench.workload.OpStats;
import dev.wg1bench.workload.Workload;
import dev.wg1bench.workload.WorkloadRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
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
 * workload, target and knobs come from the {@link Trial} file, never from {@code @Param}s (they
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
  Trial trial;
  Workload workload;
  ConnectionFactory connections;
  HikariDataSource pool;
  ProgressSampler progress;
  MeasurementWindow window;

  /** With --agent: holds the clients until the agents agreed on the start; else null. */
  AgentGate gate;

  private long meanIntervalNanos;

  /** pgbench --exit-on-abort: a stopped client ends the run. */
  private boolean exitOnAbort;

  /** pgbench -t: ops each client runs in its single shot; 0 for a timed run. */
  long opsPerClient;

  private long latencyLimitNanos = Long.MAX_VALUE;
  private final Histogram measured = new Histogram(3);
  private final Histogram measuredPoolWait = new Histogram(3);
  private final Histogram measuredLag = new Histogram(3);
  private final ForkReport report = new ForkReport();
  private final Breakdown breakdown = new Breakdown();
  private final Map<String, ForkReport.ErrorEntry> errors = new LinkedHashMap<>();
  private int clientsDone;
  private boolean written;

  private final Outages outages = new Outages();

  /** Set once a client gave up under --exit-on-error; the others stop at their next op. */
  private volatile boolean stopping;

  /**
   * How long past the end of an iteration an op may still wait for the server before the stall
   * watchdog aborts its connection. Client connections carry no pgjdbc socketTimeout by default:
   * with one, every read of the JDK's socket takes a non-blocking read, a poll and a second read
   * instead of one blocking read, which cost 10-18% more client CPU per op on tpcb (measured, see
   * bench/vs-pgbench.sh). The watchdog bounds a silent server instead, so the run still ends.
   */
  static long stallGraceNanos() {
    return TimeUnit.MILLISECONDS.toNanos(Long.getLong("wg1bench.stallGraceMs", 10_000));
  }

  /** {@link #stallGraceNanos()} as this trial started (tests shorten it by the property). */
  private long stallGrace;

  /** {@link #stallGraceNanos()} in seconds, for the result's client settings. */
  public static double stallGraceSeconds() {
    return stallGraceNanos() / 1e9;
  }

  /** Every client of this fork, for the watchdog. */
  final java.util.List<Client> clients = new java.util.concurrent.CopyOnWriteArrayList<>();

  private Thread watchdog;

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

  /** Clients whose set-up ran on a virtual thread, and on a platform one. */
  private final java.util.concurrent.atomic.AtomicInteger virtualClients =
      new java.util.concurrent.atomic.AtomicInteger();

  private final java.util.concurrent.atomic.AtomicInteger platformClients =
      new java.util.concurrent.atomic.AtomicInteger();

  /** A client's set-up runs on the thread JMH gave it: the kind the trial really ran on. */
  void clientThread(Thread t) {
    (ClientExecutor.isVirtual(t) ? virtualClients : platformClients).incrementAndGet();
  }

  /** Trial level: loading the plan, resolving the workload and filling the pool happen once. */
  @Setup(Level.Trial)
  public void loadTrial() {
    trial = Trial.load();
    RunPlan p = trial.plan();
    stops = new ClientStops(p.session().continueOnError(), p.clients());
    viaPooler = trial.target().provided() != null && trial.target().provided().via() != null;
    workload = WorkloadRegistry.resolve(p);
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
    if (dev.wg1bench.plan.Knobs.threads(p) == dev.wg1bench.plan.ThreadKind.VIRTUAL
        && Boolean.parseBoolean(System.getProperty("wg1bench.pins", "true"))) {
      // started before the clients connect, so set-up pins count in pinnedAll
      pins = PinWatch.start();
    }
    stallGrace = stallGraceNanos();
    watchdog = new Thread(this::watch, "wg1bench-stall-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
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
    }
  }

  /**
   * Aborts the connection of any client whose op is still waiting for the server {@link
   * #stallGraceNanos()} after its iteration's time was up: a server that stops answering without
   * closing the connection (frozen, or cut off by the network) fails that op as a connection
   * failure, and the client reconnects, instead of the run waiting for it forever.
   */
  private void watch() {
    while (!Thread.currentThread().isInterrupted()) {
      long now = System.nanoTime();
      for (Client c : clients) {
        Connection x = c.inUse;
        if (x != null && c.inIteration && now - c.iterationEnd > stallGrace) {
          double g = stallGrace / 1e9;
          c.stallNote =
              "no answer from the server "
                  + (g == Math.rint(g) ? Long.toString((long) g) : Double.toString(g))
                  + " s after the end of the iteration: wg1bench aborted the connection";
          c.inUse = null;
          try {
            x.abort(Runnable::run);
          } catch (SQLException | RuntimeException e) {
            // already closed: the op is failing anyway
          }
        }
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      }
    }
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
        watchdog.interrupt();
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
    report.windows = window.finish();
    report.measuredNanos = 0;
    report.measuredCpuNanos = 0;
    for (ForkReport.Window w : report.windows) {
      int bins = MeasurementWindow.bins(w.nanos);
      if (w.okPerSecond.length != bins) {
        // a -t window: its length was known only when its last client finished
        w.okPerSecond = Arrays.copyOf(w.okPerSecond, bins);
      }
      report.measuredNanos += w.nanos;
      report.measuredCpuNanos += w.cpuNanos;
    }
    report.cores = Runtime.getRuntime().availableProcessors();
    report.histogram = ForkReport.encode(measured);
    report.poolWaitHistogram = pool != null ? ForkReport.encode(measuredPoolWait) : null;
    report.lagHistogram = meanIntervalNanos > 0 ? ForkReport.encode(measuredLag) : null;
    report.errors = new ArrayList<>(errors.values());
    report.clientsStopped = stops.stopped();
    report.clientsStoppedBy = stops.firstReason();
    report.outages = outages.all();
    breakdown.into(report);
    int v = virtualClients.get();
    int pl = platformClients.get();
    report.threads = v > 0 && pl > 0 ? "mixed" : v > 0 ? "virtual" : "platform";
    if (pins != null) {
      pins.finish(report);
    }
    Path f =
        trial
            .dir()
            .resolve("fork-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".json");
    try {
      Path tmp = Files.createTempFile(trial.dir(), "fork", ".tmp");
      Trial.JSON.writeValue(tmp.toFile(), report);
      Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** CPU time of this JVM, all threads: the client's own cost, to compare with pgbench's. */
  static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os =
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime();
    }
    return 0;
  }

  /** Folds a client's iteration into the fork's counts: its window's ops, and all for totals. */
  synchronized void absorb(Client c, boolean measurement) {
    OpStats s = c.stats;
    c.flushLatency();
    MeasurementWindow.Span span = window.current();
    if (measurement && span != null) {
      measured.add(c.latency);
      measuredPoolWait.add(c.poolWait);
      measuredLag.add(c.lag);
      ForkReport.Window w = span.record;
      w.ok += c.wOk;
      w.failed += c.wFailed;
      if (c.okPerSecond.length > w.okPerSecond.length && opsPerClient > 0) {
        w.okPerSecond = Arrays.copyOf(w.okPerSecond, c.okPerSecond.length);
      }
      for (int i = 0; i < c.okPerSecond.length && i < w.okPerSecond.length; i++) {
        w.okPerSecond[i] += c.okPerSecond[i];
      }
      report.measuredOk += c.wOk;
      report.measuredFailed += c.wFailed;
      report.measuredSkipped += c.wSkipped;
      report.measuredLate += c.wLate;
      report.measuredRetries += c.wRetries;
      report.measuredRetriedOps += c.wRetriedOps;
      report.measuredStatements += c.wStatements;
      breakdown.absorb(c);
      for (FailureKind k : FailureKind.values()) {
        if (c.wFailures[k.ordinal()] > 0) {
          report.failuresByKind.merge(k.label(), c.wFailures[k.ordinal()], Long::sum);
        }
      }
    }
    report.totalOk += c.ok;
    report.totalFailed += c.failed;
    String phase = measurement ? "measurement" : "warmup";
    for (OpStats.ErrorSample e : s.samples().values()) {
      String key = phase + "/" + e.kind + "/" + e.sqlState;
      ForkReport.ErrorEntry x = errors.get(key);
      if (x == null) {
        x = new ForkReport.ErrorEntry();
        x.kind = e.kind;
        x.sqlState = e.sqlState;
        x.firstMessage = e.firstMessage;
        x.firstAtEpochMs = e.firstAtEpochMs;
        x.phase = phase;
        errors.put(key, x);
      }
      x.lastAtEpochMs = Math.max(x.lastAtEpochMs, e.lastAtEpochMs);
      x.count += e.count;
      x.retried += e.retried;
    }
  }

  void connectionLost(Client c) {
    outages.lost(c);
  }

  void connectionBack(Client c) {
    outages.back(c);
  }

  synchronized void connected(long nanos) {
    report.connectNanos += nanos;
    report.connects++;
  }

  /** A client is reading its session's TLS for the report; see {@link #claimClientInfo()}. */
  private boolean clientInfoClaimed;

  /**
   * Whether this client is the one to read its session's TLS for the report: one client, not every
   * client that connects before the first answer, so the tool's own commits on the server are the
   * same number in every run (a race decided it; runs of 4 clients differed by one commit).
   */
  synchronized boolean claimClientInfo() {
    if (clientInfoClaimed) {
      return false;
    }
    clientInfoClaimed = true;
    return true;
  }

  /**
   * What the claiming client read of its session as it opened it (see ConnectionFactory.Opened);
   * {@code null} when it could not open one, and the next client to connect reads it instead.
   */
  synchronized void clientInfo(ConnectionFactory.Opened o) {
    if (o == null) {
      clientInfoClaimed = false;
      return;
    }
    report.clientSsl = o.ssl();
    report.clientSettings.putAll(o.settings());
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
    clientStopped(
        c, ClientStops.SETUP + " (" + kind.label() + state + "): " + ConnectionFactory.oneLine(e));
  }

  /** A client could not connect at the start and stops (see ClientStops.stopsConnect). */
  void connectRefused(Client c, SQLException e, FailureKind kind) {
    recordSetupError(kind, e);
    String label = kind == FailureKind.POOLER ? "pooler, " : "";
    clientStopped(
        c, "could not connect (" + label + e.getSQLState() + "): " + ConnectionFactory.oneLine(e));
  }

  /** An error of a client's set-up that does not stop it (it reconnects), kept by kind. */
  void setupError(FailureKind kind, SQLException e) {
    recordSetupError(kind, e);
  }

  private synchronized void recordSetupError(FailureKind kind, Throwable e) {
    String state = e instanceof SQLException q ? q.getSQLState() : null;
    String key = "setup/" + kind.label() + "/" + state;
    ForkReport.ErrorEntry x = errors.get(key);
    long now = System.currentTimeMillis();
    if (x == null) {
      x = new ForkReport.ErrorEntry();
      x.kind = kind.label();
      x.sqlState = state;
      x.firstMessage = ConnectionFactory.oneLine(e);
      x.firstAtEpochMs = now;
      x.phase = "setup";
      errors.put(key, x);
    }
    x.lastAtEpochMs = now;
    x.count++;
  }

  /**
   * --exit-on-error: JMH will not run the teardowns after the exception, so the failing client
   * folds in its partial iteration and writes the report now.
   */
  synchronized void stop(Client c, String why) {
    if (report.stoppedBy == null) {
      report.stoppedBy = why;
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
    if (stops.stop(why)) {
      synchronized (this) {
        report.stoppedBy = stops.allStopped();
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
      watchdog.interrupt();
    }
    if (pool != null) {
      pool.close();
    }
  }

  @Benchmark
  public void op(Client c, Committed committed, Trouble trouble) throws SQLException {
    try {
      if (opsPerClient == 0) {
        runOp(c, committed, trouble);
        return;
      }
      try {
        runOp(c, committed, trouble);
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

  /**
   * One op, in the steps a reader can follow: wait for its start, run it, count it in the window it
   * completed in, then its success or failure. The hot path reads the clock twice, allocates
   * nothing and takes no lock (see Client.using and Client.recordLatency).
   */
  private void runOp(Client c, Committed committed, Trouble trouble) throws SQLException {
    if (stopping) {
      throw new OpFailedException(
          "stopped: another client failed under --exit-on-error or --exit-on-abort", null);
    }
    if (c.stoppedBy != null) {
      stoppedClient(c);
      return;
    }
    OpRun op = c.op;
    if (!begin(c, op)) {
      return;
    }
    attempt(c, op);
    op.end(c.stats, System.nanoTime());
    trouble.retries += op.retried;
    // counted by completion time: an op belongs to the window it finished in (MeasurementWindow)
    MeasurementWindow.Span span = window.current();
    boolean counted = span != null && span.contains(op.done);
    if (counted) {
      countInWindow(c, op, span);
    }
    c.afterOp(counted, op.ran, op.success, op.latencyNanos, op.retried, op.retriedOp);
    if (op.success) {
      succeeded(c, op, committed, counted ? span : null);
    } else {
      failed(c, op, trouble, counted);
    }
    if (progress != null) {
      (op.success ? progress.ok : progress.failed).increment();
      progress.retries.add(op.retried);
      if (op.success) {
        progress.record(Math.max(1, op.latencyNanos / 1000));
      }
    }
  }

  /** A client that stopped: under --exit-on-abort it ends the run, else it idles. */
  private void stoppedClient(Client c) {
    if (exitOnAbort) {
      // pgbench --exit-on-abort: one aborted client ends the run, the others at their next op
      String why = "--exit-on-abort: client " + c.clientId() + " stopped: " + c.stoppedBy;
      stop(c, why);
      throw new OpFailedException(why, null);
    }
    idle(c);
  }

  /**
   * The op's intended start: under --rate its scheduled time, waited for; else now. False when
   * under --rate with a latency limit it could not start in time and was skipped instead.
   */
  private boolean begin(Client c, OpRun op) {
    if (meanIntervalNanos <= 0) {
      op.begin(c.stats, System.nanoTime(), -1);
      return true;
    }
    long intended = c.schedule(meanIntervalNanos);
    long wait;
    while ((wait = intended - System.nanoTime()) > 0) {
      LockSupport.parkNanos(wait);
    }
    long now = System.nanoTime();
    long lagNanos = now - intended;
    if (lagNanos > latencyLimitNanos) {
      // pgbench -R -L: an op that cannot even start within the limit is skipped, not run
      skipped(c, now, lagNanos);
      return false;
    }
    op.begin(c.stats, intended, lagNanos);
    return true;
  }

  /** A skipped op: counted as skipped, and in the window with its lag when it falls inside. */
  private void skipped(Client c, long now, long lagNanos) {
    c.skipped++;
    if (progress != null) {
      progress.skipped.increment();
    }
    MeasurementWindow.Span span = window.current();
    if (span != null && span.contains(now)) {
      c.wSkipped++;
      c.lag.recordValue(Math.max(1, lagNanos / 1000));
      if (c.txLog != null) {
        c.txLog.windowOpened(span.start);
        c.txLog.skipped(now, lagNanos / 1000);
      }
    }
  }

  /**
   * Runs the op's script on the client's connection, or on one leased from the pool; with none to
   * run it on, it fails as a connection failure. --exit-on-error stops the run here.
   */
  private void attempt(Client c, OpRun op) throws SQLException {
    OpStats s = c.stats;
    try {
      Connection conn = c.conn;
      if (pool != null) {
        long t0 = System.nanoTime();
        conn = lease(c);
        if (conn != null) {
          op.waitNanos = System.nanoTime() - t0;
        }
      } else if (conn == null) {
        // never connected (or lost and not back yet): a failed op, then try again
        s.failed(FailureKind.CONNECTION);
        op.connected = false;
      }
      if (conn != null) {
        op.ran = true;
        op.success = runOn(c, conn, s);
      }
    } catch (OpFailedException e) {
      stop(c, "--exit-on-error: " + e.getMessage());
      throw e;
    }
  }

  /** The script on {@code conn}, watched by the stall watchdog while it waits for the server. */
  private boolean runOn(Client c, Connection conn, OpStats s) throws SQLException {
    boolean success;
    boolean broken = false;
    c.using(conn);
    try {
      success = c.session.runOp(conn, s);
    } catch (OpFailedException e) {
      throw e;
    } catch (RuntimeException e) {
      broken = true;
      success = driverFailed(c, conn, s, e);
    } finally {
      c.using(null);
      if (pool != null) {
        conn.close();
        if (broken) {
          // once handed back: evicting a connection still in use closes it twice, and HikariCP
          // logs a warning for the second
          pool.evictConnection(conn);
        }
      }
    }
    String stalled = c.stallNote;
    if (stalled != null) {
      c.stallNote = null;
      s.error(FailureKind.CONNECTION, "stall", stalled, false);
    }
    return success;
  }

  /**
   * An unchecked exception out of the driver in the middle of an op. pgjdbc throws one when the
   * server answers a named statement it knows as row-less with rows ("Received resultset tuples,
   * but no field structure for them"): a transaction-mode pooler without statement tracking hands
   * the statement to a server connection where its name means another one. Let through, it ended
   * the whole run with no result. The connection's protocol state is lost, so it is aborted and
   * replaced at once (the pool evicts it), without the backoff and the outage of a connection the
   * server lost; the op fails, kind pooler behind --via, else other, with the exception named.
   */
  private boolean driverFailed(Client c, Connection conn, OpStats s, RuntimeException e) {
    FailureKind kind = viaPooler ? FailureKind.POOLER : FailureKind.OTHER;
    s.error(
        kind,
        "-",
        "driver error: " + e.getClass().getName() + ": " + ConnectionFactory.oneLine(e),
        false);
    s.failed(kind);
    if (pool != null) {
      // the pool replaces it (see runOn)
      return false;
    }
    try {
      conn.abort(Runnable::run);
    } catch (SQLException | RuntimeException closing) {
      // already closed
    }
    // if it fails, the aborted connection stays: the next op fails on it and reconnects with
    // backoff
    c.reconnect();
    return false;
  }

  /** An op that completed inside the window: its statements, retries, lag and pool wait. */
  private void countInWindow(Client c, OpRun op, MeasurementWindow.Span span) {
    OpStats s = c.stats;
    if (c.txLog != null) {
      c.txLog.windowOpened(span.start);
      c.txLog.op(
          op.done,
          op.latencyNanos / 1000,
          c.session.lastScriptIndex(),
          op.success ? null : s.lastFailed,
          op.lagNanos >= 0 ? op.lagNanos / 1000 : -1,
          op.retried);
    }
    c.wStatements += op.statements(s);
    c.wRetries += op.retried;
    c.wRetriedOps += op.retriedOp;
    if (op.lagNanos >= 0) {
      c.lag.recordValue(Math.max(1, op.lagNanos / 1000));
    }
    if (op.waitNanos >= 0) {
      c.poolWait.recordValue(Math.max(1, op.waitNanos / 1000));
    }
  }

  /** A successful op; {@code span} is the window it counts in, null when it counts in none. */
  private void succeeded(Client c, OpRun op, Committed committed, MeasurementWindow.Span span) {
    if (c.down) {
      connectionBack(c);
    }
    c.ok++;
    committed.ok++;
    if (span != null) {
      c.wOk++;
      c.okIn(span.bin(op.done));
      c.recordLatency(Math.max(1, op.latencyNanos / 1000));
      if (op.latencyNanos > latencyLimitNanos) {
        c.wLate++;
      }
    }
  }

  /**
   * A failed op: counted by kind; a connection failure marks an outage; an error that won't heal
   * stops the client, else a connection that may be dead is checked and reopened.
   */
  private void failed(Client c, OpRun op, Trouble trouble, boolean counted) {
    c.failed++;
    trouble.failed++;
    FailureKind kind = c.stats.lastFailed;
    if (counted) {
      c.wFailed++;
      c.wFailures[kind.ordinal()]++;
    }
    if (op.connected && kind == FailureKind.CONNECTION) {
      outages.failure(c);
    }
    if (stops.stopsOp(kind, c.stats.lastSqlState)) {
      clientStopped(c, c.stats.lastMessage);
    } else if (pool == null && (!op.connected || c.mayBeDead(kind))) {
      c.recoverIfDisconnected();
    }
  }

  /**
   * A stopped client waits out the iteration in one invocation (so JMH's count of invocations
   * hardly grows), watching for the moment no client is left, when the run ends: the report is
   * written first, then every client throws, which ends a fork; an in-process run ends the same way
   * (TrialRunner reads the report when JMH returns no result).
   */
  private void idle(Client c) {
    while (true) {
      if (stops.noneLeft()) {
        allStopped();
        throw new OpFailedException(stops.allStopped(), null);
      }
      if (opsPerClient > 0) {
        // -t: a stopped client's remaining ops pass at once, so the window can close
        return;
      }
      long wait = c.iterationEnd - System.nanoTime();
      if (wait <= 0) {
        // JMH ends the iteration a moment after its time: don't spin meanwhile
        LockSupport.parkNanos(20_000_000L);
        return;
      }
      LockSupport.parkNanos(Math.min(wait, 50_000_000L));
    }
  }

  /**
   * A pooled connection; null (the op fails as a connection failure) if the pool cannot give one.
   */
  private Connection lease(Client c) {
    try {
      return pool.getConnection();
    } catch (SQLException e) {
      c.stats.error(FailureKind.CONNECTION, e.getSQLState(), "pool: " + e.getMessage(), false);
      c.stats.failed(FailureKind.CONNECTION);
      LockSupport.parkNanos(100_000_000L);
      return null;
    }
  }
}
