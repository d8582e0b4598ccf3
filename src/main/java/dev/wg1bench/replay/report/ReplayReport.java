package dev.wg1bench.replay.report;

import dev.wg1bench.ProcessCpu;
import dev.wg1bench.replay.capture.Capture;
import dev.wg1bench.replay.log.Problems;
import dev.wg1bench.replay.play.ReplayStats;
import dev.wg1bench.replay.play.TrialPlayer;
import dev.wg1bench.replay.play.Watchdog;
import dev.wg1bench.replay.result.ReplayResult;
import dev.wg1bench.report.Column;
import dev.wg1bench.report.ConsoleReport;
import dev.wg1bench.result.Machine;
import dev.wg1bench.server.ServerInfo;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;

/** Turns a capture and what its replay measured into a {@link ReplayResult}, and prints one. */
public final class ReplayReport {
  /** Statement classes printed on the console; the JSON has them all. */
  static final int CONSOLE_CLASSES = 15;

  private ReplayReport() {}

  public static ReplayResult result(
      String version,
      Instant started,
      String target,
      ReplayResult.Trial trial,
      List<String> logs,
      TrialPlayer.Config config,
      Capture capture,
      TrialPlayer.Outcome outcome,
      ServerInfo server,
      boolean sameHost) {
    ReplayStats s = outcome.stats();
    return new ReplayResult(
        "replay",
        version,
        started,
        target,
        trial.point(),
        trial.repeat(),
        trial.sequence(),
        logs,
        TrialPlayer.describe(config),
        captureInfo(capture),
        capture.dataChanges(),
        trial.fresh(),
        throughput(capture, outcome),
        config.speed() != 0 ? lag(s, config.poolSize() != null) : null,
        clientCpu(outcome, sameHost),
        fidelity(capture, s),
        s.outcomes.result(),
        order(config, s, outcome.watchdog()),
        config.poolSize() == null
            ? null
            : new ReplayResult.Pooling(
                config.poolMode().cliName(), config.poolSize(), s.rolledBack.get(), s.reset.get()),
        errors(capture, s),
        classes(s),
        outcome.progress(),
        outcome.stopped() ? "interrupted" : null,
        server,
        Machine.current());
  }

  /** How the order between sessions was kept, and what it cost. */
  private static ReplayResult.Order order(TrialPlayer.Config config, ReplayStats s, Watchdog w) {
    String model =
        config.poolSize() == null
            ? "starts in the log's order; a start waits for what ended before it in the log, and a"
                + " statement that can wait for a row lock for what ended before it got the lock"
                + " (a COMMIT or ROLLBACK once sent)"
            : "a start waits for what ended before it in the log, and a statement that can wait"
                + " for a row lock for what ended before it got the lock (a COMMIT or ROLLBACK"
                + " once sent); starts are not ordered, as sessions queue for the pool";
    return new ReplayResult.Order(
        model,
        s.orderWaits.get(),
        TrialPlayer.round(s.orderWaitedNanos.get() / 1e9),
        s.grantWaits.get(),
        TrialPlayer.round(s.grantWaitedNanos.get() / 1e9),
        w.gaveWay(),
        TrialPlayer.round(w.gaveWayNanos() / 1e9),
        w.gaveWayAt(),
        w.lockViews(),
        w.broken(),
        w.brokenAt());
  }

  /** What the logs held, what was left out and what could not be read. */
  private static ReplayResult.CaptureInfo captureInfo(Capture capture) {
    Problems p = capture.problems();
    return new ReplayResult.CaptureInfo(
        capture.formats(),
        capture.records(),
        TrialPlayer.round(capture.span().toNanos() / 1e9),
        capture.sessionsNotSelected(),
        capture.sessionsWithoutEnd(),
        capture.durationsLogged(),
        capture.leftOut(),
        p.skippedLines(),
        p.count(),
        p.messages());
  }

  /** Rates over the exact window from the first statement's start to the last one's end. */
  private static ReplayResult.Throughput throughput(Capture capture, TrialPlayer.Outcome outcome) {
    ReplayStats s = outcome.stats();
    long first = s.firstStart.get();
    long last = s.lastEnd.get();
    double window = first == Long.MAX_VALUE ? 0 : (last - first) / 1e9;
    long statements = s.statements.get();
    long transactions = s.transactions.get();
    return new ReplayResult.Throughput(
        TrialPlayer.round(outcome.wallSeconds()),
        TrialPlayer.round(capture.span().toNanos() / 1e9),
        TrialPlayer.round(window),
        statements,
        transactions,
        window > 0 ? TrialPlayer.round(statements / window) : 0,
        window > 0 ? TrialPlayer.round(transactions / window) : 0);
  }

  /** The replay's own CPU time, per statement and as a share of this host's cores. */
  private static ReplayResult.ClientCpu clientCpu(TrialPlayer.Outcome o, boolean sameHost) {
    if (o.cpuNanos() < 0) {
      return null;
    }
    long statements = o.stats().statements.get();
    double coreNanos = o.wallSeconds() * 1e9 * ProcessCpu.cores();
    return new ReplayResult.ClientCpu(
        TrialPlayer.round(o.cpuNanos() / 1e9),
        statements > 0 ? TrialPlayer.round(o.cpuNanos() / 1000.0 / statements) : 0,
        sameHost && coreNanos > 0 ? TrialPlayer.round(o.cpuNanos() / coreNanos) : null);
  }

