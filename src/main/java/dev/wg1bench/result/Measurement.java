package dev.wg1bench.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.wg1bench.json.Histograms;
import dev.wg1bench.server.window.ServerSide;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The numbers of one trial, over its measurement windows (warmup excluded): every op counted here
 * completed inside a window, and every rate is a count divided by the windows' total length.
 *
 * <p>The figures come in named parts (throughput, counts, latency, client CPU, series, the whole
 * trial), each written into the JSON in its place as if the record were flat: the format predates
 * the parts. A view, built once: {@link Tally} adds the counts up (workload.OpCounts, by its one
 * {@code add}) and builds it from them. Each figure:
 *
 * <p>{@code tps}: successful ops per second: successful ops / measured seconds
 *
 * <p>{@code tpsError}: half-width of the interval {@code tpsInterval} describes, null when the run
 * was too short for one
 *
 * <p>{@code tpsInterval}: what tpsError is (level, method, batches), or why there is none
 *
 * <p>{@code attemptedOpsPerSecond}: all ops per second, failed included: (ops + failedOps) /
 * seconds
 *
 * <p>{@code measuredSeconds}: total length of the measurement windows (one per iteration and fork)
 *
 * <p>{@code serverCommitsPerSecond}: the server's commit counter (pg_stat_database.xact_commit of
 * the database) read at each window's start and end, per second between the reads; null when it
 * could not be read or the time between the reads differs from a window's by more than 10%
 *
 * <p>{@code ops}: successful ops
 *
 * <p>{@code failedOps}: ops that failed after all tries
 *
 * <p>{@code retries}: re-executions after serialization failures or deadlocks
 *
 * <p>{@code retriedOps}: successful ops that needed at least one retry
 *
 * <p>{@code failures}: failed ops by kind
 *
 * <p>{@code statements}, {@code statementsPerSecond}: SQL statements sent (BEGIN/END included) and
 * their rate; null for a workload class, whose statements go through its own JDBC calls and are not
 * counted
 *
 * <p>{@code rowsPerSecond}: rows inserted per second (workloads that insert), else null
 *
 * <p>{@code skippedOps}: --rate with --latency-limit: ops skipped because they could not start in
 * time
 *
 * <p>{@code lateOps}: --latency-limit: successful ops that took longer than the limit
 *
 * <p>{@code poolWaitMs}: time ops waited for a pooled connection, null without a pool
 *
 * <p>{@code scheduleLagMs}: how late ops started against their schedule, null without --rate
 *
 * <p>{@code clientCpuMicrosPerOp}: CPU time of the client JVM per op (successful or not) over the
 * measurement, from the JVM's own accounting (all its threads: workload, driver, JMH, GC)
 *
 * <p>{@code clientCpuShare}: when the target runs on this host: the client JVMs' CPU time over the
 * windows as a share of all the machine's cores over the same time (0.5 = half the machine), else
 * null
 *
 * <p>{@code iterationTps}: tps of each measurement window (all forks), for spread and plots
 *
 * <p>{@code windows}: the measurement windows, in order (forks one after the other)
 *
 * <p>{@code opsPerSecond}: successful ops completed in each whole second of the windows, in order:
 * the samples the interval is computed from
 *
 * <p>{@code latencyHistogram}: the latency of successful ops in microseconds, an HdrHistogram
 * compressed and base64-encoded (see {@link #latencyHistogramDecoded()})
 *
 * <p>{@code totalOps}: successful ops over the whole trial, warmup included (what the data shows)
 *
 * <p>{@code totalFailedOps}: failed ops over the whole trial
 *
 * <p>{@code totalRolledBackOps}: of totalOps, the ops the workload rolled back by design ({@code
 * Op.rolledBackByDesign()}, TPC-C's New-Orders naming an unused item): successes that committed
 * nothing; absent when none did. totalOps less these is what committed ({@link #committedOps})
 *
 * <p>{@code stoppedBy}: why the run stopped early (--exit-on-error, or every client stopped on an
 * error that won't heal), else null
 *
 * <p>{@code clientsStopped}: clients stopped by an error that won't heal (in the fork where most
 * did)
 *
 * <p>{@code clientsStoppedBy}: the first of those errors, null when none stopped
 *
 * <p>{@code clientsRan}: clients that started (connected and set up; in the fork where fewest did,
 * summed over agents); null in results written before the figure
 *
 * <p>{@code notAsAsked}: how the trial did not run as asked, in one line: clients that could not
 * start ("20 of 25 clients ran; 5 clients could not start, the first: could not connect (53300):
 * ..."), or a pool that could not open --pool-size connections; null when it ran as asked. Such a
 * run exits 1 and is a broken arm to advise, diff and the Java API's compare
 *
 * <p>{@code initialConnectionMs}: mean time a client took to open its connection at the start, all
 * connecting at once (pgbench's "initial connection time"); null with a pool
 *
 * <p>{@code scripts}: per script of a mix of several scripts, or of any script workload under
 * --report-per-command (then with each command's figures); null otherwise
 *
 * <p>{@code perOp}: round trips, statements, rows, bytes and server time per op ({@link PerOp});
 * null in results written before the figures
 *
 * <p>{@code serverSide}: what the server did over the measured windows (server.window.ServerSide,
 * the forks' windows merged: pg_stat_statements' statements, the clients' wait profile, the
 * database's counters), each source null with its one line why where the server did not have it;
 * null where no window was read (results written before it, a replay, several agents at once)
 *
 * <p>{@code prediction}: the mean latency ({@code latencyMeanMs}) and throughput ({@code tps}, at
 * the same clients) predicted at round-trip times of 0.5, 1 and 2 ms ({@code rttMs}), from the mean
 * latency split into the server's time, the wire's (the round-trip time set times the round trips
 * per op) and the rest, only the wire's changing (stats.OpTime: not for lock-bound or saturated
 * ops); null where the server time or the round trips per op are unknown
 */
public record Measurement(
    @JsonUnwrapped Throughput throughput,
    @JsonUnwrapped Counts counts,
    @JsonUnwrapped Latencies latency,
    @JsonUnwrapped ClientCpu cpu,
    @JsonUnwrapped Series series,
    @JsonUnwrapped WholeTrial trial,
    List<ScriptStats> scripts,
    PerOp perOp,
    ServerSide serverSide,
    List<Prediction> prediction) {

  /** How fast: every rate over the measured seconds. */
  public record Throughput(
      double tps,
      Double tpsError,
      String tpsInterval,
      double attemptedOpsPerSecond,
      double measuredSeconds,
      Double serverCommitsPerSecond) {}

  /** What the measured ops did. */
  public record Counts(
      long ops,
      long failedOps,
      long retries,
      long retriedOps,
      Map<String, Long> failures,
      Long statements,
      Double statementsPerSecond,
      Double rowsPerSecond) {}

  /** How long ops took, waited and started late. */
  public record Latencies(
      String latencyFrom,
      Latency latencyMs,
      long skippedOps,
      long lateOps,
      Latency poolWaitMs,
      Latency scheduleLagMs) {}

  /** The client's own cost. */
  public record ClientCpu(Double clientCpuMicrosPerOp, Double clientCpuShare) {}

  /** The figures over time, for spread, intervals and plots. */
  public record Series(
      List<Double> iterationTps,
      List<Window> windows,
      List<Long> opsPerSecond,
      String latencyHistogram) {}

  /** The whole trial, warmup included, and how it ended. */
  public record WholeTrial(
      long totalOps,
      long totalFailedOps,
      String stoppedBy,
      int clientsStopped,
      String clientsStoppedBy,
      Integer clientsRan,
      String notAsAsked,
      Double initialConnectionMs,
      @JsonInclude(JsonInclude.Include.NON_DEFAULT) long totalRolledBackOps) {}

  // the figures by their names in the JSON, so readers need not know which part holds one

  public double tps() {
    return throughput.tps();
  }

  public Double tpsError() {
    return throughput.tpsError();
  }

  public String tpsInterval() {
    return throughput.tpsInterval();
  }

  public double attemptedOpsPerSecond() {
    return throughput.attemptedOpsPerSecond();
  }

  public double measuredSeconds() {
    return throughput.measuredSeconds();
  }

  public Double serverCommitsPerSecond() {
    return throughput.serverCommitsPerSecond();
  }

  public long ops() {
    return counts.ops();
  }

  public long failedOps() {
    return counts.failedOps();
  }

  public long retries() {
    return counts.retries();
  }

  public long retriedOps() {
    return counts.retriedOps();
  }

  public Map<String, Long> failures() {
    return counts.failures();
  }

  /** Null when the workload's statements are not counted (a workload class). */
  public Long statements() {
    return counts.statements();
  }

  /** Null when the workload's statements are not counted (a workload class). */
  public Double statementsPerSecond() {
    return counts.statementsPerSecond();
  }

  public Double rowsPerSecond() {
    return counts.rowsPerSecond();
  }

  public String latencyFrom() {
    return latency.latencyFrom();
  }

  public Latency latencyMs() {
    return latency.latencyMs();
  }

  public long skippedOps() {
    return latency.skippedOps();
  }

  public long lateOps() {
    return latency.lateOps();
  }

  public Latency poolWaitMs() {
    return latency.poolWaitMs();
  }

  public Latency scheduleLagMs() {
    return latency.scheduleLagMs();
  }

  public Double clientCpuMicrosPerOp() {
    return cpu.clientCpuMicrosPerOp();
  }

  public Double clientCpuShare() {
    return cpu.clientCpuShare();
  }

  public List<Double> iterationTps() {
    return series.iterationTps();
  }

  public List<Window> windows() {
    return series.windows();
  }

  public List<Long> opsPerSecond() {
    return series.opsPerSecond();
  }

  public String latencyHistogram() {
    return series.latencyHistogram();
  }

  public long totalOps() {
    return trial.totalOps();
  }

  public long totalFailedOps() {
    return trial.totalFailedOps();
  }

  public long totalRolledBackOps() {
    return trial.totalRolledBackOps();
  }

  /**
   * The ops that committed over the whole trial, warmup included (what the data shows): the
   * successful ones less those rolled back by design. The one figure every output calls committed.
   */
  public long committedOps() {
    return trial.totalOps() - trial.totalRolledBackOps();
  }

  public String stoppedBy() {
    return trial.stoppedBy();
  }

  public int clientsStopped() {
    return trial.clientsStopped();
  }

  public String clientsStoppedBy() {
    return trial.clientsStoppedBy();
  }

  public Integer clientsRan() {
    return trial.clientsRan();
  }

  public String notAsAsked() {
    return trial.notAsAsked();
  }

  public Double initialConnectionMs() {
    return trial.initialConnectionMs();
  }

  /** The latency histogram (microseconds), null when the result carries none. */
  public Histogram latencyHistogramDecoded() {
    return series.latencyHistogram() == null ? null : Histograms.decode(series.latencyHistogram());
  }
}
