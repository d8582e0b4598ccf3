package dev.wg1bench.report;

import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.result.CommandStats;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.ScriptStats;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The per-script and per-command part of a trial's console block, laid out as pgbench's (-r and
 * weighted -f), so the two can be read line by line side by side: one block per script of a mix,
 * then each command's average latency, failures (and retries when ops may be retried).
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
      commands(scripts.get(0).commands(), p.session().maxTries() > 1, "", out);
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
      commands(scripts.get(0).commands(), retries, "", out);
      return;
    }
    long weights = scripts.stream().mapToLong(ScriptStats::weight).sum();
    for (ScriptStats s : scripts) {
      out.printf("SQL script %d: %s%n", s.index(), s.name());
      out.printf(
          Locale.ROOT,
          " - weight: %d (targets %.1f%% of total)%n",
          s.weight(),
          weights > 0 ? 100.0 * s.weight() / weights : 0);
      out.printf(
          Locale.ROOT,
          " - %d ops (%.1f%% of total, tps = %.1f)%n",
          s.ops(),
          m.ops() > 0 ? 100.0 * s.ops() / m.ops() : 0,
          s.tps());
      out.printf(
          Locale.ROOT,
          " - number of failed ops: %d (%.3f%%)%n",
          s.failedOps(),
          percent(s.failedOps(), s.ops() + s.failedOps()));
      if (retries) {
        out.printf(
            Locale.ROOT,
            // pgbench's definition: retried, whether it then succeeded or failed
            " - number of ops retried: %d (%.3f%%)%n",
            s.retriedOpsAll(),
            percent(s.retriedOpsAll(), s.ops() + s.failedOps()));
        out.printf(" - total number of retries: %d%n", s.retries());
      }
      if (s.latencyMeanMs() != null) {
        out.printf(Locale.ROOT, " - latency average = %.3f ms%n", s.latencyMeanMs());
        out.printf(Locale.ROOT, " - latency stddev = %.3f ms%n", s.latencyStddevMs());
      }
      commands(s.commands(), retries, " - ", out);
    }
  }

  private static boolean steps(List<CommandStats> commands) {
    return commands != null && commands.stream().anyMatch(CommandStats::step);
  }

  private static double percent(long part, long whole) {
    return whole > 0 ? 100.0 * part / whole : 0;
  }

  private static void commands(
      List<CommandStats> commands, boolean retries, String lead, PrintStream out) {
    if (commands == null) {
      return;
    }
    String what = steps(commands) ? "step" : "statement";
    out.println(
        lead
            + (retries
                ? what + " latencies in milliseconds, failures and retries:"
                : what + " latencies in milliseconds and failures:"));
    for (CommandStats c : commands) {
      double avg = c.avgMs() == null ? 0 : c.avgMs();
      if (retries) {
        out.printf(
            Locale.ROOT, "   %11.3f  %10d  %10d  %s%n", avg, c.failures(), c.retries(), c.text());
      } else {
        out.printf(Locale.ROOT, "   %11.3f  %10d  %s%n", avg, c.failures(), c.text());
      }
    }
  }
}
