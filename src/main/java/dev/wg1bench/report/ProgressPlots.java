package dev.wg1bench.report;

import dev.wg1bench.plot.Charts;
import dev.wg1bench.result.ProgressPoint;
import dev.wg1bench.result.TrialResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The --progress figures: per workload one overview (one line per point, the mean of its repeats at
 * each interval), shown; per point its repeats interval by interval, warmup dashed, folded away in
 * the page so a sweep of twenty points does not bury the rest.
 */
final class ProgressPlots {
  private ProgressPlots() {}

  /**
   * Ops/s above, p99 below, one line per point over the measured intervals.
   *
   * @param points the points in report order with their trials, keyed by legend label
   */
  static Plots.Figure overview(
      String name, String workload, String context, Map<String, List<TrialResult>> points) {
    Map<String, Map<Double, Double>> ops = new LinkedHashMap<>();
    Map<String, Map<Double, Double>> p99 = new LinkedHashMap<>();
    for (Map.Entry<String, List<TrialResult>> e : points.entrySet()) {
      ops.put(e.getKey(), mean(e.getValue(), ProgressPoint::opsPerSecond));
      p99.put(e.getKey(), mean(e.getValue(), ProgressPlots::p99));
    }
    String title = workload + ": progress of each point";
    return perPoint(
        name,
        title,
        "Measured --progress intervals, one line per point (the mean of its repeats at each"
            + " interval). Each point's repeats, with the warmup, are in the folded section"
            + " below.",
        workload + ": throughput per interval \u00b7 " + context,
        "ops/s",
        ops,
        workload + ": p99 latency per interval",
        "p99 latency (ms)",
        p99);
  }

  /**
   * Dead tuples and table size of the workload's tables over the trials (sampled with --progress):
   * the long-run view of autovacuum and HOT, one line per point (mean of its repeats).
   */
  static Plots.Figure server(
      String name, String workload, String context, Map<String, List<TrialResult>> points) {
    Map<String, Map<Double, Double>> dead = new LinkedHashMap<>();
    Map<String, Map<Double, Double>> size = new LinkedHashMap<>();
    for (Map.Entry<String, List<TrialResult>> e : points.entrySet()) {
      Map<Double, double[]> d = new TreeMap<>();
      Map<Double, double[]> mb = new TreeMap<>();
      for (TrialResult t : e.getValue()) {
        sampled(t, d, mb);
      }
      if (!d.isEmpty()) {
        dead.put(e.getKey(), means(d));
        size.put(e.getKey(), means(mb));
      }
    }
    return perPoint(
        name,
        workload + ": dead tuples and table size",
        "Sampled from pg_stat_user_tables at each --progress interval, one line per point (the"
            + " mean of its repeats): dead tuples (autovacuum removes them) and the tables' size"
            + " with their indexes (HOT updates keep it flat).",
        workload + ": dead tuples in the workload's tables \u00b7 " + context,
        "dead tuples",
        dead,
        workload + ": size of the workload's tables",
        "tables + indexes (MB)",
        size);
  }

  /** Adds a trial's server samples to the sums per interval: dead tuples, and MB of its tables. */
  private static void sampled(TrialResult t, Map<Double, double[]> dead, Map<Double, double[]> mb) {
    if (t.serverSamples() == null) {
      return;
    }
    for (var sample : t.serverSamples()) {
      double dt = 0;
      double bytes = 0;
      for (var table : sample.tables().values()) {
        dt += table.deadTuples();
        bytes += (table.tableBytes() + table.indexBytes()) / 1e6;
      }
      // the sampler wakes a few ms late, differently in each repeat: one tenth of a second puts
      // the repeats' samples of one interval together
      double at = Math.round(sample.t() * 10) / 10.0;
      add(dead, at, dt);
      add(mb, at, bytes);
    }
  }

  private static void add(Map<Double, double[]> sums, double t, double v) {
    double[] s = sums.computeIfAbsent(t, k -> new double[2]);
    s[0] += v;
    s[1]++;
  }

  private static Map<Double, Double> means(Map<Double, double[]> sums) {
    Map<Double, Double> out = new LinkedHashMap<>();
    sums.forEach((t, s) -> out.put(t, s[0] / s[1]));
    return out;
  }

