package dev.wg1bench.report;

import static dev.wg1bench.report.Column.Format.CODE;
import static dev.wg1bench.report.Column.Format.COUNT;
import static dev.wg1bench.report.Column.Format.MS;
import static dev.wg1bench.report.Column.Format.PER_OP;
import static dev.wg1bench.report.Column.Format.TEXT;
import static dev.wg1bench.report.Column.Format.TPS;

import dev.wg1bench.result.CommandStats;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.ScriptStats;
import dev.wg1bench.result.StepCounts;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The columns of a trial's scripts and of their commands (or a workload class's steps), in the
 * CSV's order: {@link CommandsCsv} writes them after the trial's sequence, repeat and knobs, {@link
 * CommandsHtml} shows those on the page, {@link CommandsConsole} prints their console text as
 * pgbench lays out -r and a weighted -f (a script's figures a line each, a command's in one line).
 */
final class CommandColumns {
  private CommandColumns() {}

  /** A script of a trial: its shares are of the trial's ops and of its scripts' weights. */
  record ScriptRow(Measurement trial, ScriptStats script) {}

  /** A command of a script. */
  record CommandRow(Measurement trial, ScriptStats script, CommandStats command) {
    /**
     * A step's completions less its rollbacks by design, per minute of the measurement windows: on
     * TPC-C's new_order, New-Orders per minute (NOPM, as HammerDB reports it); null for a script's
     * command, or when nothing was measured.
     */
    Double perMinute() {
      if (!command.step() || trial.measuredSeconds() <= 0) {
        return null;
      }
      long back = command.rolledBack() == null ? 0 : command.rolledBack();
      return (command.count() - back) * 60.0 / trial.measuredSeconds();
    }
  }

  /** The columns the console leaves out when ops are not retried, as pgbench does. */
  private static final Set<String> RETRIED_ONLY = Set.of("retries", "retriedOpsAll");

  static final List<Column<ScriptRow>> SCRIPTS =
      List.of(
          Column.<ScriptRow>of("script", "script", TEXT, r -> r.script().index())
              .page(r -> r.script().index() + ": " + r.script().name())
              .pageAt(1)
              .inline(
                  1,
                  r ->
                      String.format(
                          Locale.ROOT, "SQL script %d: %s", r.script().index(), r.script().name())),
          Column.<ScriptRow>of("file", "file", TEXT, r -> r.script().name()).csvOnly(),
          Column.<ScriptRow>of("weight", "weight", COUNT, r -> r.script().weight())
              .pageAt(2)
              .inline(
                  2,
                  r ->
                      String.format(
                          Locale.ROOT,
                          " - weight: %d (targets %.1f%% of total)",
                          r.script().weight(),
                          weightShare(r))),
          Column.<ScriptRow>of("ops", "ops", COUNT, r -> r.script().ops())
              .pageAt(3)
              .inline(
                  3,
                  r ->
                      String.format(
                          Locale.ROOT,
                          " - %d ops (%.1f%% of total, tps = %.1f)",
                          r.script().ops(),
                          share(r),
                          r.script().tps())),
          // the CSV has the trial's ops beside the script's, so a spreadsheet divides them itself
          Column.<ScriptRow>of("shareOfOps", "share of ops", TPS, CommandColumns::share)
              .page(r -> String.format(Locale.ROOT, "%.1f%%", share(r)))
              .pageOnly()
              .pageAt(4),
          Column.<ScriptRow>of("failedOps", "failed ops", COUNT, r -> r.script().failedOps())
              .pageAt(6)
              .inline(
                  4,
                  r ->
                      String.format(
                          Locale.ROOT,
                          " - number of failed ops: %d (%.3f%%)",
                          r.script().failedOps(),
                          percent(r.script().failedOps(), tried(r.script())))),
          Column.<ScriptRow>of("retries", "retries", COUNT, r -> r.script().retries())
              .pageAt(8)
              .inline(
                  6,
                  r ->
                      String.format(
                          Locale.ROOT, " - total number of retries: %d", r.script().retries())),
          Column.<ScriptRow>of(
                  "retriedOps", "retried ops (successful)", COUNT, r -> r.script().retriedOps())
              .pageAt(7),
          Column.<ScriptRow>of(
                  "retriedOpsAll", "retried ops", COUNT, r -> r.script().retriedOpsAll())
              .csvOnly()
              // pgbench's definition: retried, whether it then succeeded or failed
              .inline(
                  5,
                  r ->
                      String.format(
                          Locale.ROOT,
                          " - number of ops retried: %d (%.3f%%)",
                          r.script().retriedOpsAll(),
                          percent(r.script().retriedOpsAll(), tried(r.script())))),
          Column.<ScriptRow>of("tps", "tps", TPS, r -> r.script().tps()).pageAt(5),
          Column.<ScriptRow>of(
                  "latencyMeanMs", "latency mean (ms)", MS, r -> r.script().latencyMeanMs())
              .pageAt(9)
              .inline(
                  7,
                  r ->
                      r.script().latencyMeanMs() == null
                          ? null
                          : String.format(
                              Locale.ROOT,
                              " - latency average = %.3f ms",
                              r.script().latencyMeanMs())),
          // shown with the mean, as pgbench shows the two
          Column.<ScriptRow>of(
                  "latencyStddevMs", "latency stddev (ms)", MS, r -> r.script().latencyStddevMs())
              .pageAt(10)
              .inline(
                  8,
                  r ->
                      r.script().latencyMeanMs() == null
                          ? null
                          : String.format(
                              Locale.ROOT,
                              " - latency stddev = %.3f ms",
                              r.script().latencyStddevMs())));