  /** How far the replay fell behind the log's timing (and waited for the pool, when pooled). */
  private static ReplayResult.Lag lag(ReplayStats s, boolean pooled) {
    Histogram h = s.lagCopy();
    Histogram w = s.poolWaitCopy();
    return new ReplayResult.Lag(
        msOf(h.getValueAtPercentile(50)),
        msOf(h.getValueAtPercentile(99)),
        msOf(h.getMaxValue()),
        pooled ? msOf(w.getValueAtPercentile(99)) : null,
        pooled ? msOf(w.getMaxValue()) : null);
  }

  /** The log's counts against the replay's. */
  private static List<ReplayResult.Fidelity> fidelity(Capture capture, ReplayStats s) {
    List<ReplayResult.Fidelity> fidelity = new ArrayList<>();
    fidelity.add(
        new ReplayResult.Fidelity(
            "sessions", (long) capture.sessions().size(), s.sessionsStarted.get()));
    fidelity.add(
        new ReplayResult.Fidelity(
            "sessions run to their end",
            capture.sessions().size() - capture.sessionsWithoutEnd(),
            s.sessionsCompleted.get()));
    fidelity.add(new ReplayResult.Fidelity("statements", capture.statements(), s.statements.get()));
    fidelity.add(
        new ReplayResult.Fidelity(
            "statements not replayable",
            capture.notReplayable(),
            s.outcomes.result().skippedTotal()));
    fidelity.add(
        new ReplayResult.Fidelity("transactions", capture.transactions(), s.transactions.get()));
    long logErrors = capture.logErrors().values().stream().mapToLong(Long::longValue).sum();
    fidelity.add(new ReplayResult.Fidelity("errors", logErrors, s.errorCount()));
    long affected = s.classes.values().stream().mapToLong(c -> c.rowsAffected).sum();
    long returned = s.classes.values().stream().mapToLong(c -> c.rowsReturned).sum();
    // PostgreSQL logs no row counts: the log side is unknown
    fidelity.add(new ReplayResult.Fidelity("rows affected", null, affected));
    fidelity.add(new ReplayResult.Fidelity("rows returned", null, returned));
    return fidelity;
  }

  /** Errors by SQLSTATE, in the log and on replay. */
  private static Map<String, ReplayResult.ErrorCount> errors(Capture capture, ReplayStats s) {
    Map<String, ReplayResult.ErrorCount> errors = new TreeMap<>();
    TreeSet<String> states = new TreeSet<>(capture.logErrors().keySet());
    states.addAll(s.errors.keySet());
    for (String st : states) {
      long r = s.errors.containsKey(st) ? s.errors.get(st).sum() : 0;
      errors.put(st, new ReplayResult.ErrorCount(capture.logErrors().getOrDefault(st, 0L), r));
    }
    return errors;
  }

  /** Per statement class, the classes that cost the most time first. */
  private static List<ReplayResult.ClassResult> classes(ReplayStats s) {
    List<ReplayResult.ClassResult> classes = new ArrayList<>();
    for (ReplayStats.ClassStats c : s.classes.values()) {
      synchronized (c) {
        classes.add(
            new ReplayResult.ClassResult(
                c.text,
                c.logCount,
                c.count,
                c.logErrors,
                c.errors,
                c.rowsAffected,
                c.rowsReturned,
                latency(c.latency),
                latency(c.logged)));
      }
    }
    // as pg_stat_statements is usually read
    classes.sort(
        Comparator.comparingDouble(
                (ReplayResult.ClassResult c) ->
                    c.replay() == null ? 0 : c.replay().meanMs() * c.replay().count())
            .reversed()
            .thenComparing(ReplayResult.ClassResult::text));
    return classes;
  }

  private static ReplayResult.Latency latency(org.HdrHistogram.AbstractHistogram h) {
    if (h.getTotalCount() == 0) {
      return null;
    }
    return new ReplayResult.Latency(
        h.getTotalCount(),
        TrialPlayer.round(h.getMean() / 1000),
        msOf(h.getValueAtPercentile(50)),
        msOf(h.getValueAtPercentile(99)),
        msOf(h.getMaxValue()));
  }

  private static double msOf(long micros) {
    return TrialPlayer.round(micros / 1000.0);
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
          r.throughput().statements(),
          r.throughput().transactions(),
          errors,
          r.throughput().transactionsPerSecond(),
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
    ReplayResult.Throughput t = r.throughput();
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
              .collect(java.util.stream.Collectors.joining(" ")));
    }
    if (r.fresh() != null) {
      out.println("restored before it (--fresh): " + r.fresh());
    }
    out.printf(
        Locale.ROOT,
        "wall time %.3f s (captured %.3f s); window %.3f s: %.1f statements/s, %.1f"
            + " transactions/s%n",
        t.wallSeconds(),
        t.capturedSeconds(),
        t.windowSeconds(),
        t.statementsPerSecond(),
        t.transactionsPerSecond());
    printClientCpu(r.clientCpu(), out);
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
  private static void printClientCpu(ReplayResult.ClientCpu c, PrintStream out) {
    if (c == null) {
      return;
    }
    out.printf(
        Locale.ROOT,
        "client CPU = %.3f s, %.1f us per statement (this JVM, all threads)%s%n",
        c.cpuSeconds(),
        c.microsPerStatement(),
        c.share() == null
            ? ""
            : String.format(
                Locale.ROOT,
                "; %.0f%% of this machine's cores during the replay%s",
                100 * c.share(),
                c.share() > ConsoleReport.CPU_SHARE_WARNING
                    ? " - WARNING: the server runs on this host too, and a client this busy"
                        + " competes with it: the replay's pace is bounded by the client"
                    : ""));
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
