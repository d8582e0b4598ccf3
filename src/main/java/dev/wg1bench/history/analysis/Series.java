package dev.wg1bench.history.analysis;

import java.util.List;

/**
 * One metric of one measured configuration over the runs of a history, oldest first.
 *
 * <p>The name is {@code CONFIG/METRIC}: for a wg1bench result CONFIG says the workload (or class,
 * or log), the target and the knob values of the point; for an imported Otava file it is the name
 * given to {@code history import --series}. {@code --series} globs match it whole.
 *
 * @param name the series' name, {@code CONFIG/METRIC}
 * @param metric the metric part of the name (tps, p99, failedOps, ...)
 * @param higherIsBetter true for throughput-like metrics, false for latencies, failures and costs:
 *     it decides which direction of a change is a regression
 * @param points the values, oldest run first
 */
public record Series(String name, String metric, boolean higherIsBetter, List<SeriesPoint> points) {

  public Series {
    points = List.copyOf(points);
  }
}
