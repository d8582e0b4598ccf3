package dev.wg1bench.report;

import dev.wg1bench.plot.Charts;
import dev.wg1bench.result.PointSummary;
import dev.wg1bench.result.TrialResult;
import java.awt.Font;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;

/**
 * The report's figures as PNG, drawn by XChart: throughput and p99 latency against clients with one
 * line per value of whatever else varies between points (the seeds' figures 2.2, 3.x and 4.x), or
 * bars when clients does not vary; and the --progress time series per point.
 */
public final class Plots {
  public static final int WIDTH = Charts.WIDTH;
  public static final int HEIGHT = Charts.HEIGHT;

  /** Height of each of the two stacked charts of a time-series figure. */
  public static final int SERIES_HEIGHT = 400;

  /** Height added per series when the legend goes below the plot. */
  static final int LEGEND_ROW = 22;

  /** More lines than this in one percentile plot no longer tell one trial from another. */
  static final int MAX_DISTRIBUTION_LINES = 8;

  /** Keys that are axes or groups, never series: every point of a plot has the same workload. */
  private static final Set<String> NOT_SERIES = Set.of("workload", "clients");

  /** Keys whose values read well alone in a legend ("local, prepared"). */
  private static final Set<String> SELF_EXPLAINING = Set.of("target", "queryMode", "isolation");

  private Plots() {}

  /**
   * One figure: a PNG and what the HTML says about it.
   *
   * @param name file name stem, unique within a report
   * @param caption a sentence under the image saying how to read it
   * @param fold null for a figure always shown; else the workload whose folded section (closed by
   *     default) holds it, for the per-point figures a sweep has many of
   */
  public record Figure(
      String name, String title, String caption, byte[] png, int width, int height, String fold) {
    public Figure(String name, String title, String caption, byte[] png, int width, int height) {
      this(name, title, caption, png, width, height, null);
    }
  }

  /**
   * Every figure of a report, workload by workload, points in report order.
   *
   * @param timing how long each trial measured ("10 s × 5"), for the titles; null if unknown
   */
  public static List<Figure> all(
      List<PointSummary> summaries, List<TrialResult> trials, String timing) {
    List<Figure> out = new ArrayList<>();
    Map<String, List<PointSummary>> byWorkload = new LinkedHashMap<>();
    for (PointSummary s : ReportOrder.sortedSummaries(summaries)) {
      byWorkload.computeIfAbsent(workload(s.point()), k -> new ArrayList<>()).add(s);
    }
    Map<Map<String, String>, List<TrialResult>> trialsByPoint = new LinkedHashMap<>();
    for (TrialResult t : trials) {
      trialsByPoint.computeIfAbsent(t.point(), k -> new ArrayList<>()).add(t);
    }
    int w = 0;
    for (Map.Entry<String, List<PointSummary>> e : byWorkload.entrySet()) {
      w++;
      String stem = "w" + w + "-" + fileSafe(e.getKey());
      out.addAll(figures(stem, e.getKey(), e.getValue(), trialsByPoint, timing));
    }
    return out;
  }

  /** One workload's figures: throughput and p99 latency, then its progress and server samples. */
  private static List<Figure> figures(
      String stem,
      String workload,
      List<PointSummary> ps,
      Map<Map<String, String>, List<TrialResult>> trialsByPoint,
      String timing) {
    List<Figure> out = new ArrayList<>();
    List<String> varying = varying(ps);
    List<TrialResult> mine = new ArrayList<>();
    ps.forEach(p -> mine.addAll(trialsByPoint.getOrDefault(p.point(), List.of())));
    // what a figure shown alone (on a slide, say) must carry: which server, how much data, how
    // long
    String context = context(mine, timing);
    Set<Integer> clients = new TreeSet<>();
    ps.forEach(p -> clients.add(clients(p.point())));
    out.addAll(headline(stem, workload, context, ps, varying, clients, trialsByPoint));
    List<String> seriesKeys = new ArrayList<>(varying);
    if (clients.size() > 1) {
      seriesKeys.add("clients");
    }
    Map<String, List<TrialResult>> byLabel =
        labelled(ps, trialsByPoint, seriesKeys, t -> List.of(t));
    if (byLabel.values().stream().mapToInt(List::size).sum() <= MAX_DISTRIBUTION_LINES) {
      Figure d = LatencyPlots.distribution(stem + "-latency", workload, context, byLabel);
      if (d != null) {
        out.add(d);
      }
    }
    out.addAll(overTime(stem, workload, context, ps, trialsByPoint, seriesKeys, timing));
    return out;
  }

