package dev.wg1bench.history.report;

import dev.wg1bench.history.analysis.ChangePointFinder;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Two series as a history gives them: throughput with each run's own interval that steps down by
 * 10% at its seventh run, and a p99 with no interval and no change; and a stand-in for the
 * change-point analysis that reports that step.
 */
final class HistoryReportFixtures {
  private HistoryReportFixtures() {}

  static final String TPS = "tpcb_like target=local clients=4/tps";
  static final String P99 = "tpcb_like target=local clients=4/p99";

  static List<Series> series() {
    List<SeriesPoint> tps = new ArrayList<>();
    List<SeriesPoint> p99 = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      Instant t = Instant.parse("2026-11-01T10:00:00Z").plusSeconds(86400L * i);
      double v = (i < 6 ? 500 : 450) + (i % 3) * 4;
      tps.add(new SeriesPoint(t, "r" + (i + 1), "c0ffee" + i, v, v - 12, v + 12));
      p99.add(
          new SeriesPoint(t, "r" + (i + 1), "c0ffee" + i, 20 + (i % 2), Double.NaN, Double.NaN));
    }
    return List.of(new Series(P99, "p99", false, p99), new Series(TPS, "tps", true, tps));
  }

  /** The step at the seventh run (index 6) of the throughput series, nothing elsewhere. */
  static final ChangePointFinder FINDER =
      s ->
          s.name().equals(TPS)
              ? List.of(new ChangePointFinder.Shift(6, 504, 454, -0.0992, -0.12, -0.08, 0.00012))
              : List.of();
}