  static final List<Column<CommandRow>> COMMANDS =
      List.of(
          Column.<CommandRow>of("script", "script", COUNT, r -> r.command().script()).csvOnly(),
          Column.<CommandRow>of("file", "file", TEXT, r -> r.script().name()).csvOnly(),
          // the page names the line as pgbench's messages do, file:line
          Column.<CommandRow>of("line", "file:line", TEXT, r -> r.command().line())
              .page(r -> r.command().location()),
          Column.<CommandRow>of("command", "command", CODE, r -> r.command().text())
              .inline(7, CommandColumns::inlineText),
          Column.<CommandRow>of("count", "count", COUNT, r -> r.command().count()),
          // a step's: of count, the rollbacks its workload meant (TPC-C's unused item)
          Column.<CommandRow>of(
              "rolledBack", "rolled back by design", COUNT, r -> r.command().rolledBack()),
          Column.<CommandRow>of(
              "perMinute", "per minute (not rolled back)", TPS, CommandRow::perMinute),
          Column.<CommandRow>of("avgMs", "avg (ms)", MS, r -> r.command().avgMs())
              // pgbench prints 0 for a command that never completed
              .inline(
                  1,
                  r ->
                      String.format(
                          Locale.ROOT,
                          "%11.3f",
                          r.command().avgMs() == null ? 0 : r.command().avgMs())),
          Column.<CommandRow>of("stddevMs", "stddev (ms)", MS, r -> r.command().stddevMs()),
          Column.<CommandRow>of("failures", "failures", COUNT, r -> r.command().failures())
              .inline(2, r -> String.format(Locale.ROOT, "%10d", r.command().failures())),
          Column.<CommandRow>of("retries", "retries", COUNT, r -> r.command().retries())
              .inline(3, r -> String.format(Locale.ROOT, "%10d", r.command().retries())),
          Column.<CommandRow>of("p50Ms", "p50 (ms)", MS, r -> r.command().p50Ms()),
          Column.<CommandRow>of("p99Ms", "p99 (ms)", MS, r -> r.command().p99Ms()),
          // a step's counts over the whole trial, warmup included: what the data shows
          Column.<CommandRow>of(
              "wholeTrialCount", "count, whole trial", COUNT, r -> whole(r, StepCounts::count)),
          Column.<CommandRow>of(
              "wholeTrialRolledBack",
              "rolled back by design, whole trial",
              COUNT,
              r -> whole(r, StepCounts::rolledBack)),
          Column.<CommandRow>of(
              "wholeTrialFailures",
              "failures, whole trial",
              COUNT,
              r -> whole(r, StepCounts::failures)),
          Column.<CommandRow>of(
              "wholeTrialRetries",
              "retries, whole trial",
              COUNT,
              r -> whole(r, StepCounts::retries)),
          // what the socket saw per execution (result.PerOp's figures, over a step's or command's
          // executions): on the console after pgbench -r's columns, "-" where not counted
          Column.<CommandRow>of(
                  "roundTrips", "round trips/execution", PER_OP, r -> r.command().roundTrips())
              .inline(4, r -> perExecution(r.command().roundTrips())),
          // a command's is the runner's (1 for SQL, 0 for a meta command): the console shows a
          // step's alone, which the runner does not see
          Column.<CommandRow>of(
                  "statements", "statements/execution", PER_OP, r -> r.command().statements())
              .inline(5, r -> perExecution(r.command().statements())),
          Column.<CommandRow>of("rows", "rows/execution", PER_OP, r -> r.command().rows())
              .inline(6, r -> perExecution(r.command().rows())),
          Column.<CommandRow>of(
                  "bytesSent", "bytes sent/execution", TPS, r -> r.command().bytesSent())
              .csvOnly(),
          Column.<CommandRow>of(
                  "bytesReceived",
                  "bytes received/execution",
                  TPS,
                  r -> r.command().bytesReceived())
              .csvOnly());

