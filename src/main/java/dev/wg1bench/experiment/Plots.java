package dev.wg1bench.experiment;

import dev.wg1bench.plan.RunFailure;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG charts of the experiments (XChart, headless): bars per variant, lines per job count. */
final class Plots {
  static {
    // before any AWT class initializes: no display on a server
    System.setProperty("java.awt.headless", "true");
  }

  static final int WIDTH = 900;
  static final int HEIGHT = 540;
  private static final Color[] COLORS = {
    new Color(31, 119, 180),
    new Color(255, 127, 14),
    new Color(44, 160, 44),
    new Color(148, 103, 189)
  };

  private Plots() {}

  /**
   * Grouped bars: one group per category, one bar per series (e.g. t_mono, t_random). Values at or
   * below zero are drawn at a floor on a log axis.
   */
  static Path bars(
      Path dir,
      String file,
      String title,
      String xTitle,
      String yTitle,
      List<String> categories,
      Map<String, List<Double>> series,
      boolean log) {
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(title)
            .xAxisTitle(xTitle)
            .yAxisTitle(yTitle)
            .build();
    Styler s = chart.getStyler();
    style(s);
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
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
  static Path lines(
      Path dir,
      String file,
      String title,
      String xTitle,
      String yTitle,
      Map<String, double[][]> series,
      Map<String, double[][]> dashed) {
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(title)
            .xAxisTitle(xTitle)
            .yAxisTitle(yTitle)
            .build();
    style(chart.getStyler());
    chart.getStyler().setXAxisDecimalPattern("#,##0");
    chart.getStyler().setYAxisDecimalPattern("#,##0.##");
    chart.getStyler().setYAxisMin(0.0);
    for (Map.Entry<String, double[][]> e : series.entrySet()) {
      XYSeries xs = chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]);
      xs.setMarker(SeriesMarkers.CIRCLE);
    }
    for (Map.Entry<String, double[][]> e : dashed.entrySet()) {
      XYSeries xs = chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]);
      xs.setMarker(SeriesMarkers.NONE);
      xs.setLineStyle(new java.awt.BasicStroke(1.5f, 0, 0, 10f, new float[] {6f, 4f}, 0f));
      xs.setLineColor(Color.GRAY);
    }
    return save(chart, dir, file);
  }

  private static void style(Styler s) {
    s.setChartBackgroundColor(Color.WHITE);
    s.setPlotBackgroundColor(Color.WHITE);
    s.setLegendPosition(Styler.LegendPosition.OutsideS);
    s.setLegendLayout(Styler.LegendLayout.Horizontal);
    s.setLegendBorderColor(Color.WHITE);
    s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    s.setSeriesColors(COLORS);
    s.setAntiAlias(true);
  }

  private static Path save(Chart<?, ?> chart, Path dir, String file) {
    Path p = dir.resolve(file);
    try {
      Files.createDirectories(dir);
      try (OutputStream os = Files.newOutputStream(p)) {
        BitmapEncoder.saveBitmap(chart, os, BitmapEncoder.BitmapFormat.PNG);
      }
    } catch (IOException e) {
      throw new RunFailure("cannot write plot " + p + ": " + e.getMessage(), e);
    }
    return p;
  }
}
