package dev.wg1bench.plot;

import dev.wg1bench.plan.RunFailure;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The one plotting toolkit (XChart, headless): the house style, palette and markers, PNG encoding,
 * and the generic bar and line charts. Run reports, experiments and anything else that draws use
 * it, so every figure of the project looks and is written the same way.
 */
public final class Charts {
  static {
    // before any AWT class loads: figures are drawn on servers without a display
    System.setProperty("java.awt.headless", "true");
  }

  public static final int WIDTH = 900;
  public static final int HEIGHT = 550;

  public static final Color[] PALETTE = {
    new Color(0x1f77b4),
    new Color(0xd62728),
    new Color(0x2ca02c),
    new Color(0xff7f0e),
    new Color(0x9467bd),
    new Color(0x8c564b),
    new Color(0xe377c2),
    new Color(0x17becf),
    new Color(0x7f7f7f),
    new Color(0xbcbd22)
  };

  public static final Marker[] MARKERS = {
    SeriesMarkers.CIRCLE,
    SeriesMarkers.SQUARE,
    SeriesMarkers.DIAMOND,
    SeriesMarkers.TRIANGLE_UP,
    SeriesMarkers.TRIANGLE_DOWN,
    SeriesMarkers.CROSS,
    SeriesMarkers.PLUS,
    SeriesMarkers.OVAL
  };

  public static final String FONT = "SansSerif";

  private Charts() {}

  public static BasicStroke dashed() {
    return new BasicStroke(
        2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {7f, 5f}, 0f);
  }

  /** A wide or long legend on the right squeezes the plot: below it, one entry a row, instead. */
  public static boolean legendBelow(int seriesCount, int longestLabel) {
    return seriesCount > 10 || longestLabel > 26;
  }

  /** Fonts large enough to read in a browser at 100%; legend below when there are many series. */
  public static AxesChartStyler style(AxesChartStyler s, int seriesCount) {
    return style(s, legendBelow(seriesCount, 0));
  }

  public static AxesChartStyler style(AxesChartStyler s, boolean below) {
    s.setChartBackgroundColor(Color.WHITE);
    s.setPlotBackgroundColor(Color.WHITE);
    s.setPlotBorderColor(Color.GRAY);
    s.setPlotGridLinesColor(new Color(0xdddddd));
    s.setChartTitleFont(new Font(FONT, Font.BOLD, 18));
    s.setAxisTitleFont(new Font(FONT, Font.PLAIN, 15));
    s.setAxisTickLabelsFont(new Font(FONT, Font.PLAIN, 13));
    s.setLegendFont(new Font(FONT, Font.PLAIN, 13));
    s.setLegendBorderColor(Color.LIGHT_GRAY);
    s.setLegendPosition(below ? Styler.LegendPosition.OutsideS : Styler.LegendPosition.OutsideE);
    // XChart does not wrap a horizontal legend
    s.setLegendLayout(Styler.LegendLayout.Vertical);
    s.setMarkerSize(9);
    s.setChartPadding(12);
    s.setSeriesColors(PALETTE);
    s.setAntiAlias(true);
    return s;
  }

  /** The chart as PNG bytes. */
  public static byte[] png(Chart<?, ?> c) {
    try {
      return BitmapEncoder.getBitmapBytes(c, BitmapEncoder.BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot draw " + c.getTitle() + ": " + e.getMessage(), e);
    }
  }

  /** Several charts stacked in one PNG, {@code rows} by {@code cols}. */
  public static byte[] png(List<? extends Chart<?, ?>> charts, int rows, int cols) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      BitmapEncoder.saveBitmap(charts, rows, cols, out, BitmapEncoder.BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot draw: " + e.getMessage(), e);
    }
    return out.toByteArray();
  }

  /** Writes the chart as {@code dir/file}; a failure to write is one line. */
  public static Path save(Chart<?, ?> chart, Path dir, String file) {
    Path p = dir.resolve(file);
    try {
      Files.createDirectories(dir);
      Files.write(p, png(chart));
    } catch (IOException | UncheckedIOException e) {
      throw new RunFailure("cannot write plot " + p + ": " + e.getMessage(), e);
    }
    return p;
  }

  /** A chart of this module's size with its title and the axes' titles. */
  private static <C extends Chart<?, ?>> C titled(
      C chart, String title, String xTitle, String yTitle) {
    chart.setTitle(title);
    chart.setXAxisTitle(xTitle);
    chart.setYAxisTitle(yTitle);
    return chart;
  }

  /**
   * Grouped bars: one group per category, one bar per series (e.g. t_mono, t_random). Values at or
   * below zero are drawn at a floor on a log axis.
   */
  public static Path bars(
      Path dir,
      String file,
      String title,
      String xTitle,
      String yTitle,
      List<String> categories,
      Map<String, List<Double>> series,
      boolean log) {
    CategoryChart chart = titled(new CategoryChart(WIDTH, HEIGHT), title, xTitle, yTitle);
    style(chart.getStyler(), series.size());
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setLabelsFont(new Font(FONT, Font.PLAIN, 11));
    chart.getStyler().setLabelsPosition(0.98);
    chart.getStyler().setYAxisLogarithmic(log);
    chart.getStyler().setYAxisDecimalPattern("#,##0.###");
    double min = Double.MAX_VALUE;
    double max = 0;
    for (List<Double> ys : series.values()) {
      for (Double v : ys) {
        if (v != null && v > 0) {
          min = Math.min(min, v);
          max = Math.max(max, v);
        }
      }
    }
    double floor = min == Double.MAX_VALUE ? 1e-3 : Math.pow(10, Math.floor(Math.log10(min)));
    if (log) {
      // bars grow from the axis minimum; a log axis must not start at zero
      chart.getStyler().setYAxisMin(floor);
      chart
          .getStyler()
          .setYAxisMax(Math.pow(10, Math.ceil(Math.log10(Math.max(max, floor) * 1.5))));
    } else {
      chart.getStyler().setYAxisMin(0.0);
      chart.getStyler().setYAxisMax(max * 1.12);
    }
    for (Map.Entry<String, List<Double>> e : series.entrySet()) {
      List<Double> ys =
          e.getValue().stream().map(v -> v == null || v <= 0 ? (log ? floor : 0.0) : v).toList();
      chart.addSeries(e.getKey(), categories, ys);
    }
    return save(chart, dir, file);
  }

  /** Lines with markers over a numeric x (e.g. jobs); an optional dashed reference series. */
  public static Path lines(
      Path dir,
      String file,
      String title,
      String xTitle,
      String yTitle,
      Map<String, double[][]> series,
      Map<String, double[][]> dashed) {
    XYChart chart = titled(new XYChart(WIDTH, HEIGHT), title, xTitle, yTitle);
    style(chart.getStyler(), series.size() + dashed.size());
    chart.getStyler().setXAxisDecimalPattern("#,##0");
    chart.getStyler().setYAxisDecimalPattern("#,##0.##");
    chart.getStyler().setYAxisMin(0.0);
    int n = 0;
    for (Map.Entry<String, double[][]> e : series.entrySet()) {
      XYSeries xs = chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]);
      xs.setMarker(MARKERS[n++ % MARKERS.length]);
    }
    for (Map.Entry<String, double[][]> e : dashed.entrySet()) {
      XYSeries xs = chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]);
      xs.setMarker(SeriesMarkers.NONE);
      xs.setLineStyle(dashed());
      xs.setLineColor(Color.GRAY);
    }
    return save(chart, dir, file);
  }
}
