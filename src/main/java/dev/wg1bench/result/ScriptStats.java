package dev.wg1bench.result;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.wg1bench.fork.ForkReport;
import dev.wg1bench.workload.OpCounts;
import dev.wg1bench.workload.ScriptOutline;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One script of a weighted mix over the measurement windows, as pgbench reports each "SQL script
 * N": the ops that chose it, their failures and retries, and the latency of its successful ops
 * (measured as the headline's): a view of its part of the trial's counts ({@link #of}), its sums
 * written beside the means.
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
   * Per script, a view of the trial's counts: each script's part of {@code measured} (its ops,
   * failures, retries, latency sums, tps over {@code seconds}) and under it each command's part, or
   * a workload class's steps (each with its part of {@code whole}, the whole trial's); null without
   * an outline (a workload of one script without -r, or not made of scripts).
   *
   * @param outline the scripts whose names key the parts, in order (fork.ForkReport#scripts)
   * @param steps whether the one script's parts are a workload class's steps
   */
  static List<ScriptStats> of(
      List<ForkReport.Script> outline,
      boolean steps,
      OpCounts measured,
      OpCounts whole,
      double seconds) {
    if (outline == null) {
      return null;
    }
    String[] keys = ScriptOutline.keysOf(outline.stream().map(ForkReport.Script::name).toList());
    List<ScriptStats> out = new ArrayList<>();
    for (int s = 0; s < outline.size(); s++) {
      ForkReport.Script o = outline.get(s);
      OpCounts p = measured.partOrEmpty(keys[s]);
      List<CommandStats> commands = null;
      if (steps) {
        commands = steps(s + 1, p, whole.partOrEmpty(keys[s]));
      } else if (o.commands() != null) {
        commands = new ArrayList<>();
        for (int i = 0; i < o.commands().size(); i++) {
          ScriptOutline.Command c = o.commands().get(i);
          commands.add(
              CommandStats.of(
                  s + 1,
                  c.line(),
                  o.name() + ":" + c.line(),
                  c.text(),
                  false,
                  p.partOrEmpty(ScriptOutline.commandKey(i)),
                  null));
        }
      }
      out.add(
          new ScriptStats(
              s + 1,
              o.name(),
              o.weight(),
              p.ok,
              p.failed,
              p.retries,
              p.retriedOps,
              p.retriedAll,
              seconds > 0 ? p.ok / seconds : 0,
              Times.of(p.ok, p.latencyNanos / 1e6, p.latencySquares / 1e12),
              commands));
    }
    return out;
  }

  /** A workload class's steps, numbered in the order first run, each with its whole trial's. */
  private static List<CommandStats> steps(int script, OpCounts measured, OpCounts whole) {
    List<CommandStats> out = new ArrayList<>();
    int line = 1;
    for (Map.Entry<String, OpCounts> e : measured.parts.entrySet()) {
      out.add(
          CommandStats.of(
              script,
              line,
              "step " + line,
              e.getKey(),
              true,
              e.getValue(),
              whole.partOrEmpty(e.getKey())));
      line++;
    }
    return out;
  }
}
