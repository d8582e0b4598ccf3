package dev.wg1bench.report;

import dev.wg1bench.result.CommandStats;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.ScriptStats;
import dev.wg1bench.result.TrialResult;
import java.util.List;
import java.util.Locale;

/**
 * The page's "Scripts and commands" section: per trial, each script of a weighted mix (its share of
 * the ops, tps, failures, retries, latency) and, with -r, each command's figures as pgbench -r
 * lists them, with the count and stddev pgbench leaves out. Nothing when no trial has them.
 */
final class CommandsHtml {
  private CommandsHtml() {}

  static void section(StringBuilder h, List<TrialResult> trials, List<String> keys) {
    if (trials.stream()
        .noneMatch(t -> t.measurement() != null && t.measurement().scripts() != null)) {
      return;
    }
    h.append("<h2 id=\"commands\">Scripts and commands</h2>\n");
    h.append(
        "<p>Over the measurement windows only, as the headline figures. Command latencies are"
            + " timed in the client around each execution (meta commands included), as pgbench -r"
            + " does; a retry is counted on the command whose error caused it, a failed op on the"
            + " command that failed last. A workload class's steps (<code>op.step</code>) are its"
            + " commands: timed around each completion, a retry or failure counted on the step it"
            + " was thrown from, with percentiles from each step's histogram.</p>\n");
    long withScripts =
        trials.stream()
            .filter(t -> t.measurement() != null && t.measurement().scripts() != null)
            .count();
    for (TrialResult t : trials) {
      Measurement m = t.measurement();
      if (m == null || m.scripts() == null) {
        continue;
      }
      h.append("<h3>#")
          .append(t.sequence())
          .append(' ')
          .append(Html.esc(Plots.label(t.point(), keys)))
          .append(" #")
          .append(t.repeat())
          .append("</h3>\n");
      Html.tableHead(
          h,
          List.of(),
          List.of(
              "script",
              "weight",
              "ops",
              "share of ops",
              "tps",
              "failed ops",
              "retried ops (successful)",
              "retries",
              "latency mean (ms)",
              "latency stddev (ms)"));
      scriptRows(h, m);
      h.append("</tbody>\n</table>\n");
      if (m.scripts().stream().allMatch(s -> s.commands() == null)) {
        continue;
      }
      // a sweep has one command table per trial: folded, or the page becomes a wall of statements
      h.append(withScripts == 1 ? "<details open>" : "<details>")
          .append("<summary>commands, latency in the client, failures and retries</summary>\n");
      Html.tableHead(
          h,
          List.of(),
          List.of(
              "file:line",
              "command",
              "count",
              "avg (ms)",
              "stddev (ms)",
              "failures",
              "retries",
              "p50 (ms)",
              "p99 (ms)"));
      commandRows(h, m);
      h.append("</tbody>\n</table>\n</details>\n");
    }
  }

  /** One row per script of a trial. */
  private static void scriptRows(StringBuilder h, Measurement m) {
    for (ScriptStats s : m.scripts()) {
      h.append("<tr>");
      Html.td(h, s.index() + ": " + s.name());
      Html.num(h, Integer.toString(s.weight()));
      Html.num(h, Long.toString(s.ops()));
      Html.num(
          h, String.format(Locale.ROOT, "%.1f%%", m.ops() > 0 ? 100.0 * s.ops() / m.ops() : 0.0));
      Html.num(h, HtmlReport.tps(s.tps()));
      Html.num(h, Long.toString(s.failedOps()));
      Html.num(h, Long.toString(s.retriedOps()));
      Html.num(h, Long.toString(s.retries()));
      Html.num(h, s.latencyMeanMs() == null ? "" : HtmlReport.ms(s.latencyMeanMs()));
      Html.num(h, s.latencyStddevMs() == null ? "" : HtmlReport.ms(s.latencyStddevMs()));
      h.append("</tr>\n");
    }
  }

  /** One row per command of every script of a trial that timed its commands. */
  private static void commandRows(StringBuilder h, Measurement m) {
    for (ScriptStats s : m.scripts()) {
      if (s.commands() == null) {
        continue;
      }
      for (CommandStats c : s.commands()) {
        h.append("<tr>");
        Html.td(h, c.location());
        h.append("<td><code>").append(Html.esc(c.text())).append("</code></td>");
        Html.num(h, Long.toString(c.count()));
        Html.num(h, c.avgMs() == null ? "" : HtmlReport.ms(c.avgMs()));
        Html.num(h, c.stddevMs() == null ? "" : HtmlReport.ms(c.stddevMs()));
        Html.num(h, Long.toString(c.failures()));
        Html.num(h, Long.toString(c.retries()));
        Html.num(h, c.p50Ms() == null ? "" : HtmlReport.ms(c.p50Ms()));
        Html.num(h, c.p99Ms() == null ? "" : HtmlReport.ms(c.p99Ms()));
        h.append("</tr>\n");
      }
    }
  }
}
