package dev.wg1bench.jmh;

import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.workload.ClientContext;
import dev.wg1bench.workload.ClientSession;
import dev.wg1bench.workload.ErrorSamples;
import dev.wg1bench.workload.FailureKind;
import dev.wg1bench.workload.OpCounts;
import dev.wg1bench.workload.ScriptOutline;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.infra.ThreadParams;
import org.openjdk.jmh.runner.IterationType;

/** One client: its session, its connection (unless pooled) and per-iteration measurements. */
@State(Scope.Thread)
public class Client {
  Connection conn;
  ClientSession session;

  /**
   * Per script, its part of the op's value ({@link OpRun#counts}) when the mix has several scripts,
   * -r is on or a workload class names steps, else null (nothing per op); in {@link ScriptOutline}
   * order. The commands' or steps' parts under it are its session's to record.
   */
  OpCounts[] scriptParts;

  /** The errors this client's ops saw, sampled: not counts (those are the op's value). */
  final ErrorSamples errors = new ErrorSamples();

  /** Its connection's socket read around each op. */
  final OpWire wire = new OpWire();

  /** The op running: its times and the counts it started from (reused, nothing per op). */
  final OpRun op = new OpRun();

  /**
   * Latencies (µs) of counted ops waiting to go into {@link #latency}, which {@link #flushLatency}
   * brings up to date before anyone reads it. Recorded per op, 64 clients' histograms of 3
   * significant digits missed the cache on most ops (HdrHistogram was 3.8% of the client's CPU
   * samples at 64 select_only clients); a batch of them lands on the few lines it hits while they
   * are warm, and a per-op store to this array is sequential.
   */
  private final long[] pendingLatency = new long[256];

  private int pendingLatencies;

  final Histogram latency = new Histogram(3);
  final Histogram poolWait = new Histogram(3);
  final Histogram lag = new Histogram(3);

  /** This iteration's ops, inside the measurement window or not: what the database saw. */
  final OpCounts all = new OpCounts();

  /**
   * What completed inside the measurement window (see MeasurementWindow), with {@link #latency} as
   * its histogram: the window's counts are the one value the fork adds up.
   */
  final OpCounts window = new OpCounts();

  {
    window.histogram = latency;
  }

  long[] okPerSecond = new long[0];

  /** pgbench -l: this client's log, or null. */
  TxLog txLog;

  /** -t: ops this client began in its single shot. */
  long invocations;

  int threadIndex;
  boolean measuring;

  /** Why this client stopped (an error that won't heal), null while it runs. */
  volatile String stoppedBy;

  /** Lost its connection and has not yet had it back (guarded by the fork's {@link Outages}). */
  boolean down;

  long iterationStart;

  /** When this iteration's time is up (System.nanoTime); read by the watchdog. */
  volatile long iterationEnd;

  /**
   * When this client's next op may start (System.nanoTime): the think time its last op asked for
   * ({@code Op.thinkTime}) after that op ended; 0 when none.
   */
  long notBefore;

  /** Between the iteration's setup and teardown; read by the watchdog. */
  volatile boolean inIteration;

  /**
   * The connection an op is using right now, for the watchdog to abort; null between ops. Ops set
   * it through {@link #using}, without the full fence of a volatile write.
   */
  volatile Connection inUse;

  private static final VarHandle IN_USE;

