package dev.wg1bench.history.report;

import dev.wg1bench.history.analysis.ChangePointFinder;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.plot.Charts;
import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One series over its runs in the house style: each run's value with its own 95% interval as a
 * whisker, each segment's mean as a flat line across it, and a dashed line before the first run of
 * each new segment (a change point).
 */
final class HistoryChart {
  private HistoryChart() {}

  static final int WIDTH = 1100;
  static final int HEIGHT = 440;

  private static final Color VALUE = Charts.PALETTE[0];
  private static final Color SEGMENT = Charts.PALETTE[2];
  private static final Color CHANGE = Charts.PALETTE[1];

  static byte[] png(Series s, List<ChangePointFinder.Shift> shifts) {
    List<SeriesPoint> pts = s.points();
    int n = pts.size();
    XYChart c = new XYChart(WIDTH, HEIGHT);
    c.setTitle(s.name());
    c.setXAxisTitle("run (oldest first; the tables name each run and commit)");
    c.setYAxisTitle(
        s.metric() + (s.higherIsBetter() ? " (higher is better)" : " (lower is better)"));
    Charts.style(c.getStyler(), false);
    c.getStyler().setXAxisDecimalPattern("#,##0");
    c.getStyler().setYAxisDecimalPattern("#,##0.###");
    double[] x = new double[n];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = i + 1;
      y[i] = pts.get(i).value();
    }
    double[] yRange = yRange(pts);
    c.getStyler().setYAxisMin(yRange[0]);
    c.getStyler().setYAxisMax(yRange[1]);
    c.getStyler().setXAxisMin(0.5);
    c.getStyler().setXAxisMax(n + 0.5);
    // added in drawing order: whiskers under the values, segment means and change points on top
    boolean intervals = intervals(c, pts, x);
    XYSeries values = c.addSeries(intervals ? "value, its 95% interval" : "value", x, y);
    values.setLineColor(new Color(0x9ecae1));
    values.setLineStyle(new BasicStroke(1f));
    values.setMarkerColor(VALUE);
    values.setMarker(SeriesMarkers.CIRCLE);
    segmentMeans(c, y, shifts);
    changePoints(c, shifts, yRange);
    return Charts.png(c);
  }

  /**
   * The y axis from the lowest to the highest value or interval end, padded so no whisker touches
   * the frame (a flat series gets a pad of its own size, or 1, so it is not drawn on an edge).
   */
  private static double[] yRange(List<SeriesPoint> pts) {
    double lo = Double.MAX_VALUE;
    double hi = -Double.MAX_VALUE;
    for (SeriesPoint p : pts) {
      lo = Math.min(lo, p.hasInterval() ? Math.min(p.low(), p.value()) : p.value());
      hi = Math.max(hi, p.hasInterval() ? Math.max(p.high(), p.value()) : p.value());
    }
    double pad = hi > lo ? (hi - lo) * 0.08 : Math.max(Math.abs(hi) * 0.05, 1);
    return new double[] {lo - pad, hi + pad};
  }

  /** Each run's 95% interval as a whisker; whether any run has one (the legend says so then). */
  private static boolean intervals(XYChart c, List<SeriesPoint> pts, double[] x) {
    boolean intervals = false;
    for (int i = 0; i < pts.size(); i++) {
      SeriesPoint p = pts.get(i);
      if (!p.hasInterval()) {
        continue;
      }
      XYSeries bar =
          c.addSeries("interval " + i, new double[] {x[i], x[i]}, new double[] {p.low(), p.high()});
      bar.setLineColor(VALUE);
      bar.setLineStyle(new BasicStroke(1.5f));
      bar.setMarker(SeriesMarkers.NONE);
      bar.setShowInLegend(false);
      intervals = true;
    }
    return intervals;
  }

  /** Each segment's mean as a flat line across its runs; one legend entry for them all. */
  private static void segmentMeans(XYChart c, double[] y, List<ChangePointFinder.Shift> shifts) {
    List<Integer> starts = new ArrayList<>(List.of(0));
    shifts.forEach(sh -> starts.add(sh.index()));
    starts.add(y.length);
    for (int k = 0; k + 1 < starts.size(); k++) {
      int a = starts.get(k);
      int b = starts.get(k + 1);
      if (b <= a) {
        continue;
      }
      double mean = 0;
      for (int i = a; i < b; i++) {
        mean += y[i];
      }
      mean /= b - a;
      XYSeries seg =
          c.addSeries(
              k == 0 ? "segment mean" : "segment " + k,
              new double[] {a + 0.6, b + 0.4},
              new double[] {mean, mean});
      seg.setLineColor(SEGMENT);
      seg.setLineStyle(new BasicStroke(3f));
      seg.setMarker(SeriesMarkers.NONE);
      seg.setShowInLegend(k == 0);
    }
  }

  /** A dashed line between the last run before each change and the first after, full height. */
  private static void changePoints(
      XYChart c, List<ChangePointFinder.Shift> shifts, double[] yRange) {
    for (int k = 0; k < shifts.size(); k++) {
      double at = shifts.get(k).index() + 0.5;
      XYSeries cp =
          c.addSeries(
              k == 0 ? "change point" : "change point " + k,
              new double[] {at, at},
              new double[] {yRange[0], yRange[1]});
      cp.setLineColor(CHANGE);
      cp.setLineStyle(Charts.dashed());
      cp.setMarker(SeriesMarkers.NONE);
      cp.setShowInLegend(k == 0);
    }
  }
}
