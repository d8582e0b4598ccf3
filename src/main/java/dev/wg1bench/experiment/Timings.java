package dev.wg1bench.experiment;

import java.util.ArrayList;
import java.util.List;

/**
 * Repeated measurements of one thing, in milliseconds: median (what the seeds reported), min and
 * max (the spread), and every run in the order it ran.
 */
public record Timings(double medianMs, double minMs, double maxMs, List<Double> runsMs) {

  public static Timings of(List<Double> runsMs) {
    if (runsMs.isEmpty()) {
      throw new IllegalArgumentException("no runs");
    }
    List<Double> sorted = new ArrayList<>(runsMs);
    sorted.sort(null);
    int n = sorted.size();
    double median =
        n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    return new Timings(
        round(median),
        round(sorted.get(0)),
        round(sorted.get(n - 1)),
        runsMs.stream().map(Timings::round).toList());
  }

  static double round(double ms) {
    return Math.round(ms * 1000) / 1000.0;
  }

  static double msSince(long nanoStart) {
    return (System.nanoTime() - nanoStart) / 1e6;
  }
}
