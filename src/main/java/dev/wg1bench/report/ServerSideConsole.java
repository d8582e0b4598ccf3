package dev.wg1bench.report;

import dev.wg1bench.server.window.ServerSide;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The server's side of a trial on the console, after its latency lines: what the server spent on
 * the trial's statements (server time per op and the top statements), where the clients' sessions
 * were (their wait profile), and the database's counters, each over the measured window; a source
 * the server did not have is its one line why, never a zero.
 */
public final class ServerSideConsole {
  /** Statements and wait states shown: the rest are in the JSON. */
  static final int TOP = 5;

  private ServerSideConsole() {}

  /** The section for {@code s}, whose trial measured {@code ops} successful ops. */
  public static void print(ServerSide s, long ops, PrintStream out) {
    out.printf(Locale.ROOT, "server side, over the measured window (%.2f s):%n", s.seconds());
    statements(s, ops, out);
    waits(s, out);
    database(s, out);
  }

  private static void statements(ServerSide s, long ops, PrintStream out) {
    if (s.statements() == null) {
      out.printf("  statements: unavailable (%s)%n", s.statementsWhy());
      return;
    }
    Double perOp = s.serverMsPerOp(ops);
    boolean planned = s.statements().stream().allMatch(f -> f.totalPlanMs() != null);
    out.printf(
        Locale.ROOT,
        "  server time per op: %s (%s, pg_stat_statements)%n",
        perOp == null
            ? "unavailable (no op measured)"
            : String.format(Locale.ROOT, "%.3f ms", perOp),
        planned ? "execution and planning" : "execution; planning not tracked");
    if (s.statementsWhy() != null) {
      out.printf("  note: %s%n", s.statementsWhy());
    }
    List<ServerSide.StatementFigures> top = s.statements().stream().limit(TOP).toList();
    if (top.isEmpty()) {
      return;
    }
    out.printf(
        Locale.ROOT,
        "  %10s %10s %10s %10s  %s%n",
        "calls",
        "total ms",
        "mean ms",
        "rows",
        "statement");
    for (ServerSide.StatementFigures f : top) {
      out.printf(
          Locale.ROOT,
          "  %10d %10.1f %10.3f %10d  %s%n",
          f.calls(),
          f.totalExecMs(),
          f.meanExecMs(),
          f.rows(),
          oneLine(f.query()));
    }
  }

  private static void waits(ServerSide s, PrintStream out) {
    if (s.waits() == null) {
      out.printf("  waits: unavailable (%s)%n", s.waitsWhy());
      return;
    }
    StringBuilder b = new StringBuilder();
    for (ServerSide.WaitShare w : s.waits().stream().limit(TOP).toList()) {
      b.append(b.length() == 0 ? "" : ", ")
          .append(w.name())
          .append(' ')
          .append(String.format(Locale.ROOT, "%.1f%%", 100 * w.share()));
    }
    out.printf(
        Locale.ROOT,
        "  clients' sessions (pg_stat_activity every %.0f ms, %d samples): %s%n",
        s.sampleIntervalMs(),
        s.samples(),
        b);
    if (s.waitsWhy() != null) {
      // beside a profile: where its pids came from (behind a session-mode pooler), or why the
      // sampler stopped before the window's end
      out.printf("  waits: %s%n", s.waitsWhy());
    }
  }

  private static void database(ServerSide s, PrintStream out) {
    ServerSide.DatabaseFigures d = s.database();
    if (d == null) {
      out.printf("  database: unavailable (%s)%n", s.databaseWhy());
      return;
    }
    out.printf(
        Locale.ROOT,
        "  database: %d commits, %d rollbacks (TPM %s), blocks read %d hit %d, temp files %d"
            + " (%d bytes), deadlocks %d, conflicts %d%s%n",
        d.xactCommit(),
        d.xactRollback(),
        d.transactionsPerMinute() == null
            ? "unknown"
            : String.format(Locale.ROOT, "%.0f", d.transactionsPerMinute()),
        d.blksRead(),
        d.blksHit(),
        d.tempFiles(),
        d.tempBytes(),
        d.deadlocks(),
        d.conflicts(),
        d.walBytes() == null
            ? "; WAL unavailable (" + d.walWhy() + ")"
            : "; WAL " + d.walBytes() + " bytes");
  }

  /** A statement's text on one line, cut to 80 characters. */
  static String oneLine(String q) {
    String s = q == null ? "" : q.replaceAll("\\s+", " ").strip();
    return s.length() <= 80 ? s : s.substring(0, 77) + "...";
  }
}
