package dev.wg1bench.result;

import java.util.List;
import java.util.Map;

/**
 * The numbers of one trial, measured iterations only (warmup excluded).
 *
 * @param tps successful ops per second (JMH's score of the "ok" counter)
 * @param tpsError half-width of JMH's 99.9% confidence interval of tps (NaN with one iteration)
 * @param attemptedOpsPerSecond all ops per second, failed included (JMH's primary score)
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
 * @param iterationTps tps of each measurement iteration (all forks), for spread and plots
 * @param totalOps successful ops over the whole trial, warmup included (what the data shows)
 * @param totalFailedOps failed ops over the whole trial
 * @param stoppedBy why the run stopped early (--exit-on-error, or every client stopped on an error
 *     that won't heal), else null
 * @param clientsStopped clients stopped by an error that won't heal (in the fork where most did)
 * @param clientsStoppedBy the first of those errors, null when none stopped
 * @param initialConnectionMs mean time a client took to open its connection at the start, all
 *     connecting at once (pgbench's "initial connection time"); null with a pool
 */
public record Measurement(
    double tps,
    Double tpsError,
    double attemptedOpsPerSecond,
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
    List<Double> iterationTps,
    long totalOps,
    long totalFailedOps,
    String stoppedBy,
    int clientsStopped,
    String clientsStoppedBy,
    Double initialConnectionMs) {}
