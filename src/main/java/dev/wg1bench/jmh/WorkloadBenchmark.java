package dev.wg1bench.jmh;

import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.target.ClientSettings;
import dev.wg1bench.target.ConnectionFactory;
import dev.wg1bench.target.ServerInfo;
import dev.wg1bench.workload.ClientContext;
import dev.wg1bench.workload.ClientSession;
import dev.wg1bench.workload.FailureKind;
import dev.wg1bench.workload.OpFailedException;
import dev.wg1bench.workload.OpStats;
import dev.wg1bench.workload.Workload;
import dev.wg1bench.workload.WorkloadRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.infra.ThreadParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The one benchmark: JMH threads are the clients, one invocation is one op of the workload. Which
 * workload, target and knobs come from the {@link Trial} file, never from {@code @Param}s (they
 * would show up in JMH's tables and command lines, passwords included).
 *
 * <p>The benchmark-scoped state holds what all clients share and collects their measurements at
 * iteration boundaries; nothing is shared on the per-op path.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class WorkloadBenchmark {
  private Trial trial;
  private Workload workload;
  private ConnectionFactory connections;
  private final Histogram measured = new Histogram(3);
  private final ForkReport report = new ForkReport();
  private final java.util.Map<String, ForkReport.ErrorEntry> errors =
      new java.util.LinkedHashMap<>();

  /** Trial level: loading the plan and resolving the workload happen once per fork. */
  @Setup(Level.Trial)
  public void loadTrial() {
    trial = Trial.load();
    RunPlan p = trial.plan();
    workload = WorkloadRegistry.resolve(p.workload(), p.scripts());
    connections =
        new ConnectionFactory(
            trial.target(),
            new ClientSettings(p.queryMode(), trial.isolation(), p.sessionSettings(), p.sslmode()));
  }

  private int clientsDone;
  private boolean written;

  /**
   * JMH may tear down this benchmark-scoped state while other threads still run their last
   * iteration teardown, so the report is written by the last client to finish instead.
   */
  synchronized void clientDone(int threads) {
    clientsDone++;
    if (clientsDone == threads) {
      writeReport();
    }
  }

  private void writeReport() {
    if (written) {
      return;
    }
    written = true;
    ByteBuffer buf = ByteBuffer.allocate(measured.getNeededByteBufferCapacity());
    int n = measured.encodeIntoCompressedByteBuffer(buf);
    report.histogram = Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), n));
    report.errors = new java.util.ArrayList<>(errors.values());
    Path f =
        trial
            .dir()
            .resolve("fork-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".json");
    try {
      Path tmp = Files.createTempFile(trial.dir(), "fork", ".tmp");
      Trial.JSON.writeValue(tmp.toFile(), report);
      Files.move(tmp, f, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  synchronized void absorb(Client c, boolean measurement, long nanos) {
    OpStats s = c.stats;
    if (measurement) {
      measured.add(c.latency);
      report.measuredOk += c.ok;
      report.measuredFailed += c.failed;
      report.measuredRetries += s.retries;
      report.measuredRetriedOps += s.retriedOps;
      report.measuredStatements += s.statements;
      if (c.threadIndex == 0) {
        report.measuredNanos += nanos;
      }
      for (FailureKind k : FailureKind.values()) {
        if (s.failures(k) > 0) {
          report.failuresByKind.merge(k.label(), s.failures(k), Long::sum);
        }
      }
    }
    report.totalOk += c.ok;
    report.totalFailed += c.failed;
    String phase = measurement ? "measurement" : "warmup";
    for (OpStats.ErrorSample e : s.samples().values()) {
      ForkReport.ErrorEntry x = errors.get(phase + e.kind + e.sqlState);
      if (x == null) {
        x = new ForkReport.ErrorEntry();
        x.kind = e.kind;
        x.sqlState = e.sqlState;
        x.firstMessage = e.firstMessage;
        x.firstAtEpochMs = e.firstAtEpochMs;
        x.phase = phase;
        errors.put(phase + e.kind + e.sqlState, x);
      }
      x.count += e.count;
      x.retried += e.retried;
    }
  }

  synchronized void clientInfo(Connection c) throws SQLException {
    if (report.clientSsl == null) {
      report.clientSsl = ServerInfo.sslInUse(c);
      report.clientSettings.putAll(ServerInfo.current(c, trial.plan().sessionSettings().keySet()));
    }
  }

  /** Set once a client gave up under --exit-on-error; the others stop at their next op. */
  private volatile boolean stopping;

  /**
   * --exit-on-error: JMH will not run the teardowns after the exception, so the failing client
   * folds in its partial iteration and writes the report now.
   */
  synchronized void stop(Client c, String why) {
    if (report.stoppedBy == null) {
      report.stoppedBy = why;
      stopping = true;
      absorb(c, c.measuring, System.nanoTime() - c.iterationStart);
      writeReport();
    }
  }

  /** One client: its connection, session and per-iteration measurements. */
  @State(Scope.Thread)
  public static class Client {
    Connection conn;
    ClientSession session;
    final OpStats stats = new OpStats();
    final Histogram latency = new Histogram(3);
    long ok;
    long failed;
    int threadIndex;
    boolean measuring;
    long iterationStart;
    private long backoffNanos;
    private WorkloadBenchmark bench;
    private ClientContext context;

    /** Trial level: connecting and preparing are setup cost, never measured. */
    @Setup(Level.Trial)
    public void connect(WorkloadBenchmark b, ThreadParams tp) throws SQLException {
      bench = b;
      threadIndex = tp.getThreadIndex();
      RunPlan p = b.trial.plan();
      context =
          new ClientContext(
              threadIndex,
              tp.getThreadCount(),
              b.trial.scale(),
              p.randomSeed(),
              p.maxTries(),
              p.exitOnError(),
              p.defines());
      conn = b.connections.openClient();
      session = b.workload.open(conn, context);
      b.clientInfo(conn);
    }

    /** Iteration level: counts are per iteration so warmup never leaks into the measurement. */
    @Setup(Level.Iteration)
    public void startIteration(IterationParams ip) {
      measuring = ip.getType() == IterationType.MEASUREMENT;
      stats.reset();
      latency.reset();
      ok = 0;
      failed = 0;
      iterationStart = System.nanoTime();
    }

    @TearDown(Level.Iteration)
    public void endIteration() {
      bench.absorb(this, measuring, System.nanoTime() - iterationStart);
    }

    /** Trial level: the last client out writes the fork's report (see clientDone). */
    @TearDown(Level.Trial)
    public void disconnect() {
      bench.clientDone(context.clients());
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
    }

    /**
     * After a failed op on a dead connection, reconnects with exponential backoff (up to 1 s) so a
     * restarting server is waited for instead of hammered, and the run goes on.
     */
    void recoverIfDisconnected() {
      try {
        if (conn != null && !conn.isClosed() && conn.isValid(2)) {
          backoffNanos = 0;
          return;
        }
      } catch (SQLException e) {
        // treat as dead
      }
      backoffNanos = Math.min(Math.max(backoffNanos * 2, 50_000_000L), 1_000_000_000L);
      LockSupport.parkNanos(backoffNanos);
      try {
        Connection fresh = bench.connections.openClient();
        ClientSession s = bench.workload.open(fresh, context);
        session.close();
        try {
          conn.close();
        } catch (SQLException e) {
          // already dead
        }
        conn = fresh;
        session = s;
      } catch (SQLException e) {
        stats.error(FailureKind.CONNECTION, e.getSQLState(), "reconnect: " + e.getMessage(), false);
      }
    }
  }

  /** Successful ops, normalized by JMH per second with its own error estimate: the TPS. */
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  @State(Scope.Thread)
  public static class Committed {
    public long ok;

    /** Iteration level: JMH reads aux counters per iteration, so they restart each time. */
    @Setup(Level.Iteration)
    public void clear() {
      ok = 0;
    }
  }

  /** Failed ops and retries, counted (not normalized) so JMH's table shows them too. */
  @AuxCounters(AuxCounters.Type.EVENTS)
  @State(Scope.Thread)
  public static class Trouble {
    public long failed;
    public long retries;

    @Setup(Level.Iteration)
    public void clear() {
      failed = 0;
      retries = 0;
    }
  }

  @Benchmark
  public void op(Client c, Committed committed, Trouble trouble) throws SQLException {
    if (stopping) {
      throw new OpFailedException("stopped: another client failed under --exit-on-error", null);
    }
    long retriesBefore = c.stats.retries;
    long t0 = System.nanoTime();
    boolean success;
    try {
      success = c.session.runOp(c.stats);
    } catch (OpFailedException e) {
      stop(c, "--exit-on-error: " + e.getMessage());
      throw e;
    }
    long micros = (System.nanoTime() - t0) / 1000;
    trouble.retries += c.stats.retries - retriesBefore;
    if (success) {
      c.ok++;
      committed.ok++;
      c.latency.recordValue(Math.max(1, micros));
    } else {
      c.failed++;
      trouble.failed++;
      c.recoverIfDisconnected();
    }
  }
}
