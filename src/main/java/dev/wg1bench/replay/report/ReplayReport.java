package dev.wg1bench.replay.report;

import dev.wg1bench.replay.capture.Capture;
import dev.wg1bench.replay.log.Problems;
import dev.wg1bench.replay.result.ReplayResult;
import dev.wg1bench.report.Column;
import dev.wg1bench.report.ConsoleReport;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.PerOp;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Prints a capture before it runs, and a replay's result ({@link ReplayResults} builds it). */
public final class ReplayReport {
  /** Statement classes printed on the console; the JSON has them all. */
  static final int CONSOLE_CLASSES = 15;

  private ReplayReport() {}

  /**
   * The log's deadlocks, whose victims a replay may not repeat: said before it runs, so that the
   * divergent statements they may leave are not a surprise
   * (bench/results/2026-12-07-replay-shapes.md).
   */
  private static void printDeadlocks(Capture c, PrintStream out) {
    long deadlocks = c.logErrors().getOrDefault("40P01", 0L);
    if (deadlocks > 0) {
      out.printf(
          Locale.ROOT,
          "  the log holds %d deadlock%s (40P01), %d with the cycle in its DETAIL: the server"
              + " chooses a deadlock's victim by time (the first backend whose check,"
              + " deadlock_timeout after it began to wait, finds the cycle), so the replay sends a"
              + " victim whose cycle it knows after the cycle's other statements, with a short"
              + " deadlock_timeout of its own (see the order below); a deadlock may still take"
              + " another victim or none, and each statement whose outcome then differs is counted"
              + " divergent%n",
          deadlocks,
          deadlocks == 1 ? "" : "s",
          c.deadlocks().size());
    }
  }

