package dev.wg1bench.report;

import dev.wg1bench.result.PerOp;
import dev.wg1bench.result.PointsDiff;
import dev.wg1bench.result.Prediction;
import dev.wg1bench.result.Predictions;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.server.window.ServerSide;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The page's panel per trial of where an op's time goes: a bar of its mean latency split into the
 * server's time, the wire's at the round-trip time it ran at and the rest (result.Predictions'
 * split), the predictions at other round-trip times, the clients' wait profile and the top
 * statements; the panels side by side in a grid, so two results or two arms read across. A figure
 * the trial did not count is said so, never drawn as 0.
 */
final class OpTimeHtml {
  /** Wait states and statements a panel lists: the rest are in the JSON. */
  static final int TOP = 5;

  private OpTimeHtml() {}

  /** Whether any trial of the page has a figure for the panel. */
  static boolean any(List<HtmlReport.Source> sources) {
    return sources.stream()
        .flatMap(s -> s.run().trials().stream())
        .anyMatch(t -> t.measurement() != null && t.measurement().perOp() != null);
  }

  static void section(StringBuilder h, List<HtmlReport.Source> sources) {
    h.append(
        "<p>Per trial: its mean op latency split into the server's time (its statements'"
            + " execution and planning, pg_stat_statements), the time on the wire at the"
            + " round-trip time it ran at (round trips per op \u00d7 the RTT set) and the rest"
            + " (client, driver, pool); the clients' sessions as sampled from pg_stat_activity;"
            + " the statements that took the server's time, over the measured window.</p>\n");
    h.append("<div class=\"optimes\">\n");
    for (HtmlReport.Source s : sources) {
      for (TrialResult t : s.run().trials()) {
        if (t.measurement() != null) {
          panel(h, sources.size() > 1 ? s.name() + ": " : "", t);
        }
      }
    }
    h.append("</div>\n");
  }

  private static void panel(StringBuilder h, String source, TrialResult t) {
    String label = PointsDiff.label(t.point() == null ? Map.of() : t.point());
    h.append("<div class=\"optime\">\n<h3>")
        .append(esc(source + (label.isEmpty() ? t.target() : label) + ", repeat " + t.repeat()))
        .append("</h3>\n");
    bar(h, t);
    perOp(h, t.measurement().perOp());
    predictions(h, t.measurement().prediction());
    ServerSide side = t.measurement().serverSide();
    waits(h, side);
    statements(h, side);
    h.append("</div>\n");
  }

  /** The bar: each part's width its share of the mean latency, its figure in its data-ms. */
  private static void bar(StringBuilder h, TrialResult t) {
    Predictions.Split s = Predictions.split(t);
    if (s == null) {
      PerOp p = t.measurement().perOp();
      h.append("<p class=\"nosplit\">Where the time goes: not counted (")
          .append(esc(p != null && p.notCounted() != null ? p.notCounted() : "no per-op figures"))
          .append(").</p>\n");
      return;
    }
    // a rest below zero (server time the latency does not hold) is no width; its figure stands
    double total = s.serverMs() + s.wireMs() + Math.max(0, s.restMs());
    h.append("<div class=\"bar\" data-latency-ms=\"").append(ms(s.latencyMs())).append("\">");
    segment(h, "server", "server", s.serverMs(), total);
    segment(h, "wire", "wire at rtt " + ms(s.rttMs()) + " ms", s.wireMs(), total);
    segment(h, "rest", "client and the rest", s.restMs(), total);
    h.append("</div>\n<p class=\"legend\">mean ")
        .append(ms(s.latencyMs()))
        .append(" ms: <span class=\"k server\"></span>server ")
        .append(ms(s.serverMs()))
        .append(" ms, <span class=\"k wire\"></span>wire at rtt ")
        .append(ms(s.rttMs()))
        .append(" ms ")
        .append(ms(s.wireMs()))
        .append(" ms, <span class=\"k rest\"></span>client and the rest ")
        .append(ms(s.restMs()))
        .append(" ms</p>\n");
  }

  private static void segment(StringBuilder h, String cls, String name, double v, double total) {
    double pct = total > 0 ? 100 * Math.max(0, v) / total : 0;
    h.append("<span class=\"")
        .append(cls)
        .append("\" data-ms=\"")
        .append(ms(v))
        .append("\" style=\"width:")
        .append(String.format(Locale.ROOT, "%.3f", pct))
        .append("%\" title=\"")
        .append(esc(name + " " + ms(v) + " ms"))
        .append("\"></span>");
  }