  /**
   * Throughput and p99 latency against clients when the points have several client counts, else as
   * bars per point; none for a single point (one bar of one number says nothing the headline table
   * does not).
   */
  private static List<Figure> headline(
      String stem,
      String workload,
      String context,
      List<PointSummary> ps,
      List<String> varying,
      Set<Integer> clients,
      Map<Map<String, String>, List<TrialResult>> trialsByPoint) {
    if (clients.size() > 1) {
      return vsClientsFigures(stem, workload, context, ps, varying, trialsByPoint);
    }
    if (ps.size() > 1) {
      // one bar of one number says nothing the headline table does not: a single point has none
      String at = clients.isEmpty() ? "" : " (" + clients.iterator().next() + " clients)";
      return barFigures(stem, workload, at, context, ps, varying);
    }
    return List.of();
  }

  /** Throughput and p99 latency against clients, a line per combination of the other knobs. */
  private static List<Figure> vsClientsFigures(
      String stem,
      String workload,
      String context,
      List<PointSummary> ps,
      List<String> varying,
      Map<Map<String, String>, List<TrialResult>> trialsByPoint) {
    List<Figure> out = new ArrayList<>();
    out.add(
        PointCharts.vsClients(
            new PointCharts.Panel(
                stem + "-tps",
                workload + ": throughput vs clients \u00b7 " + context,
                "ops/s",
                "#,##0"),
            ps,
            varying,
            trialsByPoint,
            t -> t.measurement().tps(),
            PointSummary::medianTps,
            t -> t.measurement().tpsError()));
    out.add(
        PointCharts.vsClients(
            new PointCharts.Panel(
                stem + "-p99",
                workload + ": p99 latency vs clients \u00b7 " + context,
                "p99 latency (ms)",
                "#,##0.##"),
            ps,
            varying,
            trialsByPoint,
            t -> t.measurement().latencyMs().p99(),
            PointSummary::medianP99Ms,
            null));
    return out;
  }

  /** Median throughput and p99 latency as bars, one per point; {@code at}: " (8 clients)". */
  private static List<Figure> barFigures(
      String stem,
      String workload,
      String at,
      String context,
      List<PointSummary> ps,
      List<String> varying) {
    List<Figure> out = new ArrayList<>();
    out.add(
        PointCharts.bars(
            new PointCharts.Panel(
                stem + "-tps",
                workload + ": throughput" + at + " \u00b7 " + context,
                "median ops/s",
                "#,##0"),
            ps,
            varying,
            PointSummary::medianTps));
    out.add(
        PointCharts.bars(
            new PointCharts.Panel(
                stem + "-p99",
                workload + ": p99 latency" + at + " \u00b7 " + context,
                "median p99 latency (ms)",
                "#,##0.##"),
            ps,
            varying,
            PointSummary::medianP99Ms));
    return out;
  }

  /** The progress of each point over its trials, and the server's samples, where recorded. */
  private static List<Figure> overTime(
      String stem,
      String workload,
      String context,
      List<PointSummary> ps,
      Map<Map<String, String>, List<TrialResult>> trialsByPoint,
      List<String> seriesKeys,
      String timing) {
    List<Figure> out = new ArrayList<>();
    Map<String, List<TrialResult>> progress =
        labelled(ps, trialsByPoint, seriesKeys, t -> t.progress());
    if (!progress.isEmpty()) {
      out.add(ProgressPlots.overview(stem + "-progress", workload, context, progress));
      int i = 0;
      for (Map.Entry<String, List<TrialResult>> p : progress.entrySet()) {
        i++;
        out.add(
            ProgressPlots.point(
                stem + "-progress-" + i,
                workload,
                p.getKey(),
                // one point is on one server: its own context, not the workload's
                context(p.getValue(), timing),
                p.getValue()));
      }
    }
    Map<String, List<TrialResult>> sampled =
        labelled(ps, trialsByPoint, seriesKeys, t -> t.serverSamples());
    if (!sampled.isEmpty()) {
      out.add(ProgressPlots.server(stem + "-server", workload, context, sampled));
    }
    return out;
  }

