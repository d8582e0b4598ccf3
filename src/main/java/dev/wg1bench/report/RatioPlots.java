package dev.wg1bench.report;

import dev.wg1bench.plot.Charts;
import dev.wg1bench.result.PointsDiff;
import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * New against base as a picture: each matched point's throughput ratio with its 95% interval (the
 * diff's own figures), against the line at 1, so a change and its uncertainty read at once.
 */
final class RatioPlots {
  private RatioPlots() {}

  /** Null when no point matched. */
  static Plots.Figure figure(PointsDiff r, String baseName, String newName) {
    List<PointsDiff.Row> rows = r.rows();
    if (rows.isEmpty()) {
      return null;
    }
    String title = "throughput ratio, " + newName + " / " + baseName;
    XYChart c = chart(rows, title);
    // the line of no change
    XYSeries one =
        c.addSeries("no change", new double[] {-0.5, rows.size() - 0.5}, new double[] {1, 1});
    one.setLineColor(Color.GRAY);
    one.setLineStyle(Charts.dashed());
    one.setMarker(SeriesMarkers.NONE);
    boolean intervals = ratios(c, rows);
    return new Plots.Figure(
        "diff-ratio",
        title,
        "Each point's throughput ratio, new over base"
            + (intervals ? ", with its 95% interval (the table's CI column)" : "")
            + "; the dashed line is no change.",
        Charts.png(c),
        Plots.WIDTH,
        Plots.HEIGHT);
  }

  /** An empty chart with a tick per point, labelled by the keys that vary between points. */
  private static XYChart chart(List<PointsDiff.Row> rows, String title) {
    List<String> keys = varying(rows);
    List<String> labels = new ArrayList<>();
    rows.forEach(row -> labels.add(Plots.label(row.point(), keys)));
    XYChart c = new XYChart(Plots.WIDTH, Plots.HEIGHT);
    c.setTitle(title);
    c.setXAxisTitle(keys.isEmpty() ? "point" : String.join(", ", keys));
    c.setYAxisTitle("new tps / base tps");
    AxesChartStyler s = Charts.style(c.getStyler(), 1);
    s.setYAxisDecimalPattern("0.00");
    Plots.fitTitle(s, title);
    s.setLegendVisible(false);
    s.setXAxisMin(-0.5);
    s.setXAxisMax(rows.size() - 0.5);
    c.setCustomXAxisTickLabelsFormatter(
        x -> {
          long i = Math.round(x);
          return Math.abs(x - i) < 1e-6 && i >= 0 && i < labels.size() ? labels.get((int) i) : "";
        });
    if (rows.size() > 4) {
      s.setXAxisLabelRotation(20);
    }
    return c;
  }

  /** Each point's interval as a bar where it has one, then the ratios as dots; true with a bar. */
  private static boolean ratios(XYChart c, List<PointsDiff.Row> rows) {
    Color color = Charts.PALETTE[0];
    boolean intervals = false;
    double[] x = new double[rows.size()];
    double[] y = new double[rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      PointsDiff.Row row = rows.get(i);
      x[i] = i;
      y[i] = row.ratio();
      if (row.low() != null && row.high() != null) {
        XYSeries bar =
            c.addSeries("interval " + i, new double[] {i, i}, new double[] {row.low(), row.high()});
        bar.setLineColor(color);
        bar.setLineStyle(new BasicStroke(2.5f));
        bar.setMarker(SeriesMarkers.NONE);
        intervals = true;
      }
    }
    XYSeries ratio = c.addSeries("ratio", x, y);
    ratio.setLineStyle(SeriesLines.NONE);
    ratio.setMarkerColor(color);
    ratio.setMarker(SeriesMarkers.CIRCLE);
    return intervals;
  }

  /** The point keys whose values differ between rows: the rest say nothing in a label. */
  private static List<String> varying(List<PointsDiff.Row> rows) {
    Set<String> keys = new LinkedHashSet<>();
    rows.forEach(r -> keys.addAll(r.point().keySet()));
    List<String> out = new ArrayList<>();
    for (String k : keys) {
      Set<String> values = new LinkedHashSet<>();
      rows.forEach(r -> values.add(String.valueOf(r.point().get(k))));
      if (values.size() > 1) {
        out.add(k);
      }
    }
    return out;
  }
}
