package dev.wg1bench.history.report;

import dev.wg1bench.history.analysis.ChangePointFinder;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.report.CsvReport;
import dev.wg1bench.report.HtmlReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code history report --html DIR}: an index page listing every series with its latest change,
 * then one page per series: the answer first (its latest change, or none), its chart (each run with
 * its own interval, segment means, change points), the change points' table and every run's commit.
 * The report's conventions: self-contained pages (the style sheet inline, the chart as a data URI,
 * its PNG next to the page), every text escaped, readable in a 1400-px window.
 */
public final class HistoryReport {
  private HistoryReport() {}

  /**
   * One series' page: where it is, what its analysis found, and each change's mechanism (the line
   * naming how the configuration's per-op figures moved with it, by change point index).
   */
  private record Page(
      Series series, String file, List<ChangePointFinder.Shift> shifts, Map<Integer, String> why) {
    ChangePointFinder.Shift latest() {
      return shifts.isEmpty() ? null : shifts.get(shifts.size() - 1);
    }
  }

  /**
   * Writes DIR/index.html and one DIR/series/N-NAME.html (with its .png) per series.
   *
   * @param finder the change-point analysis; null where none is available (the pages say so)
   * @param history where the series came from, for the pages' footers
   */
  public static Path write(
      List<Series> series, ChangePointFinder finder, Path dir, String history) {
    List<Page> pages = new ArrayList<>();
    Map<String, Series> byName = new LinkedHashMap<>();
    series.forEach(s -> byName.put(s.name(), s));
    for (int i = 0; i < series.size(); i++) {
      Series s = series.get(i);
      List<ChangePointFinder.Shift> shifts = finder == null ? List.of() : finder.find(s);
      pages.add(
          new Page(
              s,
              "series/" + (i + 1) + "-" + slug(s.name()),
              shifts,
              HistoryWhy.of(s, shifts, byName)));
    }
    try {
      Files.createDirectories(dir.resolve("series"));
      for (Page p : pages) {
        byte[] png = HistoryChart.png(p.series(), p.shifts());
        Files.write(dir.resolve(p.file() + ".png"), png);
        CsvReport.atomicWrite(
            dir.resolve(p.file() + ".html"), seriesPage(p, png, finder != null, history));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir + ": " + e.getMessage(), e);
    }
    Path index = dir.resolve("index.html");
    CsvReport.atomicWrite(index, index(pages, finder != null, history));
    return index;
  }

  /** A file-name-safe, bounded form of a series' name. */
  static String slug(String name) {
    String s = name.replaceAll("[^A-Za-z0-9._-]+", "_").replaceAll("_+", "_");
    return s.length() > 60 ? s.substring(0, 60) : s;
  }

  static String index(List<Page> pages, boolean analyzed, String history) {
    StringBuilder h = head("wg1bench history: " + pages.size() + " series", "");
    indexLead(h, pages, analyzed);
    h.append("</p>\n<h2 id=\"series\">Series</h2>\n<table class=\"series\">\n<thead><tr>");
    for (String c :
        List.of(
            "series",
            "runs",
            "latest value \u00b1 95% interval",
            "latest change",
            "at run",
            "commit",
            "p")) {
      h.append("<th>").append(esc(c)).append("</th>");
    }
    h.append("</tr></thead>\n<tbody>\n");
    for (Page p : latestChangeFirst(pages)) {
      indexRow(h, p, analyzed);
    }
    h.append("</tbody></table>\n");
    return foot(h, history);
  }

  /** The index's opening paragraph (left open): how many series changed, or why none is shown. */
  private static void indexLead(StringBuilder h, List<Page> pages, boolean analyzed) {
    List<Page> changed = pages.stream().filter(p -> p.latest() != null).toList();
    h.append("<p class=\"lead\">");
    if (!analyzed) {
      h.append("No change-point analysis in this build: the series are drawn without segments.");
    } else if (changed.isEmpty()) {
      h.append("No change point in any of the ").append(pages.size()).append(" series.");
    } else {
      h.append(changed.size())
          .append(" of ")
          .append(pages.size())
          .append(
              " series changed; the series with a change come first, the most recent change"
                  + " first.");
    }
  }

  /**
   * Changed first, the latest change (by the time of its first run) first; the rest by name: what a
   * reader opens the index for is what changed lately.
   */
  private static List<Page> latestChangeFirst(List<Page> pages) {
    List<Page> order = new ArrayList<>(pages);
    order.sort(
        Comparator.comparing((Page p) -> p.latest() == null)
            .thenComparing(
                (Page p) ->
                    p.latest() == null
                        ? Instant.EPOCH
                        : p.series().points().get(p.latest().index()).time(),
                Comparator.reverseOrder())
            .thenComparing(p -> p.series().name()));
    return order;
  }

