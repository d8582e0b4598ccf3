package dev.wg1bench.report;

import dev.wg1bench.plan.UsageException;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Summaries;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.stats.Stats;
import dev.wg1bench.stats.Verdict;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Two saved results compared point by point: points are matched by their knob values (the target's
 * name too when a result has more than one target), and each gets the new / base tps ratio with a
 * 95% interval, the p50 and p99 ratios and a verdict as {@code advise} gives them (Holm over the
 * matched points). The interval is over each point's repeats when both results have 2 or more;
 * otherwise over the measurement iterations of the trials, which shows only within-trial noise.
 */
public final class Diff {
  /** Where a point's interval comes from. */
  public static final String OVER_REPEATS = Stats.OVER_REPEATS;

  public static final String OVER_ITERATIONS = Stats.OVER_ITERATIONS;

  /**
   * One matched point.
   *
   * @param over repeats, iterations, or null when neither side has 2 values (no interval)
   */
  public record Row(
      Map<String, String> point,
      int baseTrials,
      int newTrials,
      double baseTps,
      double newTps,
      double ratio,
      Double low,
      Double high,
      String over,
      double p50Ratio,
      double p99Ratio,
      Double holmP,
      String verdict) {}

  /** The comparison: matched rows, and the points only one side has. */
  public record Result(List<Row> rows, List<String> onlyBase, List<String> onlyNew) {}

  private Diff() {}

  /** As {@link #compare(BenchmarkRun, BenchmarkRun, double, double)}, no failed op allowed. */
  public static Result compare(BenchmarkRun base, BenchmarkRun neu, double margin) {
    return compare(base, neu, margin, 0);
  }

