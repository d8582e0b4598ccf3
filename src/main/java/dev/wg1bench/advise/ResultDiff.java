package dev.wg1bench.advise;

import dev.wg1bench.plan.UsageException;
import dev.wg1bench.result.ArmFigures;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.PointsDiff;
import dev.wg1bench.result.Summaries;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.stats.Stats;
import dev.wg1bench.stats.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Two saved results compared point by point ({@code diff}, and the report's diff section): points
 * are matched by their knob values (the target's name too when a result has more than one target),
 * and each gets the new / base tps ratio with a 95% interval, the p50 and p99 ratios and a verdict
 * as {@code advise} gives them (Holm over the matched points). The interval is over each point's
 * repeats when both results have 2 or more; otherwise over the measurement iterations of the
 * trials, which shows only within-trial noise. The writers print the values; this computes them.
 */
public final class ResultDiff {
  private ResultDiff() {}

  /** As {@link #compare(BenchmarkRun, BenchmarkRun, double, double)}, no failed op allowed. */
  public static PointsDiff compare(BenchmarkRun base, BenchmarkRun neu, double margin) {
    return compare(base, neu, margin, 0);
  }

  /**
   * Each point in both results compared; a point where either side's ops failed above {@code
   * allowed} (a share of attempted ops) is broken, its verdict, and is not tested.
   */
  public static PointsDiff compare(
      BenchmarkRun base, BenchmarkRun neu, double margin, double allowed) {
    boolean withTarget = targets(base) > 1 || targets(neu) > 1;
    Map<String, List<TrialResult>> b = byPoint(base, withTarget);
    Map<String, List<TrialResult>> n = byPoint(neu, withTarget);
    List<String> keys = common(b, n);
    List<Stats.Unpaired> estimates = new ArrayList<>();
    List<Stats.Estimate> family = new ArrayList<>();
    List<Integer> tested = new ArrayList<>();
    List<String> broken = new ArrayList<>();
    for (String k : keys) {
      List<TrialResult> bt = b.get(k);
      List<TrialResult> nt = n.get(k);
      Stats.Unpaired u = Stats.unpaired(tps(bt), tps(nt), iterations(bt), iterations(nt));
      estimates.add(u);
      broken.add(failing(bt, nt, allowed));
      if (broken.get(broken.size() - 1) == null && u.over() != null && u.estimate().hasInterval()) {
        tested.add(estimates.size() - 1);
        family.add(u.estimate());
      }
    }
    double[] adj = Stats.holm(family, Verdict.ALPHA).adjusted();
    List<PointsDiff.Row> rows = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      List<TrialResult> bt = b.get(keys.get(i));
      List<TrialResult> nt = n.get(keys.get(i));
      ArmFigures basePerOp = ArmFigures.of(bt);
      ArmFigures newPerOp = ArmFigures.of(nt);
      Stats.Estimate e = estimates.get(i).estimate();
      int t = tested.indexOf(i);
      double[] ci = t >= 0 ? e.interval(0.95) : null;
      Double holm = t >= 0 ? adj[t] : null;
      String verdict =
          broken.get(i) != null
              ? broken.get(i)
              : t >= 0 ? words(Verdict.of(e, holm, "higher", margin)) : "no interval";
      rows.add(
          new PointsDiff.Row(
              bt.get(0).point() == null ? Map.of() : point(bt.get(0), withTarget),
              bt.size(),
              nt.size(),
              Summaries.median(tps(bt)),
              Summaries.median(tps(nt)),
              e.ratio(),
              ci == null ? null : ci[0],
              ci == null ? null : ci[1],
              estimates.get(i).over(),
              latency(nt, true) / latency(bt, true),
              latency(nt, false) / latency(bt, false),
              holm,
              verdict,
              basePerOp,
              newPerOp,
              ArmFigures.mechanism(basePerOp, newPerOp)));
    }
    List<String> onlyBase = b.keySet().stream().filter(k -> !n.containsKey(k)).toList();
    List<String> onlyNew = n.keySet().stream().filter(k -> !b.containsKey(k)).toList();
    return new PointsDiff(rows, onlyBase, onlyNew, null);
  }

  /**
   * "broken: ..." when a trial of this side did not run as asked (a client could not start, the
   * pool could not fill), or its ops failed above the allowed share of its attempted ops, over its
   * trials, warmup included; else null. Its tps counts only successes, so its ratio says nothing
   * about speed.
   */
  static String failing(List<TrialResult> base, List<TrialResult> neu, double allowed) {
    String why = failing("base", base, allowed);
    return why != null ? why : failing("new", neu, allowed);
  }

  private static String failing(String side, List<TrialResult> ts, double allowed) {
    for (TrialResult t : ts) {
      if (t.measurement().notAsAsked() != null) {
        // its figures are another workload's (fewer clients, a smaller pool) than the other side's
        return "broken: " + side + " did not run as asked: " + t.measurement().notAsAsked();
      }
    }
    long failed = 0;
    long attempted = 0;
    for (TrialResult t : ts) {
      failed += t.measurement().totalFailedOps();
      attempted += t.measurement().totalOps() + t.measurement().totalFailedOps();
    }
    if (failed == 0 || failed <= allowed * attempted) {
      return null;
    }
    return "broken: "
        + side
        + " failed "
        + failed
        + " of "
        + attempted
        + " attempted ops (allowed "
        + String.format(Locale.ROOT, "%.3g%%", 100 * allowed)
        + ")";
  }

  /** The points in both results, in the base's order; none is a usage error. */
  private static List<String> common(
      Map<String, List<TrialResult>> b, Map<String, List<TrialResult>> n) {
    List<String> keys = b.keySet().stream().filter(n::containsKey).toList();
    if (keys.isEmpty()) {
      throw new UsageException(
          "no point in common: base has "
              + String.join(" | ", b.keySet())
              + "; new has "
              + String.join(" | ", n.keySet()));
    }
    return keys;
  }

  /** advise's verdict read as base against new. */
  private static String words(Verdict v) {
    return switch (v.kind()) {
      case CONFIRMS -> "new faster";
      case CONTRADICTS -> "new slower";
      default -> v.text();
    };
  }

  private static long targets(BenchmarkRun r) {
    return r.trials().stream().map(TrialResult::target).distinct().count();
  }

  private static Map<String, String> point(TrialResult t, boolean withTarget) {
    Map<String, String> p = new TreeMap<>(t.point() == null ? Map.of() : t.point());
    if (!withTarget) {
      p.remove("target");
    }
    return p;
  }

  private static Map<String, List<TrialResult>> byPoint(BenchmarkRun r, boolean withTarget) {
    Map<String, List<TrialResult>> out = new LinkedHashMap<>();
    for (TrialResult t : r.trials()) {
      if (t.measurement() == null) {
        continue;
      }
      out.computeIfAbsent(PointsDiff.label(point(t, withTarget)), k -> new ArrayList<>()).add(t);
    }
    return out;
  }

  private static double[] tps(List<TrialResult> ts) {
    return ts.stream().mapToDouble(t -> t.measurement().tps()).toArray();
  }

  private static double[] iterations(List<TrialResult> ts) {
    List<Double> v = new ArrayList<>();
    for (TrialResult t : ts) {
      if (t.measurement().iterationTps() != null) {
        // a null window is a figure the file lacks (the reader keeps a JSON null as missing)
        t.measurement().iterationTps().stream().filter(Objects::nonNull).forEach(v::add);
      }
    }
    return v.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static double latency(List<TrialResult> ts, boolean p50) {
    double[] v =
        ts.stream()
            .filter(t -> t.measurement().latencyMs() != null)
            .mapToDouble(
                t -> p50 ? t.measurement().latencyMs().p50() : t.measurement().latencyMs().p99())
            .toArray();
    return v.length == 0 ? Double.NaN : Summaries.median(v);
  }

  /**
   * As {@link #compare(BenchmarkRun, BenchmarkRun, double)}, a pair that cannot be compared coming
   * back {@link PointsDiff#refused} rather than thrown: the report's section says why.
   */
  public static PointsDiff attempt(BenchmarkRun base, BenchmarkRun neu, double margin) {
    try {
      return compare(base, neu, margin);
    } catch (UsageException e) {
      return PointsDiff.refused(e.getMessage());
    }
  }
}
