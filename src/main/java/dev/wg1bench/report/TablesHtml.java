package dev.wg1bench.report;

import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.ErrorRecord;
import dev.wg1bench.result.MatrixInfo;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.PointSummary;
import dev.wg1bench.result.TrialResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The page's tables of numbers: the per-point summary, the trials and the order they ran in, and
 * the errors. Points and trials are listed in report order (workload, target, knob values), not in
 * the randomized run order; the run order is stated beside them, as a comparison must say how its
 * trials were ordered.
 */
final class TablesHtml {
  private TablesHtml() {}

  static void summary(
      StringBuilder h, List<PointSummary> summaries, List<TrialResult> trials, List<String> keys) {
    Map<Map<String, String>, List<TrialResult>> byPoint = byPoint(trials);
    h.append(
        "<p>Median over the repeats of each point; failed ops, retries and clients stopped by an"
            + " error that won't heal summed over them.</p>\n");
    boolean stops =
        trials.stream()
            .anyMatch(
                t -> t.measurement().stoppedBy() != null || stoppedBy(t.measurement()) != null);
    List<Column<PointRow>> shown = Column.onPage(PointColumns.ALL);
    List<String> columns = new ArrayList<>(Column.headers(shown));
    if (stops) {
      columns.add("stopped by");
    }
    Html.tableHead(h, keys, columns);
    for (PointRow r : PointRow.of(ReportOrder.sortedSummaries(summaries), trials)) {
      PointSummary s = r.summary();
      List<TrialResult> ts = byPoint.getOrDefault(s.point(), List.of());
      h.append("<tr>");
      keys.forEach(k -> Html.td(h, s.point().get(k)));
      shown.forEach(c -> c.html(h, r));
      if (stops) {
        Set<String> why = new LinkedHashSet<>();
        for (TrialResult t : ts) {
          addIfSet(why, stoppedBy(t.measurement()));
          addIfSet(why, t.measurement().stoppedBy());
        }
        h.append("<td class=\"msg\">").append(Html.esc(String.join("\n", why))).append("</td>");
      }
      h.append("</tr>\n");
    }
    h.append("</tbody>\n</table>\n");
  }

  /** Trials of each source by point, with each one's place in the run order and its failures. */
  static void trials(StringBuilder h, List<HtmlReport.Source> sources, List<String> keys) {
    h.append(
        "<p>Sorted by point. <b>ran</b> is the trial's place in the order the run executed them"
            + " (see <a href=\"#runorder\">Run order</a>). tps &plusmn; the half-width of its 95%"
            + " confidence interval by batch means over the per-second samples (none when the"
            + " run was too short for one).</p>\n");
    for (HtmlReport.Source s : sources) {
      if (sources.size() > 1) {
        h.append("<h3>").append(Html.esc(s.name())).append("</h3>\n");
      }
      int n = s.run().trials().size();
      // the trial's place in the sweep leads, as the CSV's sequence and repeat do
      List<Column<TrialResult>> shown = Column.onPage(TrialColumns.ALL);
      List<String> columns = new ArrayList<>(List.of("repeat", "ran"));
      columns.addAll(Column.headers(shown));
      Html.tableHead(h, keys, columns);
      for (TrialResult t : ReportOrder.sortedTrials(s.run().trials())) {
        h.append("<tr>");
        keys.forEach(k -> Html.td(h, t.point() == null ? null : t.point().get(k)));
        Html.num(h, Integer.toString(t.repeat()));
        Html.num(h, t.sequence() + " of " + n);
        shown.forEach(c -> c.html(h, t));
        h.append("</tr>\n");
      }
      h.append("</tbody>\n</table>\n");
    }
  }

  /**
   * The order the trials ran in, folded: how they were ordered (random or sequential, its seed) and
   * each trial's point, so drift over the run can be told from a difference between points.
   */
  static void runOrder(StringBuilder h, List<HtmlReport.Source> sources, List<String> keys) {
    for (HtmlReport.Source s : sources) {
      BenchmarkRun r = s.run();
      MatrixInfo mi = r.matrix();
      h.append("<p>")
          .append(sources.size() > 1 ? "<b>" + Html.esc(s.name()) + "</b>: " : "")
          .append(Html.esc(orderText(mi, r.trials().size())))
          .append("</p>\n<details><summary>the ")
          .append(r.trials().size())
          .append(" trials in the order they ran</summary>\n<ol class=\"runorder\">\n");
      List<TrialResult> ts = new ArrayList<>(r.trials());
      ts.sort(Comparator.comparingInt(TrialResult::sequence));
      for (TrialResult t : ts) {
        h.append("<li value=\"")
            .append(t.sequence())
            .append("\">")
            .append(Html.esc(Plots.label(t.point() == null ? Map.of() : t.point(), keys)))
            .append(" #")
            .append(t.repeat())
            .append(" <small>")
            .append(Html.esc(ReportOrder.date(t.startedAt())))
            .append("</small></li>\n");
      }
      h.append("</ol>\n</details>\n");
    }
  }

  static String orderText(MatrixInfo mi, int trials) {
    if (mi == null) {
      return trials + " trials; the result does not say how they were ordered.";
    }
    String order =
        "random".equalsIgnoreCase(mi.order())
            ? "in a random order (seed " + mi.seed() + ", reproduced with --seed " + mi.seed() + ")"
            : "in " + Html.nz(mi.order()) + " order";
    return trials
        + " trials ("
        + mi.points()
        + " points \u00d7 "
        + mi.repeat()
        + " repeats) ran "
        + order
        + "; between trials: "
        + Html.nz(mi.betweenTrials())
        + ".";
  }

  static void errors(StringBuilder h, List<TrialResult> trials, List<String> keys) {
    Html.tableHead(
        h,
        List.of(),
        List.of(
            "ran",
            "point",
            "phase",
            "kind",
            "SQLSTATE",
            "count",
            "retried",
            "first at",
            "first message"));
    for (TrialResult t : ReportOrder.sortedTrials(trials)) {
      if (t.errors() == null) {
        continue;
      }
      for (ErrorRecord e : t.errors()) {
        h.append("<tr>");
        Html.num(h, Integer.toString(t.sequence()));
        Html.td(h, Plots.label(t.point(), keys) + " #" + t.repeat());
        Html.td(h, e.phase());
        Html.td(h, e.kind());
        Html.td(h, e.sqlState());
        Html.num(h, Long.toString(e.count()));
        Html.num(h, Long.toString(e.retried()));
        Html.date(h, ReportOrder.date(e.firstAt()));
        h.append("<td class=\"msg\">").append(Html.esc(e.firstMessage())).append("</td>");
        h.append("</tr>\n");
      }
    }
    h.append("</tbody>\n</table>\n");
  }

  private static String stoppedBy(Measurement m) {
    return m.clientsStopped() > 0 ? m.clientsStoppedBy() : null;
  }

  private static void addIfSet(Set<String> s, String v) {
    if (v != null && !v.isBlank()) {
      s.add(v);
    }
  }

  private static Map<Map<String, String>, List<TrialResult>> byPoint(List<TrialResult> trials) {
    Map<Map<String, String>, List<TrialResult>> out = new LinkedHashMap<>();
    trials.forEach(t -> out.computeIfAbsent(t.point(), k -> new ArrayList<>()).add(t));
    return out;
  }
}