  private static void perOp(StringBuilder h, PerOp p) {
    if (p == null) {
      return;
    }
    h.append("<p class=\"perop\">per op: ")
        .append(esc(PerOpConsole.perOp(p.roundTrips())))
        .append(" round trips, ")
        .append(esc(PerOpConsole.perOp(p.statements())))
        .append(" statements, ")
        .append(esc(PerOpConsole.perOp(p.rows())))
        .append(" rows, ")
        .append(esc(PerOpConsole.perOp(p.bytesSent())))
        .append(" B sent, ")
        .append(esc(PerOpConsole.perOp(p.bytesReceived())))
        .append(" B received</p>\n");
  }

  private static void predictions(StringBuilder h, List<Prediction> ps) {
    if (ps == null || ps.isEmpty()) {
      return;
    }
    h.append("<p class=\"predicted\">predicted:");
    for (Prediction p : ps) {
      h.append(" <span data-rtt-ms=\"")
          .append(ms(p.rttMs()))
          .append("\">rtt ")
          .append(ms(p.rttMs()))
          .append(" ms: mean ")
          .append(ms(p.latencyMeanMs()))
          .append(" ms")
          .append(p.tps() == null ? "" : String.format(Locale.ROOT, ", %.1f tps", p.tps()))
          .append("</span>");
    }
    h.append("</p>\n");
  }

  private static void waits(StringBuilder h, ServerSide side) {
    if (side == null || side.waits() == null) {
      h.append("<p class=\"nowaits\">Waits: not counted")
          .append(side == null ? "" : " (" + esc(side.waitsWhy()) + ")")
          .append(".</p>\n");
      return;
    }
    h.append("<table class=\"waits\">\n<thead><tr><th>clients' sessions</th><th>share</th></tr>")
        .append("</thead>\n<tbody>\n");
    for (ServerSide.WaitShare w : side.waits().stream().limit(TOP).toList()) {
      h.append("<tr><td>")
          .append(esc(w.name()))
          .append("</td><td class=\"n\">")
          .append(String.format(Locale.ROOT, "%.1f%%", 100 * w.share()))
          .append("</td></tr>\n");
    }
    h.append("</tbody>\n</table>\n");
    if (side.waitsWhy() != null) {
      // where the pids came from (behind a session-mode pooler), or why the sampler stopped early
      h.append("<p class=\"waitsnote\">").append(esc(side.waitsWhy())).append(".</p>\n");
    }
  }

  private static void statements(StringBuilder h, ServerSide side) {
    if (side == null || side.statements() == null) {
      h.append("<p class=\"nostatements\">Statements: not counted")
          .append(side == null ? "" : " (" + esc(side.statementsWhy()) + ")")
          .append(".</p>\n");
      return;
    }
    h.append("<table class=\"statements\">\n<thead><tr><th>calls</th><th>total ms</th>")
        .append("<th>mean ms</th><th>rows</th><th>statement</th></tr></thead>\n<tbody>\n");
    for (ServerSide.StatementFigures f : side.statements().stream().limit(TOP).toList()) {
      h.append("<tr><td class=\"n\">")
          .append(f.calls())
          .append("</td><td class=\"n\">")
          .append(String.format(Locale.ROOT, "%.1f", f.totalExecMs()))
          .append("</td><td class=\"n\">")
          .append(String.format(Locale.ROOT, "%.3f", f.meanExecMs()))
          .append("</td><td class=\"n\">")
          .append(f.rows())
          .append("</td><td class=\"q\">")
          .append(esc(ServerSideConsole.oneLine(f.query())))
          .append("</td></tr>\n");
    }
    h.append("</tbody>\n</table>\n");
  }

  private static String ms(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }

  private static String esc(String s) {
    return HtmlReport.esc(s == null ? "" : s);
  }

  /** The panel's style: its grid, its bar and the bar's legend keys. */
  static final String CSS =
      """
      div.optimes { display: grid; grid-template-columns: repeat(auto-fill, minmax(380px, 1fr));
                    gap: 1em; }
      div.optime { border: 1px solid #ddd; padding: 0.5em 0.8em; min-width: 0; }
      div.optime h3 { font-size: 1em; margin: 0.2em 0 0.5em; overflow-wrap: anywhere; }
      div.bar { display: flex; height: 1.4em; background: #f3f3f3; }
      div.bar span { display: block; height: 100%; }
      .server { background: #1f77b4; } .wire { background: #ff7f0e; } .rest { background: #7f7f7f; }
      span.k { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.25em; }
      div.optime table { font-size: 0.85em; } div.optime td.q { overflow-wrap: anywhere; }
      """;
}
