package dev.wg1bench.history.store;

/**
 * One figure of a stored run: which configuration it measured, which metric, its value and the
 * run's own interval where it has one.
 *
 * @param config the measured configuration (workload or class or log, target, knob values), the
 *     CONFIG part of a series name
 * @param metric the metric (tps, p50, p99, p99.9, failedOps, retries, clientCpuPerOp, ...)
 * @param higherIsBetter whether a larger value is an improvement
 * @param value the value
 * @param low the lower end of the run's own 95% interval, or NaN
 * @param high the upper end of the run's own 95% interval, or NaN
 */
public record StoredMetric(
    String config, String metric, boolean higherIsBetter, double value, double low, double high) {

  /** The series this figure belongs to: {@code CONFIG/METRIC}. */
  public String seriesName() {
    return config + "/" + metric;
  }
}