  /** The points of which some trial has a non-empty {@code series}, by their label. */
  private static Map<String, List<TrialResult>> labelled(
      List<PointSummary> ps,
      Map<Map<String, String>, List<TrialResult>> trialsByPoint,
      List<String> seriesKeys,
      Function<TrialResult, List<?>> series) {
    Map<String, List<TrialResult>> out = new LinkedHashMap<>();
    for (PointSummary p : ps) {
      List<TrialResult> ts = trialsByPoint.getOrDefault(p.point(), List.of());
      if (ts.stream().anyMatch(t -> series.apply(t) != null && !series.apply(t).isEmpty())) {
        out.put(label(p.point(), seriesKeys), ts);
      }
    }
    return out;
  }

  /** Keys other than workload and clients whose value differs between points, first-seen order. */
  static List<String> varying(List<PointSummary> ps) {
    Set<String> keys = new LinkedHashSet<>();
    ps.forEach(p -> keys.addAll(p.point().keySet()));
    List<String> out = new ArrayList<>();
    for (String k : keys) {
      if (NOT_SERIES.contains(k)) {
        continue;
      }
      Set<String> values = new LinkedHashSet<>();
      ps.forEach(p -> values.add(String.valueOf(p.point().get(k))));
      if (values.size() > 1) {
        out.add(k);
      }
    }
    return out;
  }

  /** "local, prepared" from the varying keys; "set.fsync=off" style for less obvious ones. */
  static String label(Map<String, String> point, List<String> keys) {
    List<String> parts = new ArrayList<>();
    for (String k : keys) {
      String v = point.get(k);
      if (v == null) {
        // a knob this point did not set: its label just lacks it
        continue;
      }
      if (k.equals("clients")) {
        parts.add(v + (v.equals("1") ? " client" : " clients"));
      } else if (SELF_EXPLAINING.contains(k)) {
        parts.add(v);
      } else {
        parts.add(k.replaceFirst("^(set|jdbc)\\.", "") + "=" + v);
      }
    }
    return parts.isEmpty() ? "all points" : String.join(", ", parts);
  }

  /**
   * "PostgreSQL 17.5, scale 10, 10 s × 5": the servers (product and version), scales and measured
   * time of these trials, each distinct value once.
   */
  static String context(List<TrialResult> trials, String timing) {
    Set<String> servers = new TreeSet<>();
    Set<Integer> scales = new TreeSet<>();
    for (TrialResult t : trials) {
      String s = TargetsHtml.serverShort(t.server());
      if (s != null) {
        servers.add(s);
      }
      if (t.scale() > 0) {
        scales.add(t.scale());
      }
    }
    List<String> parts = new ArrayList<>();
    if (!servers.isEmpty()) {
      // "PostgreSQL 16.9 / 17.5" rather than the product name twice
      List<String> names = new ArrayList<>(servers);
      String common = "PostgreSQL ";
      if (names.size() > 1 && names.stream().allMatch(n -> n.startsWith(common))) {
        names.replaceAll(n -> n.substring(common.length()));
        parts.add(common + String.join(" / ", names));
      } else {
        parts.add(String.join(" / ", names));
      }
    }
    if (!scales.isEmpty()) {
      parts.add("scale " + String.join(" / ", scales.stream().map(String::valueOf).toList()));
    }
    if (timing != null && !timing.isBlank()) {
      parts.add(timing);
    }
    return String.join(", ", parts);
  }

  /** XChart does not wrap titles: a long one (two servers, say) gets a smaller font instead. */
  static void fitTitle(AxesChartStyler s, String title) {
    int size = title.length() <= 70 ? 18 : title.length() <= 90 ? 15 : 13;
    if (s.getChartTitleFont() != null && s.getChartTitleFont().getSize() < size) {
      // a stacked chart's smaller title stays smaller
      size = s.getChartTitleFont().getSize();
    }
    s.setChartTitleFont(new Font(Charts.FONT, Font.BOLD, size));
  }

  static Figure figure(
      String name, String title, String caption, Chart<?, ?> c, int width, int height) {
    return new Figure(name, title, caption, Charts.png(c), width, height);
  }

  static String workload(Map<String, String> point) {
    String w = point.get("workload");
    return w == null ? "workload" : w;
  }

  static int clients(Map<String, String> point) {
    try {
      return Integer.parseInt(point.getOrDefault("clients", "0").trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  static String fileSafe(String s) {
    String f = s.replaceAll("[^A-Za-z0-9_.-]+", "_");
    return f.length() > 40 ? f.substring(0, 40) : f;
  }
}
