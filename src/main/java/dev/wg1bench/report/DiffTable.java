package dev.wg1bench.report;

import dev.wg1bench.result.PointsDiff;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The diff of two saved results as a table: the console's ({@code diff}) and the report page's
 * section. It formats a {@link PointsDiff}; the matching and the statistics are {@code
 * advise.ResultDiff}'s.
 */
public final class DiffTable {
  private DiffTable() {}

  /** What the intervals are over, in words, for the table's heading. */
  public static String method(PointsDiff r) {
    Set<String> o = new LinkedHashSet<>();
    r.rows().forEach(x -> o.add(x.over() == null ? "none" : x.over()));
    List<String> parts = new ArrayList<>();
    if (o.contains(PointsDiff.OVER_REPEATS)) {
      parts.add("Welch's t on log tps over each point's repeats");
    }
    if (o.contains(PointsDiff.OVER_ITERATIONS)) {
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

  public static void print(PointsDiff r, double margin, PrintStream out) {
    out.println(method(r));
    int w = r.rows().stream().mapToInt(x -> PointsDiff.label(x.point()).length()).max().orElse(5);
    out.printf(
        Locale.ROOT,
        "%-" + w + "s %5s %10s %10s %7s %18s %6s %6s  %s%n",
        columns("n", "verdict (margin \u00b1" + pct(margin) + ")").toArray());
    for (PointsDiff.Row row : r.rows()) {
      out.printf(
          Locale.ROOT,
          "%-" + w + "s %5s %10.1f %10.1f %7.3f %18s %6.2f %6.2f  %s%n",
          PointsDiff.label(row.point()),
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
    for (PointsDiff.Row row : r.rows()) {
      out.printf("%n%s, per op:%n", PointsDiff.label(row.point()));
      out.print(
          PerOpConsole.arms("  ", "base", row.basePerOp(), "new", row.newPerOp(), row.mechanism()));
    }
    for (String k : r.onlyBase()) {
      out.println("only in base: " + k);
    }
    for (String k : r.onlyNew()) {
      out.println("only in new: " + k);
    }
  }

  /** The same table as HTML, for {@code report --html} given two results (margin ±5%). */
  static void html(StringBuilder h, HtmlReport.Source base, HtmlReport.Source neu, PointsDiff r) {
    h.append("<h2 id=\"diff\">")
        .append(HtmlReport.esc(neu.name()))
        .append(" against ")
        .append(HtmlReport.esc(base.name()))
        .append("</h2>\n");
    if (r.refused() != null) {
      h.append("<p>").append(HtmlReport.esc(r.refused())).append(".</p>\n");
      return;
    }
    h.append("<p>").append(HtmlReport.esc(method(r))).append(".</p>\n<table>\n<thead><tr>");
    for (String c : columns("trials", "verdict")) {
      h.append("<th>").append(HtmlReport.esc(c)).append("</th>");
    }
    h.append("</tr></thead>\n<tbody>\n");
    for (PointsDiff.Row row : r.rows()) {
      h.append("<tr><td>").append(HtmlReport.esc(PointsDiff.label(row.point()))).append("</td>");
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
          .append("</strong><br><span class=\"why\">")
          .append(HtmlReport.esc(row.mechanism() == null ? "" : row.mechanism()))
          .append("</span></td></tr>\n");
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
}
