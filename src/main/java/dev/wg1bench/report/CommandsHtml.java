package dev.wg1bench.report;

import dev.wg1bench.report.CommandColumns.CommandRow;
import dev.wg1bench.report.CommandColumns.ScriptRow;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.ScriptStats;
import dev.wg1bench.result.TrialResult;
import java.util.List;

/**
 * The page's "Scripts and commands" section: per trial, each script of a weighted mix (its share of
 * the ops, tps, failures, retries, latency) and, with -r, each command's figures as pgbench -r
 * lists them, with the count and stddev pgbench leaves out. Nothing when no trial has them.
 */
final class CommandsHtml {
  /** The page's columns of a script and of a command, as {@link CommandColumns} declares. */
  private static final List<Column<ScriptRow>> SCRIPTS = Column.onPage(CommandColumns.SCRIPTS);

  private static final List<Column<CommandRow>> COMMANDS = Column.onPage(CommandColumns.COMMANDS);

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
      Html.tableHead(h, List.of(), Column.headers(SCRIPTS));
      scriptRows(h, m);
      h.append("</tbody>\n</table>\n");
      if (m.scripts().stream().allMatch(s -> s.commands() == null)) {
        continue;
      }
      // a sweep has one command table per trial: folded, or the page becomes a wall of statements
      h.append(withScripts == 1 ? "<details open>" : "<details>")
          .append("<summary>commands, latency in the client, failures and retries</summary>\n");
      Html.tableHead(h, List.of(), Column.headers(COMMANDS));
      commandRows(h, m);
      h.append("</tbody>\n</table>\n</details>\n");
    }
  }

  /** One row per script of a trial. */
  private static void scriptRows(StringBuilder h, Measurement m) {
    for (ScriptRow r : CommandColumns.scripts(m)) {
      row(h, SCRIPTS, r);
    }
  }

  /** One row per command of every script of a trial that timed its commands. */
  private static void commandRows(StringBuilder h, Measurement m) {
    for (ScriptStats s : m.scripts()) {
      for (CommandRow r : CommandColumns.commands(m, s)) {
        row(h, COMMANDS, r);
      }
    }
  }

  private static <R> void row(StringBuilder h, List<Column<R>> columns, R r) {
    h.append("<tr>");
    columns.forEach(c -> c.html(h, r));
    h.append("</tr>\n");
  }
}