  /**
   * Each point in both results compared; a point where either side's ops failed above {@code
   * allowed} (a share of attempted ops) is broken, its verdict, and is not tested.
   */
  public static Result compare(BenchmarkRun base, BenchmarkRun neu, double margin, double allowed) {
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
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      List<TrialResult> bt = b.get(keys.get(i));
      List<TrialResult> nt = n.get(keys.get(i));
      Stats.Estimate e = estimates.get(i).estimate();
      int t = tested.indexOf(i);
      double[] ci = t >= 0 ? e.interval(0.95) : null;
      Double holm = t >= 0 ? adj[t] : null;
      String verdict =
          broken.get(i) != null
              ? broken.get(i)
              : t >= 0 ? words(Verdict.of(e, holm, "higher", margin)) : "no interval";
      rows.add(
          new Row(
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
              verdict));
    }
    List<String> onlyBase = b.keySet().stream().filter(k -> !n.containsKey(k)).toList();
    List<String> onlyNew = n.keySet().stream().filter(k -> !b.containsKey(k)).toList();
    return new Result(rows, onlyBase, onlyNew);
  }

  /**
   * "broken: ..." when this side's ops failed above the allowed share of its attempted ops, over
   * its trials, warmup included; else null. Its tps counts only successes, so its ratio says
   * nothing about speed.
   */
  static String failing(List<TrialResult> base, List<TrialResult> neu, double allowed) {
    String why = failing("base", base, allowed);
    return why != null ? why : failing("new", neu, allowed);
  }

  private static String failing(String side, List<TrialResult> ts, double allowed) {
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
        + pct(allowed)
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

  /** Whether some point is broken (its verdict says how). */
  public static boolean anyBroken(Result r) {
    return r.rows().stream().anyMatch(row -> row.verdict().startsWith("broken"));
  }

  /** advise's verdict read as base against new. */
  private static String words(Verdict v) {
    return switch (v.kind()) {
      case "confirms" -> "new faster";
      case "contradicts" -> "new slower";
      default -> v.text();
    };
  }

  /** What the intervals are over, in words, for the table's heading. */
  public static String method(Result r) {
    Set<String> o = new LinkedHashSet<>();
    r.rows().forEach(x -> o.add(x.over() == null ? "none" : x.over()));
    List<String> parts = new ArrayList<>();
    if (o.contains(OVER_REPEATS)) {
      parts.add("Welch's t on log tps over each point's repeats");
    }
    if (o.contains(OVER_ITERATIONS)) {
      parts.add(
          "where a side has one trial: Welch's t on log tps over the trials' measurement"
              + " iterations (within-trial noise only; run-to-run variation is not in it)");
    }
    if (o.contains("none")) {
      parts.add("none where a side has neither 2 repeats nor 2 iterations");
    }
    return "ratio = new / base (geometric means); 95% interval: "
        + String.join("; ", parts)
        + "; verdicts Holm-adjusted over the "
        + r.rows().stream().filter(x -> x.holmP() != null).count()
        + " points with an interval";
  }

  public static void print(Result r, double margin, PrintStream out) {
    out.println(method(r));
    int w = r.rows().stream().mapToInt(x -> label(x.point()).length()).max().orElse(5);
    out.printf(
        Locale.ROOT,
        "%-" + w + "s %5s %10s %10s %7s %18s %6s %6s  %s%n",
        columns("n", "verdict (margin \u00b1" + pct(margin) + ")").toArray());
    for (Row row : r.rows()) {
      out.printf(
          Locale.ROOT,
          "%-" + w + "s %5s %10.1f %10.1f %7.3f %18s %6.2f %6.2f  %s%n",
          label(row.point()),
          row.baseTrials() + "/" + row.newTrials(),
          row.baseTps(),
          row.newTps(),
          row.ratio(),
          row.low() == null
              ? "-"
              : String.format(Locale.ROOT, "[%.3f, %.3f]", row.low(), row.high()),
          row.p50Ratio(),
          row.p99Ratio(),
          row.verdict());
    }
    for (String k : r.onlyBase()) {
      out.println("only in base: " + k);
    }
    for (String k : r.onlyNew()) {
      out.println("only in new: " + k);
    }
  }

  /** The same table as HTML, for {@code report --html} given two results (margin ±5%). */
  static void html(StringBuilder h, HtmlReport.Source base, HtmlReport.Source neu) {
    h.append("<h2 id=\"diff\">")
        .append(HtmlReport.esc(neu.name()))
        .append(" against ")
        .append(HtmlReport.esc(base.name()))
        .append("</h2>\n");
    Result r;
    try {
      r = compare(base.run(), neu.run(), 0.05);
    } catch (UsageException e) {
      h.append("<p>").append(HtmlReport.esc(e.getMessage())).append(".</p>\n");
      return;
    }
    h.append("<p>").append(HtmlReport.esc(method(r))).append(".</p>\n<table>\n<thead><tr>");
    for (String c : columns("trials", "verdict")) {
      h.append("<th>").append(HtmlReport.esc(c)).append("</th>");
    }
    h.append("</tr></thead>\n<tbody>\n");
    for (Row row : r.rows()) {
      h.append("<tr><td>").append(HtmlReport.esc(label(row.point()))).append("</td>");
      cell(h, row.baseTrials() + "/" + row.newTrials());
      cell(h, HtmlReport.tps(row.baseTps()));
      cell(h, HtmlReport.tps(row.newTps()));
      cell(h, String.format(Locale.ROOT, "%.3f", row.ratio()));
      cell(
          h,
          row.low() == null
              ? "-"
              : String.format(Locale.ROOT, "[%.3f, %.3f]", row.low(), row.high()));
      cell(h, String.format(Locale.ROOT, "%.2f", row.p50Ratio()));
      cell(h, String.format(Locale.ROOT, "%.2f", row.p99Ratio()));
      h.append("<td class=\"verdict\"><strong>")
          .append(HtmlReport.esc(row.verdict()))
          .append("</strong></td></tr>\n");
    }
    h.append("</tbody>\n</table>\n");
  }

  /** The table's headings, the console's and the page's. */
  private static List<String> columns(String trials, String verdict) {
    return List.of(
        "point", trials, "base tps", "new tps", "ratio", "95% CI", "p50 x", "p99 x", verdict);
  }

  private static void cell(StringBuilder h, String s) {
    h.append("<td class=\"n\">").append(HtmlReport.esc(s)).append("</td>");
  }

  private static String pct(double m) {
    return String.format(Locale.ROOT, "%.3g%%", 100 * m);
  }

  static String label(Map<String, String> p) {
    List<String> parts = new ArrayList<>();
    p.forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(" ", parts);
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
      out.computeIfAbsent(label(point(t, withTarget)), k -> new ArrayList<>()).add(t);
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
        v.addAll(t.measurement().iterationTps());
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
}
