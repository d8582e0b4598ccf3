package dev.wg1bench.result;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/**
 * One script of a weighted mix over the measurement windows, as pgbench reports each "SQL script
 * N": the ops that chose it, their failures and retries, and the latency of its successful ops
 * (measured as the headline's). Sums are kept with the means so agents' figures merge exactly.
 *
 * @param index 1-based position of the script on the command line (pgbench's "SQL script N")
 * @param name its file as given
 * @param weight its weight in the mix
 * @param ops successful ops that ran this script
 * @param failedOps ops of this script that failed after all tries
 * @param retries re-executions of its ops
 * @param retriedOps its successful ops that needed at least one retry
 * @param retriedOpsAll its ops retried at least once, whether they then succeeded or failed:
 *     pgbench's "number of transactions retried"
 * @param tps its successful ops per measured second
 * @param latency the latency of its successful ops, written into the JSON in its place: {@code
 *     latencyTotalMs} their sum, {@code latencySumSquaresMs2} the sum of their squares (for the
 *     stddev of merged figures), {@code latencyMeanMs} and {@code latencyStddevMs} their mean and
 *     standard deviation, null without any
 * @param commands per-command figures under --report-per-command, else null; for a workload class
 *     (one "script", named after the class), the steps its ops named with {@code op.step}
 */
public record ScriptStats(
    int index,
    String name,
    int weight,
    long ops,
    long failedOps,
    long retries,
    long retriedOps,
    long retriedOpsAll,
    double tps,
    @JsonUnwrapped Times latency,
    List<CommandStats> commands) {

  /** The latency of the script's successful ops, its sums kept so that figures merge exactly. */
  public record Times(
      double latencyTotalMs,
      double latencySumSquaresMs2,
      Double latencyMeanMs,
      Double latencyStddevMs) {

    /** The mean and stddev built from the sums (null where there is nothing to average). */
    public static Times of(long ops, double totalMs, double sumSquaresMs2) {
      return new Times(
          totalMs, sumSquaresMs2, mean(ops, totalMs), stddev(ops, totalMs, sumSquaresMs2));
    }
  }

  public double latencyTotalMs() {
    return latency.latencyTotalMs();
  }

  public double latencySumSquaresMs2() {
    return latency.latencySumSquaresMs2();
  }

  public Double latencyMeanMs() {
    return latency.latencyMeanMs();
  }

  public Double latencyStddevMs() {
    return latency.latencyStddevMs();
  }

  static Double mean(long n, double total) {
    return n > 0 ? total / n : null;
  }

  /** Population standard deviation from a count, a sum and a sum of squares (as pgbench's). */
  static Double stddev(long n, double total, double squares) {
    if (n <= 0) {
      return null;
    }
    double m = total / n;
    return Math.sqrt(Math.max(0, squares / n - m * m));
  }

  /**
   * The agents' figures of one trial as one: counts and sums added, means and stddevs recomputed
   * from them, tps over the merged window; null when no agent has any.
   */
  public static List<ScriptStats> merge(List<List<ScriptStats>> agents, double seconds) {
    List<ScriptStats> base = null;
    for (List<ScriptStats> a : agents) {
      if (a != null) {
        base = a;
        break;
      }
    }
    if (base == null) {
      return null;
    }
    List<ScriptStats> out = new java.util.ArrayList<>();
    for (int s = 0; s < base.size(); s++) {
      ScriptStats b = base.get(s);
      long ops = 0;
      long failed = 0;
      long retries = 0;
      long retried = 0;
      long retriedAll = 0;
      double total = 0;
      double squares = 0;
      List<CommandStats> commands = null;
      for (List<ScriptStats> a : agents) {
        if (a == null || s >= a.size()) {
          continue;
        }
        ScriptStats x = a.get(s);
        ops += x.ops();
        failed += x.failedOps();
        retries += x.retries();
        retried += x.retriedOps();
        retriedAll += x.retriedOpsAll();
        total += x.latencyTotalMs();
        squares += x.latencySumSquaresMs2();
        commands = mergeCommands(commands, x.commands());
      }
      out.add(
          new ScriptStats(
              b.index(),
              b.name(),
              b.weight(),
              ops,
              failed,
              retries,
              retried,
              retriedAll,
              seconds > 0 ? ops / seconds : 0,
              Times.of(ops, total, squares),
              commands));
    }
    return out;
  }

  /**
   * Two parts' figures of one script as one: a script's commands position by position (every part
   * runs the same script); a workload class's steps by name, since each part numbers its steps in
   * the order it first ran them, a step one part never ran coming last.
   */
  private static List<CommandStats> mergeCommands(List<CommandStats> a, List<CommandStats> b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    boolean steps =
        a.stream().anyMatch(CommandStats::step) || b.stream().anyMatch(CommandStats::step);
    if (steps) {
      return mergeSteps(a, b);
    }
    List<CommandStats> out = new java.util.ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      CommandStats x = a.get(i);
      CommandStats y = i < b.size() ? b.get(i) : null;
      out.add(y == null ? x : x.plus(y));
    }
    return out;
  }

  private static List<CommandStats> mergeSteps(List<CommandStats> a, List<CommandStats> b) {
    java.util.Map<String, CommandStats> byName = new java.util.LinkedHashMap<>();
    for (CommandStats x : a) {
      byName.put(x.text(), x);
    }
    for (CommandStats y : b) {
      byName.merge(y.text(), y, CommandStats::plus);
    }
    List<CommandStats> out = new java.util.ArrayList<>();
    int line = 1;
    for (CommandStats x : byName.values()) {
      out.add(CommandStats.of(x.script(), line, "step " + line, x.text(), true, x.sums()));
      line++;
    }
    return out;
  }
}