  /**
   * Two charts over time, one line per point in each; with many points the legend goes once below
   * the upper chart, one entry a row, and the lower chart shares its colours and markers.
   */
  private static Plots.Figure perPoint(
      String name,
      String title,
      String caption,
      String topTitle,
      String topY,
      Map<String, Map<Double, Double>> top,
      String bottomTitle,
      String bottomY,
      Map<String, Map<Double, Double>> bottom) {
    int n = top.size();
    boolean below = Charts.legendBelow(n, longest(top.keySet()));
    // a legend below gets one row per entry, so the plot keeps its height
    int height = Plots.SERIES_HEIGHT + (below ? Plots.LEGEND_ROW * n : 0);
    XYChart a = chart(topTitle, topY, height);
    XYChart b = chart(bottomTitle, bottomY, Plots.SERIES_HEIGHT);
    for (XYChart c : List.of(a, b)) {
      Charts.style(c.getStyler(), below).setYAxisDecimalPattern("#,##0.##");
      c.getStyler().setYAxisMin(0.0);
      c.getStyler().setChartTitleFont(new Font(Charts.FONT, Font.BOLD, 16));
    }
    Plots.fitTitle(a.getStyler(), topTitle);
    b.getStyler().setLegendVisible(!below);
    if (n == 1) {
      // one line needs no key: the plot gets the legend's width
      a.getStyler().setLegendVisible(false);
      b.getStyler().setLegendVisible(false);
    }
    int i = 0;
    for (String label : top.keySet()) {
      Color color = Charts.PALETTE[i % Charts.PALETTE.length];
      Marker marker = Charts.MARKERS[i % Charts.MARKERS.length];
      i++;
      line(a, label, top.get(label), color, marker, false);
      line(b, label, bottom.getOrDefault(label, Map.of()), color, marker, false);
    }
    return new Plots.Figure(
        name, title, caption, stack(a, b), Plots.WIDTH, height + Plots.SERIES_HEIGHT, null);
  }

  /** ops/s above, p99 below, one line per repeat of the point; warmup dashed. */
  static Plots.Figure point(
      String name, String workload, String pointLabel, String context, List<TrialResult> trials) {
    String title = workload + ": " + pointLabel;
    String opsTitle = title + " \u00b7 " + context;
    XYChart ops = chart(opsTitle, "ops/s per interval", Plots.SERIES_HEIGHT);
    XYChart p99 =
        chart(title + ": p99 latency per interval", "p99 latency (ms)", Plots.SERIES_HEIGHT);
    for (XYChart c : List.of(ops, p99)) {
      Charts.style(c.getStyler(), trials.size() + 1).setYAxisDecimalPattern("#,##0.##");
      c.getStyler().setYAxisMin(0.0);
      // two stacked charts: smaller titles so long point labels fit
      c.getStyler().setChartTitleFont(new Font(Charts.FONT, Font.BOLD, 16));
    }
    Plots.fitTitle(ops.getStyler(), opsTitle);
    ProgressPoint warmup = repeats(trials, ops, p99);
    if (warmup != null) {
      warmupKey(warmup, ops, p99);
    }
    return new Plots.Figure(
        name,
        title,
        "Each --progress interval of each repeat at this point; dashed: warmup (not measured).",
        Charts.png(List.of(ops, p99), 2, 1),
        Plots.WIDTH,
        2 * Plots.SERIES_HEIGHT,
        workload);
  }

  /**
   * A line per repeat in each chart, in repeat order, its warmup dashed; returns the first warmup
   * interval drawn (where the legend's key for the dashed style goes), null when none was.
   */
  private static ProgressPoint repeats(List<TrialResult> trials, XYChart ops, XYChart p99) {
    ProgressPoint warmup = null;
    int n = 0;
    Set<String> labels = new HashSet<>();
    List<TrialResult> byRepeat = new ArrayList<>(trials);
    byRepeat.sort(
        Comparator.comparingInt(TrialResult::repeat).thenComparingInt(TrialResult::sequence));
    for (TrialResult t : byRepeat) {
      if (t.progress() == null || t.progress().isEmpty()) {
        continue;
      }
      Color color = Charts.PALETTE[n % Charts.PALETTE.length];
      Marker marker = Charts.MARKERS[n % Charts.MARKERS.length];
      n++;
      String label = "repeat " + t.repeat() + " (ran " + ordinal(t.sequence()) + ")";
      // several result files can hold the same point with the same repeat and trial numbers
      while (!labels.add(label)) {
        label += "'";
      }
      List<ProgressPoint> warm = new ArrayList<>();
      List<ProgressPoint> meas = new ArrayList<>();
      for (ProgressPoint p : t.progress()) {
        (isWarmup(p) ? warm : meas).add(p);
      }
      if (!warm.isEmpty()) {
        if (warmup == null) {
          warmup = warm.get(0);
        }
        // the dashed warmup line runs into the first measured point, so the trace is unbroken
        List<ProgressPoint> w = new ArrayList<>(warm);
        if (!meas.isEmpty()) {
          w.add(meas.get(0));
        }
        line(ops, label + " warmup", xy(w, ProgressPoint::opsPerSecond), color, marker, true);
        line(p99, label + " warmup", xy(w, ProgressPlots::p99), color, marker, true);
      }
      if (!meas.isEmpty()) {
        line(ops, label, xy(meas, ProgressPoint::opsPerSecond), color, marker, false);
        line(p99, label, xy(meas, ProgressPlots::p99), color, marker, false);
      }
    }
    return warmup;
  }