  /** What a capture holds, before anything runs (also the whole output of --dry-run). */
  public static void printCapture(Capture c, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "log: %d records, %d sessions, %d statements, %d transactions over %.1f s%n",
        c.records(),
        c.sessions().size(),
        c.statements(),
        c.transactions(),
        c.span().toNanos() / 1e9);
    c.leftOut().forEach((k, v) -> out.printf(Locale.ROOT, "  left out: %d %s%n", v, k));
    c.notReplayableByReason()
        .forEach((k, v) -> out.printf(Locale.ROOT, "  not replayable, skipped: %d %s%n", v, k));
    if (c.rewritten() > 0) {
      out.printf(
          Locale.ROOT,
          "  sent changed: %d SET DateStyle with an output format other than ISO, sent as ISO"
              + " with the same input order (pgjdbc closes the connection on any other)%n",
          c.rewritten());
    }
    if (c.sqlStatesMissing()) {
      out.println(
          "  the log shows errors without their SQLSTATE (a stderr log_line_prefix without %e):"
              + " each statement's error is compared as an error only");
    }
    out.println(changes(c.dataChanges()));
    if (c.durationsLogged() == 0 && c.sessions().size() > 1 && !c.dataChanges().isEmpty()) {
      out.println(
          "  the log shows no statement durations (log_min_duration_statement = 0 was off): when"
              + " a statement got its row lock in the capture cannot be told, so the order the"
              + " locks were granted in is not kept, and sessions contending for rows may"
              + " meet lock cycles the capture did not have (let go at once, counted) and fall"
              + " behind the log's pace");
    }
    printDeadlocks(c, out);
    if (c.sessionsNotSelected() > 0) {
      out.printf(Locale.ROOT, "  left out: %d sessions not selected%n", c.sessionsNotSelected());
    }
    if (c.sessionsWithoutEnd() > 0) {
      out.printf(
          Locale.ROOT,
          "  %d sessions have no disconnection in the log (log_disconnections off, or the log"
              + " ends first): each is closed after its last statement%n",
          c.sessionsWithoutEnd());
    }
    Problems p = c.problems();
    out.printf(Locale.ROOT, "  skipped lines: %d%n", p.skippedLines());
    for (String m : p.messages()) {
      out.println("  " + m);
    }
    if (p.count() > p.messages().size()) {
      out.printf(
          Locale.ROOT,
          "  ... and %d more problems (%s)%n",
          p.count() - p.messages().size(),
          p.byReason());
    }
  }

  /** Whether replaying the capture changes the target, and with which statements. */
  static String changes(Map<String, Long> dataChanges) {
    if (dataChanges.isEmpty()) {
      return "  reads only: no INSERT, UPDATE, DELETE, COPY FROM or DDL statement";
    }
    StringBuilder b = new StringBuilder("  changes data:");
    dataChanges.forEach((k, v) -> b.append(' ').append(v).append(' ').append(k).append(','));
    b.setLength(b.length() - 1);
    return b.append(" (a replay changes the target: --fresh restores it before each trial)")
        .toString();
  }

  /** One line per trial of a replay of several: its point, counts beside the log's, rates, lag. */
  public static void printTrials(List<ReplayResult> trials, PrintStream out) {
    out.println();
    out.printf(
        Locale.ROOT,
        "%-4s %11s %11s %11s %8s %10s %10s  %s%n",
        "#",
        "log stmts",
        "replayed",
        "tx",
        "errors",
        "tx/s",
        "lag p99",
        "point");
    for (ReplayResult r : trials) {
      long errors = r.errorsBySqlState().values().stream().mapToLong(e -> e.replay()).sum();
      out.printf(
          Locale.ROOT,
          "%-4d %11d %11d %11d %8d %10.1f %10s  %s%n",
          r.sequence(),
          r.fidelity().stream()
              .filter(f -> f.what().equals("statements"))
              .findFirst()
              .map(ReplayResult.Fidelity::log)
              .orElse(0L),
          r.pace().statements(),
          r.pace().transactions(),
          errors,
          r.throughput().tps(),
          r.lag() == null ? "-" : f3(r.lag().p99Ms()) + " ms",
          r.point());
    }
  }

  public static void print(ReplayResult r, PrintStream out) {
    header(r, out);
    fidelity(r, out);
    ReplayVerdict.print(r, out);
    classes(r, out);
  }

  /** What was replayed into which server, and the rates and schedule lag it kept. */
  private static void header(ReplayResult r, PrintStream out) {
    ReplayResult.Pace t = r.pace();
    out.println();
    out.printf(
        Locale.ROOT,
        "replay of %s into %s (%s)%s%n",
        String.join(", ", r.logs()),
        r.target(),
        r.settings(),
        r.stoppedBy() == null ? "" : ", stopped early: " + r.stoppedBy());
    if (r.server() != null) {
      out.printf(
          "server: PostgreSQL %s, ssl %s, %s%n",
          r.server().version(),
          r.server().ssl(),
          r.server().settings().entrySet().stream()
              .map(e -> e.getKey() + "=" + e.getValue())
              .collect(Collectors.joining(" ")));
    }
    if (r.fresh() != null) {
      out.println("restored before it (--fresh): " + r.fresh());
    }
    if (r.warmup() != null) {
      out.println(warmupLine(r.warmup()));
    }
    out.printf(
        Locale.ROOT,
        "wall time %.3f s (captured %.3f s); window %.3f s: %.1f statements/s, %.1f"
            + " transactions/s%n",
        t.wallSeconds(),
        t.capturedSeconds(),
        r.throughput().measuredSeconds(),
        t.statementsPerSecond(),
        r.throughput().tps());
    printClientCpu(r.clientCpu(), t.statements(), out);
    printPerOp(r.perOp(), out);
    if (r.lag() != null) {
      out.printf(
          Locale.ROOT,
          "schedule lag: p50 %.3f ms, p99 %.3f ms, max %.3f ms%s%n",
          r.lag().p50Ms(),
          r.lag().p99Ms(),
          r.lag().maxMs(),
          r.lag().poolWaitP99Ms() == null
              ? ""
              : String.format(
                  Locale.ROOT,
                  " (pool wait p99 %.3f ms, max %.3f ms)",
                  r.lag().poolWaitP99Ms(),
                  r.lag().poolWaitMaxMs()));
    }
  }

  /** The replay's own CPU, with a warning when it competes with a server on this host. */
  private static void printClientCpu(Measurement.ClientCpu c, long statements, PrintStream out) {
    if (c == null || c.clientCpuMicrosPerOp() == null) {
      return;
    }
    Double share = c.clientCpuShare();
    out.printf(
        Locale.ROOT,
        "client CPU = %.3f s, %.1f us per statement (this JVM, all threads)%s%n",
        c.clientCpuMicrosPerOp() * statements / 1e6,
        c.clientCpuMicrosPerOp(),
        share == null
            ? ""
            : String.format(
                Locale.ROOT,
                "; %.0f%% of this machine's cores during the replay%s",
                100 * share,
                share > ConsoleReport.CPU_SHARE_WARNING
                    ? " - WARNING: the server runs on this host too, and a client this busy"
                        + " competes with it: the replay's pace is bounded by the client"
                    : ""));
  }

  /** What one replayed statement (a query string sent) carried on the wire, one line. */
  private static void printPerOp(PerOp p, PrintStream out) {
    if (p == null || p.roundTrips() == null) {
      return;
    }
    out.printf(
        Locale.ROOT,
        "per statement sent: %.2f round trips, %s statements completed, %s rows returned, %.0f B"
            + " sent, %.0f B received%n",
        p.roundTrips(),
        p.statements() == null ? "-" : String.format(Locale.ROOT, "%.2f", p.statements()),
        p.rows() == null ? "-" : String.format(Locale.ROOT, "%.2f", p.rows()),
        p.bytesSent(),
        p.bytesReceived());
  }

  /** The log's counts against the replay's: statements, transactions, errors by SQLSTATE. */
  private static void fidelity(ReplayResult r, PrintStream out) {
    out.println();
    out.printf(Locale.ROOT, "%-28s %12s %12s%n", "fidelity", "log", "replay");
    for (ReplayResult.Fidelity f : r.fidelity()) {
      out.printf(
          Locale.ROOT,
          "%-28s %12s %12d%n",
          f.what(),
          f.log() == null ? "not logged" : f.log().toString(),
          f.replay());
    }
    r.errorsBySqlState()
        .forEach(
            (st, e) ->
                out.printf(
                    Locale.ROOT, "%-28s %12d %12d%n", "  errors " + st, e.log(), e.replay()));
    out.printf(Locale.ROOT, "%-28s %12d%n", "skipped log lines", r.capture().skippedLines());
  }

  /** Per statement class, the replay's latencies beside the log's, the busiest first. */
  private static void classes(ReplayResult r, PrintStream out) {
    List<Column<ReplayResult.ClassResult>> shown = Column.onConsole(ReplayColumns.CLASSES);
    out.println();
    out.println(line(shown.stream().map(Column::consoleHeading).toList()));
    int printed = 0;
    for (ReplayResult.ClassResult c : r.classes()) {
      if (printed++ == CONSOLE_CLASSES) {
        out.printf(
            Locale.ROOT,
            "... %d more classes in the JSON result%n",
            r.classes().size() - CONSOLE_CLASSES);
        break;
      }
      out.println(line(shown.stream().map(col -> col.console(c)).toList()));
    }
  }

  /** The warm-up the trials followed, in one line: what it played, and that it is not measured. */
  public static String warmupLine(ReplayResult.Warmup w) {
    return "warm-up before the trials (--warmup): " + warmupFigures(w);
  }

  /** What a warm-up played: its length, its speeds, its statements and passes; not measured. */
  public static String warmupFigures(ReplayResult.Warmup w) {
    return String.format(
        Locale.ROOT,
        "%.1f s (the first half at --speed max, the rest at %s), %d statements in %d pass(es) of the"
            + " log, not measured",
        w.seconds(),
        laterSpeed(w.laterSpeed()),
        w.statements(),
        w.passes());
  }

  /**
   * The later half's speed as the warm-up line says it (null: a result from before it was kept).
   */
  private static String laterSpeed(Double s) {
    if (s == null) {
      return "the trial's speed";
    }
    return s == 0 ? "max speed" : String.format(Locale.ROOT, "speed %.2f", s);
  }

  /** The figures a space apart; the statement, last, set apart by two. */
  private static String line(List<String> cells) {
    return String.join(" ", cells.subList(0, cells.size() - 1))
        + "  "
        + cells.get(cells.size() - 1);
  }

  private static String f3(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }
}
