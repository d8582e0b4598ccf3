package dev.wg1bench.report;

import static dev.wg1bench.report.Column.Format.COUNT;
import static dev.wg1bench.report.Column.Format.MS;
import static dev.wg1bench.report.Column.Format.TPS;

import java.util.List;
import java.util.Locale;

/**
 * The columns of a point of the summary (the median and spread of its trials), in the CSV's order:
 * the summary CSV writes them all after the point's knobs, the page's summary table shows them all,
 * the console's summary ({@link ConsoleReport#summary}) those with a console heading. A new
 * per-point column is one line here.
 */
final class PointColumns {
  private PointColumns() {}

  static final List<Column<PointRow>> ALL =
      List.of(
          Column.<PointRow>of("trials", "trials", COUNT, r -> r.summary().trials()).console("n", 3),
          Column.<PointRow>of("medianTps", "median tps", TPS, r -> r.summary().medianTps())
              .console("median tps", 11),
          // the console shows the spread in one column
          Column.<PointRow>of("minTps", "min tps", TPS, r -> r.summary().minTps())
              .console(
                  "min .. max",
                  23,
                  r ->
                      String.format(
                          Locale.ROOT, "%.1f .. %.1f", r.summary().minTps(), r.summary().maxTps())),
          Column.<PointRow>of("maxTps", "max tps", TPS, r -> r.summary().maxTps()),
          Column.<PointRow>of("medianP50Ms", "median p50 (ms)", MS, r -> r.summary().medianP50Ms())
              .console("p50 ms", 9),
          Column.<PointRow>of("medianP99Ms", "median p99 (ms)", MS, r -> r.summary().medianP99Ms())
              .console("p99 ms", 9),
          // over the measurement windows, as each trial's line; the whole trials' below
          Column.<PointRow>of("failedOps", "failed ops", COUNT, r -> r.summary().failedOps())
              .console("failed", 7),
          Column.<PointRow>of("retries", "retries", COUNT, r -> r.summary().retries())
              .console("retries", 7),
          Column.<PointRow>of("clientsStopped", "clients stopped", COUNT, PointRow::clientsStopped),
          Column.<PointRow>of(
                  "totalFailedOps", "total failed ops", COUNT, r -> r.summary().totalFailedOps())
              .console("total failed", 12));
}
