package dev.wg1bench.report;

import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.report.CommandColumns.CommandRow;
import dev.wg1bench.report.CommandColumns.ScriptRow;
import dev.wg1bench.result.CommandStats;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.ScriptStats;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The per-script and per-command part of a trial's console block, laid out as pgbench's (-r and
 * weighted -f), so the two can be read line by line side by side: one block per script of a mix,
 * then each command's average latency, failures (and retries when ops may be retried), and after
 * pgbench's columns the round trips and rows (a step's statements too) per execution that the
 * connection's socket saw.
 */
final class CommandsConsole {
  private CommandsConsole() {}

  static void print(RunPlan p, String workload, Measurement m, PrintStream out) {
    List<ScriptStats> scripts = m.scripts();
    boolean perCommand = p.timing().perCommand();
    if (scripts == null || scripts.isEmpty()) {
      if (perCommand) {
        out.printf(
            "per-command figures: not available for workload %s (it is not made of scripts)%n",
            workload);
      }
      return;
    }
    if (scripts.size() == 1 && steps(scripts.get(0).commands())) {
      // a workload class: its one "script" is the headline; the steps are what -r would show
      out.printf(
          Locale.ROOT,
          "per-step figures: the ops completed inside the measurement windows (%.2f s), as the"
              + " headline; latency timed in the client over every completion of the step%n",
          m.measuredSeconds());
      commands(m, scripts.get(0), p.session().maxTries() > 1, "", out);
      return;
    }
    // what these figures are over, as the headline's lines say theirs
    out.printf(
        Locale.ROOT,
        "per-script%s figures: the ops completed inside the measurement windows (%.2f s), as the"
            + " headline; latency timed in the client, per script over its successful ops%s%n",
        perCommand ? " and per-command" : "",
        m.measuredSeconds(),
        perCommand ? ", per command over every execution" : "");
    boolean retries = p.session().maxTries() > 1;
    if (scripts.size() == 1) {
      commands(m, scripts.get(0), retries, "", out);
      return;
    }
    for (ScriptRow r : CommandColumns.scripts(m)) {
      // a line per figure, as pgbench's; no latency lines for a script without a latency
      for (Column<ScriptRow> c : CommandColumns.onConsole(CommandColumns.SCRIPTS, retries)) {
        String line = c.console(r);
        if (line != null) {
          out.println(line);
        }
      }
      commands(m, r.script(), retries, " - ", out);
    }
  }

  private static boolean steps(List<CommandStats> commands) {
    return commands != null && commands.stream().anyMatch(CommandStats::step);
  }

  /** The script's commands, a line each: pgbench -r's columns, then the command's text. */
  private static void commands(
      Measurement m, ScriptStats s, boolean retries, String lead, PrintStream out) {
    if (s.commands() == null) {
      return;
    }
    boolean steps = steps(s.commands());
    String what = steps ? "step" : "statement";
    out.println(
        lead
            + what
            + (retries
                ? " latencies in milliseconds, failures and retries;"
                : " latencies in milliseconds and failures;")
            + (steps ? " round trips, statements and rows" : " round trips and rows")
            + " per execution (- where not counted):");
    List<Column<CommandRow>> shown =
        CommandColumns.onConsole(CommandColumns.COMMANDS, retries).stream()
            .filter(c -> steps || !CommandColumns.STEP_ONLY.contains(c.name()))
            .toList();
    for (CommandRow r : CommandColumns.commands(m, s)) {
      out.println("   " + String.join("  ", shown.stream().map(col -> col.console(r)).toList()));
    }
  }
}
