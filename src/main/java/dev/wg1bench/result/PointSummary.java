package dev.wg1bench.result;

import java.util.Map;

/**
 * One point of a run's matrix (a target and a value of each swept knob) over its repeated trials:
 * the median and the spread, as the seeds kept the median of three runs.
 *
 * @param point the knob values that define the point, e.g. {target=local, clients=8,
 *     queryMode=prepared}
 * @param trials how many trials were run at this point
 * @param medianTps median of the trials' tps
 * @param minTps lowest tps of the trials
 * @param maxTps highest tps of the trials
 * @param medianP99Ms median of the trials' p99 latency
 * @param failedOps failed ops of the measurement windows, summed over the trials: the figure a
 *     trial's {@code failedOps} is
 * @param retries retries of the measurement windows, summed over the trials
 * @param totalFailedOps failed ops over the whole trials, warmup included, summed: the figure a
 *     trial's {@code totalFailedOps} is
 */
public record PointSummary(
    Map<String, String> point,
    int trials,
    double medianTps,
    double minTps,
    double maxTps,
    double medianP50Ms,
    double medianP99Ms,
    long failedOps,
    long retries,
    long totalFailedOps) {}
