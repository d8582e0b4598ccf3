package dev.wg1bench.result;

/**
 * One --progress interval, as printed on the console.
 *
 * @param t seconds since the fork's trial started, at the end of the interval
 * @param phase warmup or measurement
 * @param p50Ms latency median of the interval's successful ops, null when there were none
 */
public record ProgressPoint(
    double t,
    String phase,
    long ops,
    double opsPerSecond,
    Double p50Ms,
    Double p99Ms,
    long retries,
    long failures,
    long skipped) {}