  /** A legend entry for the dashed style: one point on a warmup line, no marker, draws nothing. */
  private static void warmupKey(ProgressPoint warmup, XYChart ops, XYChart p99) {
    double[] t = {warmup.t()};
    for (XYChart c : List.of(ops, p99)) {
      double y = c == ops ? warmup.opsPerSecond() : p99(warmup);
      XYSeries key = c.addSeries("warmup (dashed)", t, new double[] {Double.isNaN(y) ? 0 : y});
      key.setLineColor(Color.DARK_GRAY);
      key.setLineStyle(Charts.dashed());
      key.setMarker(SeriesMarkers.NONE);
    }
  }

  private static XYChart chart(String title, String yTitle, int height) {
    XYChart c = new XYChart(Plots.WIDTH, height);
    c.setTitle(title);
    c.setXAxisTitle("time (s)");
    c.setYAxisTitle(yTitle);
    return c;
  }

  private static String ordinal(int n) {
    int t = n % 100;
    String s =
        t >= 11 && t <= 13
            ? "th"
            : switch (n % 10) {
              case 1 -> "st";
              case 2 -> "nd";
              case 3 -> "rd";
              default -> "th";
            };
    return n + s;
  }

  private static int longest(Iterable<String> labels) {
    int m = 0;
    for (String l : labels) {
      m = Math.max(m, l.length());
    }
    return m;
  }

  /** The measured intervals' mean over the trials, by time since the trial started. */
  private static Map<Double, Double> mean(
      List<TrialResult> trials, ToDoubleFunction<ProgressPoint> y) {
    Map<Double, double[]> sums = new TreeMap<>();
    for (TrialResult t : trials) {
      if (t.progress() == null) {
        continue;
      }
      for (ProgressPoint p : t.progress()) {
        double v = y.applyAsDouble(p);
        if (!isWarmup(p) && !Double.isNaN(v)) {
          add(sums, p.t(), v);
        }
      }
    }
    return means(sums);
  }

  private static Map<Double, Double> xy(
      List<ProgressPoint> pts, ToDoubleFunction<ProgressPoint> y) {
    Map<Double, Double> out = new LinkedHashMap<>();
    for (ProgressPoint p : pts) {
      double v = y.applyAsDouble(p);
      if (!Double.isNaN(v)) {
        out.put(p.t(), v);
      }
    }
    return out;
  }

  private static void line(
      XYChart c, String name, Map<Double, Double> xy, Color color, Marker marker, boolean warmup) {
    if (xy.isEmpty()) {
      return;
    }
    XYSeries s = c.addSeries(name, new ArrayList<>(xy.keySet()), new ArrayList<>(xy.values()));
    s.setLineColor(color);
    s.setMarkerColor(color);
    s.setMarker(warmup ? SeriesMarkers.NONE : marker);
    s.setLineStyle(warmup ? Charts.dashed() : new BasicStroke(2f));
    s.setShowInLegend(!warmup);
  }

  static double p99(ProgressPoint p) {
    return p.p99Ms() == null ? Double.NaN : p.p99Ms();
  }

  static boolean isWarmup(ProgressPoint p) {
    return p.phase() != null && p.phase().toLowerCase(Locale.ROOT).startsWith("warm");
  }

  /** Two charts of the same width one above the other, as one PNG. */
  private static byte[] stack(XYChart top, XYChart bottom) {
    BufferedImage a = BitmapEncoder.getBufferedImage(top);
    BufferedImage b = BitmapEncoder.getBufferedImage(bottom);
    BufferedImage out =
        new BufferedImage(
            Math.max(a.getWidth(), b.getWidth()),
            a.getHeight() + b.getHeight(),
            BufferedImage.TYPE_INT_RGB);
    Graphics2D g = out.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, out.getWidth(), out.getHeight());
    g.drawImage(a, 0, 0, null);
    g.drawImage(b, 0, a.getHeight(), null);
    g.dispose();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      ImageIO.write(out, "png", bytes);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot draw " + top.getTitle() + ": " + e.getMessage(), e);
    }
    return bytes.toByteArray();
  }
}