  static {
    try {
      IN_USE = MethodHandles.lookup().findVarHandle(Client.class, "inUse", Connection.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Why the watchdog aborted this client's connection, recorded with the failed op. */
  volatile String stallNote;

  /** Under --rate, the client's schedule. */
  Arrivals arrivals;

  private long backoffNanos;
  private WorkloadBenchmark bench;
  private ClientContext context;

  /** This fork's clients (with --agent, fewer than the run's :nclients). */
  private int threads;

  /** With --agent: this client has passed the gate. */
  private boolean gated;

  /**
   * Trial level: connecting and preparing are setup cost, never measured. A set-up that fails stops
   * this client with the reason and never throws: JMH ends an in-process run whose every thread
   * failed in set-up with an IndexOutOfBoundsException of its own instead of a result.
   */
  @Setup(Level.Trial)
  public void connect(WorkloadBenchmark b, ThreadParams tp) {
    bench = b;
    b.clients.add(this);
    b.clientThread(Thread.currentThread());
    threadIndex = tp.getThreadIndex();
    threads = tp.getThreadCount();
    if (b.trialSetupFailure != null) {
      b.clientNotStarted(this, b.trialSetupFailure);
      return;
    }
    try {
      setUp(b, tp);
    } catch (SQLException | RuntimeException e) {
      b.setupFailed(this, e);
    }
  }

  private void setUp(WorkloadBenchmark b, ThreadParams tp) throws SQLException {
    RunPlan p = b.trial.plan();
    context =
        new ClientContext(
            // with --agent, ids continue those of the agents before this one
            b.trial.slot() != null ? b.trial.slot().firstClient() + threadIndex : threadIndex,
            b.trial.slot() != null ? b.trial.slot().clients() : tp.getThreadCount(),
            b.trial.scale(),
            p.params().randomSeed(),
            p.session().maxTries(),
            p.session().exitOnError(),
            p.params().defines(),
            p.params().batchSize(),
            p.timing().perCommand());
    session = b.workload.open(context);
    int n = session.outline().size();
    if (n > 1 || (n == 1 && session.opParts() != ClientSession.OpParts.NONE)) {
      String[] keys = ScriptOutline.keys(session.outline());
      scriptParts = new OpCounts[n];
      for (int s = 0; s < n; s++) {
        scriptParts[s] = op.counts.part(keys[s]);
        // the window lists every script, in order, even one no op of it completed in
        window.part(keys[s]);
      }
    }
    if (p.timing().log() != null) {
      txLog =
          new TxLog(
              p.timing().log(),
              context.clientId(),
              p.timing().rate() != null,
              p.timing().latencyLimit() != null,
              p.session().maxTries(),
              context.clientSeed() * 17 + 3);
    }
    arrivals = new Arrivals(context.clientSeed() * 31 + 7);
    if (b.pool == null) {
      connectOwn(b);
    } else if (b.claimClientInfo()) {
      probeClientInfo(b);
    }
  }

  /**
   * An unpooled client's own connection, timed as set-up cost; the first client to connect also
   * reads the session's facts (TLS, settings) for the result.
   */
  private void connectOwn(WorkloadBenchmark b) {
    try {
      long t0 = System.nanoTime();
      boolean reads = b.claimClientInfo();
      ConnectionFactory.Opened opened = null;
      try {
        opened = b.connections.openBenchmarkClient(reads);
      } finally {
        if (reads) {
          // null when the session could not be opened: the next client to connect reads it
          b.clientInfo(opened);
        }
      }
      conn = opened.connection();
      b.connected(System.nanoTime() - t0);
      // after the connect's timing: the tool's read, not the connection's cost
      ForkServerSide.readServerSession(b.connections, conn);
    } catch (SQLException e) {
      b.clientInfoRefused(e);
      FailureKind kind = b.connectFailureKind(e);
      if (b.stops.stopsConnect(e, kind)) {
        // as pgbench: a client that cannot connect at the start does not run; a pooler's
        // refusal is counted as the pooler's (kind pooler), not as the server's
        b.connectRefused(this, e, kind);
        return;
      }
      // the server went away after the parent checked it, or a pooler lost a statement of the
      // session's set-up: the error is kept (phase setup, by kind), the client's ops count as
      // connection failures and it keeps reconnecting, rather than abort the run
      b.setupError(kind, e);
      conn = null;
    }
  }

  /**
   * Pooled connections ran the settings in HikariCP's init SQL: the tool's own reads go to a
   * session set up the same way, opened for them alone.
   */
  private static void probeClientInfo(WorkloadBenchmark b) {
    try {
      ConnectionFactory.Opened probe = b.connections.openBenchmarkClient(true);
      probe.connection().close();
      b.clientInfo(probe);
    } catch (SQLException e) {
      // the pool's clients report their own failures; the session's TLS stays unknown (the result
      // says why), and no other client opens a session of its own to try again (a pooler may
      // have no room)
      b.clientInfoRefused(e);
    }
  }

  /**
   * Iteration level: counts are per iteration so warmup never leaks into the measurement; the last
   * client ready opens the iteration's measurement window.
   */
  @Setup(Level.Iteration)
  public void startIteration(IterationParams ip) {
    try {
      beginIteration(ip);
    } catch (RuntimeException | Error e) {
      bench.failedInside(this, e);
      throw e;
    }
  }

  private void beginIteration(IterationParams ip) {
    measuring = ip.getType() == IterationType.MEASUREMENT;
    if (threadIndex == 0 && bench.progress != null) {
      bench.progress.phase = measuring ? "measurement" : "warmup";
    }
    errors.reset();
    op.counts.clear();
    pendingLatencies = 0;
    poolWait.reset();
    lag.reset();
    all.clear();
    // the per-script parts and the histogram (latency) with it
    window.clear();
    invocations = 0;
    boolean perClient = bench.opsPerClient > 0;
    long nanos =
        perClient ? MeasurementWindow.UNTIL_DONE : ip.getTime().convertTo(TimeUnit.NANOSECONDS);
    okPerSecond = new long[perClient ? 16 : MeasurementWindow.bins(nanos)];
    iterationStart = System.nanoTime();
    iterationEnd = iterationStart + nanos;
    if (bench.gate != null && !gated) {
      gated = true;
      bench.window.openAt(
          bench.gate.enter(threads, measuring, bench.trial.plan().timing().warmup().toMillis()));
      iterationStart = System.nanoTime();
      iterationEnd = iterationStart + nanos;
    }
    inIteration = true;
    bench.window.clientReady(threads, measuring, nanos);
  }

  @TearDown(Level.Iteration)
  public void endIteration() {
    inIteration = false;
    bench.absorb(this, measuring);
  }

  /**
   * Marks the connection an op is using (null once it is done). A release store: the watchdog,
   * which looks every 200 ms, needs to see it eventually, not before this thread's next
   * instruction, and the two volatile writes per op each cost a full fence.
   */
  void using(Connection c) {
    IN_USE.setRelease(this, c);
  }

  /** A counted op's latency, in µs, for {@link #latency} (see {@link #pendingLatency}). */
  void recordLatency(long micros) {
    pendingLatency[pendingLatencies++] = micros;
    if (pendingLatencies == pendingLatency.length) {
      flushLatency();
    }
  }

  /** Brings {@link #latency} up to date; before it is read (the iteration's end, a stop). */
  void flushLatency() {
    for (int i = 0; i < pendingLatencies; i++) {
      latency.recordValue(pendingLatency[i]);
    }
    pendingLatencies = 0;
  }

  /** One more successful op completed in the window's per-second bin {@code bin}. */
  void okIn(int bin) {
    if (bin >= okPerSecond.length) {
      // only a -t window has no length known in advance
      okPerSecond = Arrays.copyOf(okPerSecond, Math.max(bin + 1, 2 * okPerSecond.length));
    }
    okPerSecond[bin]++;
  }

  /** The run's id of this client (pgbench's client_id). */
  int clientId() {
    // a client whose set-up failed before its context was made has only its thread's index
    return context != null ? context.clientId() : threadIndex;
  }

  /** This fork's clients. */
  int threads() {
    return threads;
  }

  /** Trial level: the last client out writes the fork's report (see clientDone). */
  @TearDown(Level.Trial)
  public void disconnect() {
    if (txLog != null) {
      txLog.close();
    }
    if (session != null) {
      session.close();
    }
    try {
      if (conn != null) {
        conn.close();
      }
    } catch (SQLException e) {
      // closing a broken connection: nothing left to do
    }
    // after closing: with -t the report reads the server's count once every client's backend is
    // gone (MeasurementWindow.finish)
    bench.clientDone(threads);
  }

  /**
   * After a failed op on a dead connection, reconnects with exponential backoff (up to 1 s) so a
   * restarting server is waited for instead of hammered, and the run goes on. A failed reconnect
   * keeps the dead connection: the next op fails at once (counted as a connection failure) and
   * comes back here with a longer backoff, so no op ever waits on a server that is down.
   */
  void recoverIfDisconnected() {
    try {
      // isValid's own timeout bounds the check on a server that stopped answering
      if (conn != null && !conn.isClosed() && conn.isValid(2)) {
        backoffNanos = 0;
        return;
      }
    } catch (SQLException e) {
      // treat as dead
    }
    bench.connectionLost(this);
    backoffNanos = Math.min(Math.max(backoffNanos * 2, 50_000_000L), 1_000_000_000L);
    long now = System.nanoTime();
    if (now - iterationEnd >= 0) {
      // the iteration's time is up and JMH waits for the other clients: idle, don't spin
      LockSupport.parkNanos(20_000_000L);
      return;
    }
    // never past the iteration's end, so a backoff cannot make the run overrun its duration
    LockSupport.parkNanos(Math.min(backoffNanos, iterationEnd - now));
    if (reconnect()) {
      bench.connectionBack(this);
    }
  }

  /**
   * Replaces this client's connection with a new one; false, with the error counted, when the new
   * one cannot be opened (the old one stays, and the next op fails on it).
   */
  boolean reconnect() {
    try {
      Connection fresh = bench.connections.openBenchmarkClient();
      try {
        if (conn != null) {
          conn.close();
        }
      } catch (SQLException e) {
        // already dead
      }
      conn = fresh;
      ForkServerSide.readServerSession(bench.connections, conn);
      return true;
    } catch (SQLException e) {
      errors.error(FailureKind.CONNECTION, e.getSQLState(), "reconnect: " + e.getMessage(), false);
      return false;
    }
  }

  /**
   * Whether a failed op may have left its connection dead, so that it is worth a health check (a
   * round trip the server counts as a commit). Serialization failures, deadlocks, constraint
   * violations and script errors leave a working connection, as pgbench assumes too.
   */
  boolean mayBeDead(FailureKind kind) {
    if (kind == FailureKind.CONNECTION) {
      return true;
    }
    try {
      return conn == null || conn.isClosed();
    } catch (SQLException e) {
      return true;
    }
  }
}