  /** The console columns of a step's block alone: a command's statements are what it is. */
  static final Set<String> STEP_ONLY = Set.of("statements");

  /** A figure per execution in the console's column: "-" where it was not counted, never 0. */
  private static String perExecution(Double v) {
    return String.format(
        Locale.ROOT, "%10s", v == null ? "-" : String.format(Locale.ROOT, "%.2f", v));
  }

  /** One of a step's whole-trial counts; null for a command or a result without them. */
  private static Long whole(CommandRow r, ToLongFunction<StepCounts> count) {
    StepCounts w = r.command().wholeTrial();
    return w == null ? null : count.applyAsLong(w);
  }

  /**
   * A command's text as pgbench prints it; a step's with its count besides (pgbench -r has none,
   * but a workload class's steps are its transaction types), and its rollbacks by design if any.
   */
  private static String inlineText(CommandRow r) {
    CommandStats c = r.command();
    if (!c.step()) {
      return c.text();
    }
    long back = c.rolledBack() == null ? 0 : c.rolledBack();
    Double perMinute = r.perMinute();
    return c.text()
        + " (count "
        + c.count()
        + (back == 0 ? "" : ", of which rolled back by design " + back)
        + (perMinute == null
            ? ""
            : String.format(
                Locale.ROOT, "; %.1f/min%s", perMinute, back == 0 ? "" : " not rolled back"))
        + wholeText(c)
        + ")";
  }

  /** A step's whole-trial counts where they differ from the windows' (a warmup ran), else "". */
  private static String wholeText(CommandStats c) {
    StepCounts w = c.wholeTrial();
    if (w == null
        || (w.count() == c.count() && w.failures() == c.failures() && w.retries() == c.retries())) {
      return "";
    }
    return "; whole trial: count "
        + w.count()
        + (w.rolledBack() == 0 ? "" : ", rolled back by design " + w.rolledBack())
        + (w.failures() == 0 ? "" : ", failures " + w.failures())
        + (w.retries() == 0 ? "" : ", retries " + w.retries());
  }

  /** The rows of a trial's scripts. */
  static List<ScriptRow> scripts(Measurement m) {
    return m.scripts().stream().map(s -> new ScriptRow(m, s)).toList();
  }

  /** The rows of a trial's script's commands; none when it did not time them. */
  static List<CommandRow> commands(Measurement m, ScriptStats s) {
    return s.commands() == null
        ? List.of()
        : s.commands().stream().map(c -> new CommandRow(m, s, c)).toList();
  }

  /** The columns the console prints, in its order: retries only when ops may be retried. */
  static <R> List<Column<R>> onConsole(List<Column<R>> columns, boolean retried) {
    return Column.onConsole(columns).stream()
        .filter(c -> retried || !RETRIED_ONLY.contains(c.name()))
        .toList();
  }

  /** The script's percentage of its trial's scripts' weights (the share of ops it targets). */
  private static double weightShare(ScriptRow r) {
    long weights = r.trial().scripts().stream().mapToLong(ScriptStats::weight).sum();
    return weights > 0 ? 100.0 * r.script().weight() / weights : 0;
  }

  /** The script's percentage of the trial's ops. */
  private static double share(ScriptRow r) {
    return r.trial().ops() > 0 ? 100.0 * r.script().ops() / r.trial().ops() : 0.0;
  }

  /** The ops the script tried: those that succeeded and those that failed. */
  private static long tried(ScriptStats s) {
    return s.ops() + s.failedOps();
  }

  private static double percent(long part, long whole) {
    return whole > 0 ? 100.0 * part / whole : 0;
  }
}
