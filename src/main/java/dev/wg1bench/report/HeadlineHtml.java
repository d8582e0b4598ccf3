package dev.wg1bench.report;

import dev.wg1bench.result.Latency;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.TrialResult;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The answer a run of one point gives, at the top of its page: per trial its throughput with its
 * interval, the latency percentiles, what failed and the verdict, as the result states them.
 */
final class HeadlineHtml {
  private HeadlineHtml() {}

  static void section(StringBuilder h, List<TrialResult> trials) {
    List<TrialResult> ts = ReportOrder.sortedTrials(trials);
    lead(h, ts);
    boolean repeats = ts.size() > 1;
    h.append("<table class=\"headline\">\n<thead><tr>");
    columns(repeats).forEach(c -> Html.th(h, c));
    h.append("</tr></thead>\n<tbody>\n");
    for (TrialResult t : ts) {
      row(h, t, repeats);
    }
    h.append("</tbody>\n</table>\n");
  }

  /** The line above the table: which point, and what tps's ± is over. */
  private static void lead(StringBuilder h, List<TrialResult> ts) {
    Set<String> intervals = new LinkedHashSet<>();
    ts.forEach(t -> addIfSet(intervals, t.measurement().tpsInterval()));
    h.append("<p class=\"lead\">");
    h.append(Html.esc(Plots.label(ts.get(0).point(), List.of("target", "clients"))));
    h.append(": tps &plusmn; the half-width of its ");
    h.append(
        intervals.isEmpty()
            ? "95% confidence interval (none when the run was too short for one)"
            : Html.esc(String.join("; ", intervals)));
    h.append("; latency of successful ops in ms.</p>\n");
  }

  private static List<String> columns(boolean repeats) {
    List<String> columns = new ArrayList<>();
    if (repeats) {
      columns.add("repeat");
    }
    columns.addAll(
        List.of(
            "tps",
            "p50 (ms)",
            "p90 (ms)",
            "p99 (ms)",
            "p99.9 (ms)",
            "max (ms)",
            "ops",
            "failed ops",
            "total failed ops",
            "retries",
            "clients stopped",
            "verdict"));
    return columns;
  }

  /** One trial's row: its tps and interval large, then its latencies, counts and verdict. */
  private static void row(StringBuilder h, TrialResult t, boolean repeats) {
    Measurement m = t.measurement();
    Latency l = m.latencyMs();
    h.append("<tr>");
    if (repeats) {
      Html.num(h, Integer.toString(t.repeat()));
    }
    h.append("<td class=\"n big\">")
        .append(Html.esc(HtmlReport.tps(m.tps())))
        .append(
            m.tpsError() == null
                ? ""
                : " <small>&plusmn; " + Html.esc(HtmlReport.tps(m.tpsError())) + "</small>")
        .append("</td>");
    for (double v :
        l == null
            ? new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN}
            : new double[] {l.p50(), l.p90(), l.p99(), l.p999(), l.max()}) {
      Html.num(h, HtmlReport.ms(v));
    }
    Html.num(h, Long.toString(m.ops()));
    // the measured windows' figure, as the trials table gives it; then the whole trial's
    Html.num(h, Long.toString(m.failedOps()));
    Html.num(h, Long.toString(m.totalFailedOps()));
    Html.num(h, Long.toString(m.retries()));
    Html.num(h, Integer.toString(m.clientsStopped()));
    verdict(h, t);
    h.append("</tr>\n");
  }

  /** What the result says went wrong, or "ok": stopped clients, failed ops, a failed --check. */
  private static void verdict(StringBuilder h, TrialResult t) {
    Measurement m = t.measurement();
    List<String> bad = new ArrayList<>();
    if (m.clientsStopped() > 0) {
      bad.add(
          m.clientsStopped()
              + (m.clientsStopped() == 1 ? " client" : " clients")
              + " stopped"
              + (m.clientsStoppedBy() == null ? "" : ": " + Html.oneLine(m.clientsStoppedBy())));
    }
    if (m.stoppedBy() != null) {
      bad.add("stopped: " + Html.oneLine(m.stoppedBy()));
    }
    if (m.totalFailedOps() > 0) {
      bad.add(m.totalFailedOps() + " failed ops in the trial (see Errors)");
    }
    if (t.check() != null) {
      bad.add(t.check().summary());
    }
    boolean ok =
        m.clientsStopped() == 0
            && m.stoppedBy() == null
            && m.totalFailedOps() == 0
            && (t.check() == null || t.check().passed());
    h.append("<td class=\"")
        .append(ok ? "ok" : "bad")
        .append("\">")
        .append(Html.esc(bad.isEmpty() ? "ok" : String.join("; ", bad)))
        .append("</td>");
  }

  private static void addIfSet(Set<String> s, String v) {
    if (v != null && !v.isBlank()) {
      s.add(v);
    }
  }
}
