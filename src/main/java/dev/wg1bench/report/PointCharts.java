package dev.wg1bench.report;

import dev.wg1bench.plot.Charts;
import dev.wg1bench.result.PointSummary;
import dev.wg1bench.result.TrialResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The charts of a run's points (what {@link Plots} lays out): a metric against clients, one line
 * per combination of the other knobs with each point's spread or interval, or bars, one per point,
 * when clients does not vary.
 */
final class PointCharts {
  private static final int WIDTH = Plots.WIDTH;
  private static final int HEIGHT = Plots.HEIGHT;
  private static final int LEGEND_ROW = Plots.LEGEND_ROW;

  private PointCharts() {}

  /** A figure's file name, title, y axis title and the y axis labels' decimal pattern. */
  record Panel(String name, String title, String yTitle, String yPattern) {}

  static Plots.Figure vsClients(
      Panel panel,
      List<PointSummary> ps,
      List<String> varying,
      Map<Map<String, String>, List<TrialResult>> trialsByPoint,
      ToDoubleFunction<TrialResult> ofTrial,
      ToDoubleFunction<PointSummary> median,
      Function<TrialResult, Double> halfWidth) {
    // clients sit at equal spacing (1, 2, 4, ... 64 would crowd the left on a linear axis)
    List<Integer> xs =
        new ArrayList<>(new TreeSet<>(ps.stream().map(p -> Plots.clients(p.point())).toList()));
    Map<String, List<PointSummary>> series = new LinkedHashMap<>();
    for (PointSummary p : ps) {
      series.computeIfAbsent(Plots.label(p.point(), varying), k -> new ArrayList<>()).add(p);
    }
    int longest = series.keySet().stream().mapToInt(String::length).max().orElse(0);
    boolean below = Charts.legendBelow(series.size(), longest);
    // a legend below gets its own rows, so the plot keeps its height
    int height = below ? HEIGHT + LEGEND_ROW * series.size() : HEIGHT;
    XYChart c = clientsChart(panel, xs, height, below, series.size() > 1);
    boolean spread = false;
    boolean interval = false;
    int n = 0;
    for (Map.Entry<String, List<PointSummary>> e : series.entrySet()) {
      Color color = Charts.PALETTE[n % Charts.PALETTE.length];
      Marker marker = Charts.MARKERS[n % Charts.MARKERS.length];
      n++;
      List<PointSummary> pts = new ArrayList<>(e.getValue());
      pts.sort(Comparator.comparingInt(p -> Plots.clients(p.point())));
      double[] x = new double[pts.size()];
      double[] y = new double[pts.size()];
      for (int i = 0; i < pts.size(); i++) {
        PointSummary p = pts.get(i);
        x[i] = xs.indexOf(Plots.clients(p.point()));
        y[i] = median.applyAsDouble(p);
        List<TrialResult> ts = trialsByPoint.getOrDefault(p.point(), List.of());
        Double half = ts.size() == 1 && halfWidth != null ? halfWidth.apply(ts.get(0)) : null;
        if (ts.size() > 1 || half != null) {
          whisker(c, e.getKey() + " range " + i, color, x[i], y[i], half, ts, ofTrial);
          spread |= half == null;
          interval |= half != null;
        }
      }
      XYSeries line = c.addSeries(e.getKey(), x, y);
      line.setLineColor(color);
      line.setMarkerColor(color);
      line.setMarker(marker);
      line.setLineStyle(new BasicStroke(2.5f));
    }
    String caption =
        "Median over the repeats at each point"
            + (spread ? "; vertical bars span the lowest to the highest repeat" : "")
            + (interval ? "; a point run once: its 95% interval, as the trial measured it" : "")
            + ".";
    return Plots.figure(panel.name(), panel.title(), caption, c, WIDTH, height);
  }

  /** The chart of a figure against clients: clients at equal spacing, y from 0. */
  private static XYChart clientsChart(
      Panel panel, List<Integer> xs, int height, boolean below, boolean legend) {
    XYChart c = new XYChart(WIDTH, height);
    c.setTitle(panel.title());
    c.setXAxisTitle("clients");
    c.setYAxisTitle(panel.yTitle());
    AxesChartStyler s = Charts.style(c.getStyler(), below);
    s.setYAxisDecimalPattern(panel.yPattern());
    Plots.fitTitle(s, panel.title());
    c.getStyler().setYAxisMin(0.0);
    // one line needs no key: the plot gets the legend's width
    c.getStyler().setLegendVisible(legend);
    c.setCustomXAxisTickLabelsFormatter(
        x -> {
          long i = Math.round(x);
          return Math.abs(x - i) < 1e-6 && i >= 0 && i < xs.size()
              ? Integer.toString(xs.get((int) i))
              : "";
        });
    return c;
  }

  /**
   * A point's vertical bar: the range of its repeats, or a point run once its own interval as the
   * result states it; in the series' colour, out of the legend.
   */
  private static void whisker(
      XYChart c,
      String name,
      Color color,
      double x,
      double y,
      Double half,
      List<TrialResult> ts,
      ToDoubleFunction<TrialResult> ofTrial) {
    double lo = half != null ? y - half : ts.stream().mapToDouble(ofTrial).min().orElse(y);
    double hi = half != null ? y + half : ts.stream().mapToDouble(ofTrial).max().orElse(y);
    XYSeries bar = c.addSeries(name, new double[] {x, x}, new double[] {lo, hi});
    bar.setLineColor(color);
    bar.setLineStyle(new BasicStroke(2f));
    bar.setMarker(SeriesMarkers.NONE);
    bar.setShowInLegend(false);
  }

  static Plots.Figure bars(
      Panel panel,
      List<PointSummary> ps,
      List<String> varying,
      ToDoubleFunction<PointSummary> value) {
    CategoryChart c = new CategoryChart(WIDTH, HEIGHT);
    c.setTitle(panel.title());
    c.setXAxisTitle(varying.isEmpty() ? "point" : String.join(", ", varying));
    c.setYAxisTitle(panel.yTitle());
    AxesChartStyler s = Charts.style(c.getStyler(), 1);
    s.setYAxisDecimalPattern(panel.yPattern());
    Plots.fitTitle(s, panel.title());
    c.getStyler().setLegendVisible(false);
    c.getStyler().setYAxisMin(0.0);
    c.getStyler().setLabelsVisible(true);
    c.getStyler().setLabelsFont(new Font(Charts.FONT, Font.PLAIN, 13));
    if (ps.size() > 4) {
      c.getStyler().setXAxisLabelRotation(20);
    }
    List<String> labels = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (PointSummary p : ps) {
      String l = Plots.label(p.point(), varying);
      // categories must be distinct
      while (labels.contains(l)) {
        l = l + " ";
      }
      labels.add(l);
      values.add(value.applyAsDouble(p));
    }
    CategorySeries bar = c.addSeries(panel.yTitle(), labels, values);
    bar.setFillColor(Charts.PALETTE[0]);
    return Plots.figure(
        panel.name(), panel.title(), "Median over the repeats of each point.", c, WIDTH, HEIGHT);
  }
}
