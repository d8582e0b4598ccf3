package dev.wg1bench.result;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Folds repeated trials into one summary per matrix point. */
public final class Summaries {
  private Summaries() {}

  public static List<PointSummary> of(List<TrialResult> trials) {
    Map<Map<String, String>, List<TrialResult>> byPoint = new LinkedHashMap<>();
    for (TrialResult t : trials) {
      byPoint.computeIfAbsent(t.point(), k -> new ArrayList<>()).add(t);
    }
    List<PointSummary> out = new ArrayList<>();
    byPoint.forEach(
        (point, ts) -> {
          double[] tps = ts.stream().mapToDouble(t -> t.measurement().tps()).toArray();
          double[] p50 = ts.stream().mapToDouble(t -> t.measurement().latencyMs().p50()).toArray();
          double[] p99 = ts.stream().mapToDouble(t -> t.measurement().latencyMs().p99()).toArray();
          out.add(
              new PointSummary(
                  point,
                  ts.size(),
                  median(tps),
                  Arrays.stream(tps).min().orElse(0),
                  Arrays.stream(tps).max().orElse(0),
                  median(p50),
                  median(p99),
                  ts.stream().mapToLong(t -> t.measurement().failedOps()).sum(),
                  ts.stream().mapToLong(t -> t.measurement().retries()).sum(),
                  ts.stream().mapToLong(t -> t.measurement().totalFailedOps()).sum()));
        });
    return out;
  }

  public static double median(double[] v) {
    if (v.length == 0) {
      return Double.NaN;
    }
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }
}
