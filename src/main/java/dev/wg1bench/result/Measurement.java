package dev.wg1bench.result;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The numbers of one trial, over its measurement windows (warmup excluded): every op counted here
 * completed inside a window, and every rate is a count divided by the windows' total length.
 *
 * @param tps successful ops per second: successful ops / measured seconds
 * @param tpsError half-width of the interval {@code tpsInterval} describes, null when the run was
 *     too short for one
 * @param tpsInterval what tpsError is (level, method, batches), or why there is none
 * @param attemptedOpsPerSecond all ops per second, failed included: (ops + failedOps) / seconds
 * @param measuredSeconds total length of the measurement windows (one per iteration and fork)
 * @param serverCommitsPerSecond the server's commit counter (pg_stat_database.xact_commit of the
 *     database) read at each window's start and end, per second between the reads; null when it
 *     could not be read or the time between the reads differs from a window's by more than 10%
 * @param ops successful ops
 * @param failedOps ops that failed after all tries
 * @param retries re-executions after serialization failures or deadlocks
 * @param retriedOps successful ops that needed at least one retry
 * @param failures failed ops by kind
 * @param statementsPerSecond SQL statements sent per second (BEGIN/END included)
 * @param rowsPerSecond rows inserted per second (workloads that insert), else null
 * @param skippedOps --rate with --latency-limit: ops skipped because they could not start in time
 * @param lateOps --latency-limit: successful ops that took longer than the limit
 * @param poolWaitMs time ops waited for a pooled connection, null without a pool
 * @param scheduleLagMs how late ops started against their schedule, null without --rate
 * @param clientCpuMicrosPerOp CPU time of the client JVM per op (successful or not) over the
 *     measurement, from the JVM's own accounting (all its threads: workload, driver, JMH, GC)
 * @param clientCpuShare when the target runs on this host: the client JVMs' CPU time over the
 *     windows as a share of all the machine's cores over the same time (0.5 = half the machine),
 *     else null
 * @param iterationTps tps of each measurement window (all forks), for spread and plots
 * @param windows the measurement windows, in order (forks one after the other)
 * @param opsPerSecond successful ops completed in each whole second of the windows, in order: the
 *     samples the interval is computed from
 * @param latencyHistogram the latency of successful ops in microseconds, an HdrHistogram compressed
 *     and base64-encoded (see {@link #latencyHistogramDecoded()})
 * @param totalOps successful ops over the whole trial, warmup included (what the data shows)
 * @param totalFailedOps failed ops over the whole trial
 * @param stoppedBy why the run stopped early (--exit-on-error, or every client stopped on an error
 *     that won't heal), else null
 * @param clientsStopped clients stopped by an error that won't heal (in the fork where most did)
 * @param clientsStoppedBy the first of those errors, null when none stopped
 * @param initialConnectionMs mean time a client took to open its connection at the start, all
 *     connecting at once (pgbench's "initial connection time"); null with a pool
 * @param scripts per script of a mix of several scripts, or of any script workload under
 *     --report-per-command (then with each command's figures); null otherwise
 */
public record Measurement(
    double tps,
    Double tpsError,
    String tpsInterval,
    double attemptedOpsPerSecond,
    double measuredSeconds,
    Double serverCommitsPerSecond,
    long ops,
    long failedOps,
    long retries,
    long retriedOps,
    Map<String, Long> failures,
    long statements,
    double statementsPerSecond,
    Double rowsPerSecond,
    String latencyFrom,
    Latency latencyMs,
    long skippedOps,
    long lateOps,
    Latency poolWaitMs,
    Latency scheduleLagMs,
    Double clientCpuMicrosPerOp,
    Double clientCpuShare,
    List<Double> iterationTps,
    List<Window> windows,
    List<Long> opsPerSecond,
    String latencyHistogram,
    long totalOps,
    long totalFailedOps,
    String stoppedBy,
    int clientsStopped,
    String clientsStoppedBy,
    Double initialConnectionMs,
    List<ScriptStats> scripts) {

  /** The latency histogram (microseconds), null when the result carries none. */
  public Histogram latencyHistogramDecoded() {
    return latencyHistogram == null ? null : Histograms.decode(latencyHistogram);
  }
}
