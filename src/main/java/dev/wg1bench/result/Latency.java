package dev.wg1bench.result;

/** Latency of successful ops in milliseconds, from an HdrHistogram (3 significant digits). */
public record Latency(
    long count,
    double mean,
    double stddev,
    double p50,
    double p90,
    double p99,
    double p999,
    double max) {}
