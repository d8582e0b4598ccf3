package dev.wg1bench.report;

import dev.wg1bench.plot.Charts;
import dev.wg1bench.result.TrialResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The latency percentile distribution, drawn from the HdrHistograms the result keeps (as
 * HdrHistogram's own plotter draws it): the x axis spreads the tail, 90%, 99%, 99.9% a step apart,
 * so the whole distribution reads at once instead of four printed percentiles.
 */
final class LatencyPlots {
  private LatencyPlots() {}

  /** Steps of the x axis: 0 is the median's side, each step one more nine. */
  private static final String[] TICKS = {"0%", "90%", "99%", "99.9%", "99.99%", "99.999%"};

  /**
   * One line per trial of these points (repeats apart, as recorded), null when no trial kept a
   * histogram.
   *
   * @param points legend label to the point's trials, in report order
   */
  static Plots.Figure distribution(
      String name, String workload, String context, Map<String, List<TrialResult>> points) {
    String title = workload + ": latency by percentile \u00b7 " + context;
    List<String> labels = new ArrayList<>();
    List<Histogram> hs = new ArrayList<>();
    for (Map.Entry<String, List<TrialResult>> e : points.entrySet()) {
      histograms(e.getKey(), e.getValue(), labels, hs);
    }
    if (hs.isEmpty()) {
      return null;
    }
    int longest = labels.stream().mapToInt(String::length).max().orElse(0);
    boolean below = Charts.legendBelow(labels.size(), longest);
    int height = below ? Plots.HEIGHT + Plots.LEGEND_ROW * labels.size() : Plots.HEIGHT;
    XYChart c = new XYChart(Plots.WIDTH, height);
    c.setTitle(title);
    // the axis counts nines (1 = 90%, 2 = 99%, 3 = 99.9%) in plain numbers: XChart 3.8.8's tick
    // calculator with a custom label formatter that repeats a label (the blank between nines)
    // widens its step forever on some data, which hung a report in a CI run
    c.setXAxisTitle("percentile, in nines: 1 = 90%, 2 = 99%, 3 = 99.9%, 4 = 99.99%");
    c.setYAxisTitle("latency (ms)");
    AxesChartStyler s = Charts.style(c.getStyler(), below);
    s.setYAxisDecimalPattern("#,##0.##");
    s.setXAxisDecimalPattern("0.#");
    Plots.fitTitle(s, title);
    s.setYAxisMin(0.0);
    s.setXAxisMin(0.0);
    s.setLegendVisible(labels.size() > 1);
    double right = lines(c, labels, hs);
    double max = Math.min(TICKS.length - 1, Math.ceil(right));
    s.setXAxisMax(Math.max(1.0, max));
    return new Plots.Figure(
        name,
        title,
        "Latency of successful ops at each percentile, from the trial's HdrHistogram; the axis"
            + " gives each further nine the same width, so the tail is as readable as the median.",
        Charts.png(c),
        Plots.WIDTH,
        height);
  }

  /**
   * Adds the trials' histograms that recorded ops, each under its own series name (the point's
   * label, with the repeat when the point has several).
   */
  private static void histograms(
      String label, List<TrialResult> ts, List<String> labels, List<Histogram> hs) {
    for (TrialResult t : ReportOrder.sortedTrials(ts)) {
      Histogram h = t.measurement().latencyHistogramDecoded();
      if (h != null && h.getTotalCount() > 0) {
        String l = ts.size() > 1 ? label + ", repeat " + t.repeat() : label;
        // repeats pooled from several files share a number: series names must differ
        String unique = l;
        for (int k = 2; labels.contains(unique); k++) {
          unique = l + " (" + k + ")";
        }
        labels.add(unique);
        hs.add(h);
      }
    }
  }

  /** A line per histogram over the scale of nines; returns the furthest nine a line reaches. */
  private static double lines(XYChart c, List<String> labels, List<Histogram> hs) {
    double right = 0;
    for (int i = 0; i < hs.size(); i++) {
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (HistogramIterationValue v : hs.get(i).percentiles(5)) {
        double p = v.getPercentileLevelIteratedTo();
        if (p >= 100.0) {
          // the last value sits at 100%, which has no place on a scale of nines
          break;
        }
        x.add(Math.log10(100.0 / (100.0 - p)));
        y.add(v.getValueIteratedTo() / 1000.0);
      }
      if (x.isEmpty()) {
        continue;
      }
      right = Math.max(right, x.get(x.size() - 1));
      Color color = Charts.PALETTE[i % Charts.PALETTE.length];
      XYSeries line = c.addSeries(labels.get(i), x, y);
      line.setLineColor(color);
      line.setMarker(SeriesMarkers.NONE);
      line.setLineStyle(new BasicStroke(2.5f));
    }
    return right;
  }
}
