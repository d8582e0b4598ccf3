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
    double max) {

  /** The summary of a latency histogram in microseconds. */
  public static Latency of(org.HdrHistogram.Histogram h) {
    return new Latency(
        h.getTotalCount(),
        ms(h.getMean()),
        ms(h.getStdDeviation()),
        ms(h.getValueAtPercentile(50)),
        ms(h.getValueAtPercentile(90)),
        ms(h.getValueAtPercentile(99)),
        ms(h.getValueAtPercentile(99.9)),
        ms(h.getMaxValue()));
  }

  private static double ms(double micros) {
    return Math.round(micros) / 1000.0;
  }
}