  /** One series' row: its link, runs, latest value and, if any, its latest change. */
  private static void indexRow(StringBuilder h, Page p, boolean analyzed) {
    List<SeriesPoint> pts = p.series().points();
    SeriesPoint last = pts.get(pts.size() - 1);
    ChangePointFinder.Shift cp = p.latest();
    h.append("<tr><td><a href=\"")
        .append(esc(p.file()))
        .append(".html\">")
        .append(esc(p.series().name()))
        .append("</a></td>");
    num(h, Integer.toString(pts.size()));
    num(h, value(last));
    if (cp == null) {
      h.append("<td>").append(analyzed ? "none" : "").append("</td><td></td><td></td><td></td>");
    } else {
      SeriesPoint at = pts.get(cp.index());
      h.append("<td class=\"n ")
          .append(regression(p.series(), cp) ? "bad" : "ok")
          .append("\">")
          .append(esc(change(cp)))
          .append("</td>");
      num(h, (cp.index() + 1) + " (id " + at.runId() + ")");
      h.append("<td><code>").append(esc(nz(at.commit()))).append("</code></td>");
      num(h, p(cp.p()));
    }
    h.append("</tr>\n");
  }

  static String seriesPage(Page page, byte[] png, boolean analyzed, String history) {
    Series s = page.series();
    StringBuilder h = head(s.name(), "../");
    h.append(
        "<nav><a href=\"../index.html\">all series</a> <a href=\"#changes\">change points</a>"
            + " <a href=\"#runs\">runs</a></nav>\n");
    lead(h, page, analyzed);
    figure(h, s, png);
    changes(h, page, analyzed);
    runs(h, page);
    return foot(h, history);
  }

  /** The answer first: the latest change point, or that there is none. */
  private static void lead(StringBuilder h, Page page, boolean analyzed) {
    Series s = page.series();
    List<SeriesPoint> pts = s.points();
    ChangePointFinder.Shift cp = page.latest();
    h.append("<p class=\"lead\">");
    if (!analyzed) {
      h.append("No change-point analysis in this build. ");
    } else if (cp == null) {
      h.append("No change point in ").append(pts.size()).append(" runs. ");
    } else {
      SeriesPoint at = pts.get(cp.index());
      h.append("Latest change: <b class=\"")
          .append(regression(s, cp) ? "bad" : "ok")
          .append("\">")
          .append(esc(change(cp)))
          .append("</b> (")
          .append(regression(s, cp) ? "a regression" : "an improvement")
          .append(", p = ")
          .append(esc(p(cp.p())))
          .append(") from run ")
          .append(cp.index() + 1)
          .append(" (id ")
          .append(esc(at.runId()))
          .append(at.commit() == null ? "" : ", commit <code>" + esc(at.commit()) + "</code>")
          .append("): mean ")
          .append(esc(fmt(cp.before())))
          .append(" before, ")
          .append(esc(fmt(cp.after())))
          .append(" after. ");
      if (page.why().containsKey(cp.index())) {
        h.append("<span class=\"why\">")
            .append(esc(page.why().get(cp.index())))
            .append(".</span> ");
      }
    }
    h.append(s.higherIsBetter() ? "Higher is better." : "Lower is better.").append("</p>\n");
  }

  /** The chart, with a caption that says what its marks are. */
  private static void figure(StringBuilder h, Series s, byte[] png) {
    List<SeriesPoint> pts = s.points();
    boolean intervals = pts.stream().anyMatch(SeriesPoint::hasInterval);
    h.append("<figure>\n<img src=\"data:image/png;base64,")
        .append(Base64.getEncoder().encodeToString(png))
        .append("\" width=\"")
        .append(HistoryChart.WIDTH)
        .append("\" height=\"")
        .append(HistoryChart.HEIGHT)
        .append("\" alt=\"")
        .append(esc(s.name()))
        .append("\">\n<figcaption>Each run's value")
        .append(intervals ? " with its own 95% interval (batch means) as a whisker" : "")
        .append(
            "; the green lines are the means of the segments between change points, a dashed"
                + " red line stands before the first run of a new segment.</figcaption>\n</figure>\n");
  }

  /** Every change point with its runs, means, change and p. */
  private static void changes(StringBuilder h, Page page, boolean analyzed) {
    Series s = page.series();
    List<SeriesPoint> pts = s.points();
    h.append("<h2 id=\"changes\">Change points</h2>\n");
    if (!analyzed) {
      h.append("<p>No change-point analysis in this build.</p>\n");
    } else if (page.shifts().isEmpty()) {
      h.append("<p>None: the runs are one segment.</p>\n");
    } else {
      h.append("<table class=\"changes\">\n<thead><tr>");
      for (String c :
          List.of(
              "from run",
              "run id",
              "commit",
              "time",
              "mean before",
              "mean after",
              "change",
              "change, 95% interval",
              "p",
              "why (per op, before -> after)")) {
        h.append("<th>").append(esc(c)).append("</th>");
      }
      h.append("</tr></thead>\n<tbody>\n");
      for (ChangePointFinder.Shift x : page.shifts()) {
        SeriesPoint at = pts.get(x.index());
        h.append("<tr>");
        num(h, Integer.toString(x.index() + 1));
        td(h, at.runId());
        h.append("<td><code>").append(esc(nz(at.commit()))).append("</code></td>");
        h.append("<td class=\"d\">").append(esc(at.time().toString())).append("</td>");
        num(h, fmt(x.before()));
        num(h, fmt(x.after()));
        h.append("<td class=\"n ")
            .append(regression(s, x) ? "bad" : "ok")
            .append("\">")
            .append(esc(change(x)))
            .append("</td>");
        num(
            h,
            Double.isNaN(x.changeLow()) ? "" : pct(x.changeLow()) + " to " + pct(x.changeHigh()));
        num(h, p(x.p()));
        h.append("<td class=\"why\">")
            .append(esc(page.why().getOrDefault(x.index(), "")))
            .append("</td>");
        h.append("</tr>\n");
      }
      h.append("</tbody></table>\n");
    }
  }

  /** Every run with its commit and value, the first run of each segment marked. */
  private static void runs(StringBuilder h, Page page) {
    List<SeriesPoint> pts = page.series().points();
    h.append("<h2 id=\"runs\">Runs</h2>\n<table class=\"runs\">\n<thead><tr>");
    for (String c : List.of("run", "run id", "time", "commit", "value", "95% interval")) {
      h.append("<th>").append(esc(c)).append("</th>");
    }
    h.append("</tr></thead>\n<tbody>\n");
    Map<Integer, ChangePointFinder.Shift> starts = new LinkedHashMap<>();
    page.shifts().forEach(x -> starts.put(x.index(), x));
    for (int i = 0; i < pts.size(); i++) {
      SeriesPoint p = pts.get(i);
      h.append(starts.containsKey(i) ? "<tr class=\"cp\">" : "<tr>");
      num(h, Integer.toString(i + 1));
      td(h, p.runId());
      h.append("<td class=\"d\">").append(esc(p.time().toString())).append("</td>");
      h.append("<td><code>").append(esc(nz(p.commit()))).append("</code></td>");
      num(h, fmt(p.value()));
      num(h, p.hasInterval() ? fmt(p.low()) + " to " + fmt(p.high()) : "");
      h.append("</tr>\n");
    }
    h.append("</tbody></table>\n");
  }

  private static boolean regression(Series s, ChangePointFinder.Shift x) {
    return s.higherIsBetter() ? x.change() < 0 : x.change() > 0;
  }

  private static StringBuilder head(String title, String up) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
        .append(esc(title))
        .append("</title>\n<style>\n")
        .append(HtmlReport.css())
        .append(CSS)
        .append("</style>\n</head>\n<body>\n<h1>")
        .append(esc(title))
        .append("</h1>\n");
    return h;
  }

  /** What the history pages add to the report's style sheet. */
  private static final String CSS =
      """
      h1 { overflow-wrap: anywhere; }
      .bad { color: #b42318; } .ok { color: #1a7f37; }
      td.bad, td.ok { font-weight: 600; }
      tr.cp td { border-top: 2px dashed #d62728; }
      table.series td:first-child { overflow-wrap: anywhere; }
      """;

  private static String foot(StringBuilder h, String history) {
    h.append("<footer>Written by wg1bench from the history ")
        .append(esc(history))
        .append(".</footer>\n</body>\n</html>\n");
    return h.toString();
  }

  private static void num(StringBuilder h, String s) {
    h.append("<td class=\"n\">").append(esc(s)).append("</td>");
  }

  private static void td(StringBuilder h, String s) {
    h.append("<td>").append(esc(nz(s))).append("</td>");
  }

  private static String value(SeriesPoint p) {
    return fmt(p.value())
        + (p.hasInterval()
            ? " \u00b1 " + fmt(Math.max(p.high() - p.value(), p.value() - p.low()))
            : "");
  }

  /** Six significant digits, plain: enough for any figure a run measures. */
  static String fmt(double v) {
    if (!Double.isFinite(v)) {
      return "";
    }
    return new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString();
  }

  private static String change(ChangePointFinder.Shift x) {
    return pct(x.change());
  }

  private static String pct(double f) {
    return String.format(Locale.ROOT, "%+.1f%%", 100 * f);
  }

  private static String p(double p) {
    return p < 0.0001
        ? String.format(Locale.ROOT, "%.1e", p)
        : String.format(Locale.ROOT, "%.4f", p);
  }

  private static String esc(String s) {
    return HtmlReport.esc(s);
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }
}
