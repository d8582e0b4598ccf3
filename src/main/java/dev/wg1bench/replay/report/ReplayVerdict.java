package dev.wg1bench.replay.report;

import dev.wg1bench.replay.log.LogReader;
import dev.wg1bench.replay.play.Outcomes;
import dev.wg1bench.replay.result.ReplayResult;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The replay's verdict on the console: every statement's outcome against the log's (the exit code's
 * reason), where the first divergences are, the order between sessions and the pool's clean-ups.
 */
public final class ReplayVerdict {
  /** Divergences printed on the console; the JSON keeps up to {@value Outcomes#KEPT}. */
  static final int CONSOLE_DIVERGENCES = 10;

  private ReplayVerdict() {}

  /** True when some statement's outcome differs from the log's. */
  public static boolean diverged(ReplayResult r) {
    return r.statementFidelity() != null && r.statementFidelity().divergent() > 0;
  }

  static void print(ReplayResult r, PrintStream out) {
    ReplayResult.StatementFidelity f = r.statementFidelity();
    out.println();
    out.printf(
        Locale.ROOT,
        "statement by statement: %d sent, %d with the log's outcome, %d diverged%s%n",
        f.compared(),
        f.same(),
        f.divergent(),
        f.divergent() == 0 ? "" : " (exit 3)");
    f.divergentByCause().forEach((k, v) -> out.printf(Locale.ROOT, "  %8d %s%n", v, k));
    if (f.skippedTotal() > 0) {
      out.printf(Locale.ROOT, "  not replayed, as said before the replay: %d%n", f.skippedTotal());
      f.skipped().forEach((k, v) -> out.printf(Locale.ROOT, "  %8d %s%n", v, k));
    }
    if (f.errorsWithoutSqlState() > 0) {
      out.printf(
          Locale.ROOT,
          "  %d errors compared as errors only: the log carries no SQLSTATE (add %%e to"
              + " log_line_prefix)%n",
          f.errorsWithoutSqlState());
    }
    if (f.sentTwice() > 0) {
      out.printf(
          Locale.ROOT,
          "  %d statements sent twice by pgjdbc (its retry after 26000 or a cached-plan error):"
              + " the server ran each twice%n",
          f.sentTwice());
    }
    pastedIds(f.pastedIds(), out);
    divergences(f, out);
    order(r, out);
  }

  /** Ids of the capture's server pasted into statements, and what the replay put instead. */
  private static void pastedIds(ReplayResult.PastedIdCounts p, PrintStream out) {
    if (p == null) {
      return;
    }
    if (p.ids() > 0) {
      out.printf(
          Locale.ROOT,
          "  %d transaction ids of the capture's server pasted into statements: %d statements sent"
              + " with the replay's ids of those transactions (%d read, a query each)%n",
          p.ids(),
          p.statementsTranslated(),
          p.read());
    }
    if (p.tempSchemaStatements() > 0) {
      out.printf(
          Locale.ROOT,
          "  %d statements sent with the replay session's own temporary schema in place of the"
              + " capture's (pg_temp_N)%n",
          p.tempSchemaStatements());
    }
    if (p.statementsAsLogged() > 0) {
      out.printf(
          Locale.ROOT,
          "  %d statements holding such an id sent as logged: the replay had none for it (its"
              + " transaction had failed or had no id, or the session no temporary schema)%n",
          p.statementsAsLogged());
    }
  }

  private static void divergences(ReplayResult.StatementFidelity f, PrintStream out) {
    if (f.divergent() == 0) {
      return;
    }
    List<ReplayResult.Divergence> first = f.divergences();
    out.printf(
        Locale.ROOT,
        "first divergences (%d of %d; each session's first in the JSON, firstBySession):%n",
        Math.min(CONSOLE_DIVERGENCES, first.size()),
        f.divergent());
    for (ReplayResult.Divergence d :
        first.subList(0, Math.min(CONSOLE_DIVERGENCES, first.size()))) {
      out.printf(
          Locale.ROOT,
          "  %s session %s: log %s, replay %s%s: %s%n",
          d.where(),
          d.session(),
          d.log(),
          d.replay(),
          d.message() == null ? "" : " (" + LogReader.abbreviate(d.message(), 80) + ")",
          LogReader.abbreviate(d.statement(), 80));
    }
  }

  /** The log's deadlocks: victims sent last with a short check, so the capture's fails. */
  private static void deadlocks(ReplayResult.Order o, PrintStream out) {
    ReplayResult.Deadlocks d = o.deadlocks();
    if (d != null && d.raced() != null && d.raced() > 0) {
      out.printf(
          Locale.ROOT,
          "  %d of the log's %d deadlocks followed an earlier one in a race the replay cannot"
              + " steer: its victim, retried at once, took a row before the statement the server had"
              + " woken for it, which then failed in the log; replayed, that statement is queued"
              + " for the row when it is let go and mostly gets it, and it and what follows differ"
              + " (see the replay guide)%n",
          d.raced(),
          d.cycles());
    }
    if (d != null && d.newcomers() != null && d.newcomers() > 0) {
      out.printf(
          Locale.ROOT,
          "  after %d of the log's %d deadlocks a statement waiting in the cycle lost its row, let"
              + " go at the victim's error, to another session's statement sent just after it;"
              + " replayed, the waiting statement is queued for the row and mostly gets it first,"
              + " and what follows differs (see the replay guide)%n",
          d.newcomers(),
          d.cycles());
    }
    if (d == null || !d.steerable()) {
      return;
    }
    out.printf(
        Locale.ROOT,
        "  %d of the log's %d deadlocks' victims sent after the other statements of their cycle,"
            + " with deadlock_timeout %d ms so that their own check finds it first (a query"
            + " before each)%s%n",
        d.victimsSteered(),
        d.cycles(),
        d.victimCheckMs(),
        (d.partnersLate() == 0
                ? ""
                : String.format(
                    Locale.ROOT,
                    "; %d sent before all of them, after waiting a second",
                    d.partnersLate()))
            + (d.partnersUnseen() == null || d.partnersUnseen() == 0
                ? ""
                : String.format(
                    Locale.ROOT,
                    "; %d sent before the server showed every one of them waiting for its lock,"
                        + " after waiting as long as their own check (a partner the replay let"
                        + " have its lock, or one slower than that to reach its wait)",
                    d.partnersUnseen())));
  }

  /** What the target's catalog let the order keep lighter. */
  private static void lighter(ReplayResult.Order o, PrintStream out) {
    if (o.plainInserts() != null && o.plainInserts() > 0) {
      out.printf(
          Locale.ROOT,
          "  %d INSERTs into tables with no key, foreign key, trigger, rule or sequence (the"
              + " target's catalog) kept no place among the starts and waited for no DELETE%n",
          o.plainInserts());
    }
    if (o.endsProven() != null && o.endsProven() > 0) {
      out.printf(
          Locale.ROOT,
          "  %d transactions' ends marked done by the next holder of a row they had changed,"
              + " before their own reply%n",
          o.endsProven());
    }
    if (o.rowOrdered() != null && o.rowOrdered() > 0) {
      out.printf(
          Locale.ROOT,
          "  %d waits for other sessions' statements kept only to the transactions that share a"
              + " row with theirs (the rest of the log's order before them is not waited for)%n",
          o.rowOrdered());
    }
  }

  private static void order(ReplayResult r, PrintStream out) {
    ReplayResult.Order o = r.order();
    out.printf(
        Locale.ROOT,
        "order between sessions (%s): %d waits, %.3f s in all%n",
        o.model(),
        o.waits(),
        o.waitedSeconds());
    if (o.lockGrantWaits() > 0) {
      out.printf(
          Locale.ROOT,
          "  %d of them (%.3f s) for a row lock's grant: statements that waited for a lock in the"
              + " capture, sent once what ended before they got it had ended%n",
          o.lockGrantWaits(),
          o.lockGrantSeconds());
    }
    lighter(o, out);
    deadlocks(o, out);
    if (o.lockCycles() > 0) {
      out.printf(
          Locale.ROOT,
          "  %d waits let go at once (%.3f s waited): %s%n",
          o.lockCycles(),
          o.lockCycleSeconds(),
          "a session they waited on was blocked by their own row lock (a lock cycle the capture"
              + " did not have)");
      o.lockCyclesAt().forEach(w -> out.println("    " + w));
    }
    if (o.connectLeadMs() != null) {
      out.printf(
          Locale.ROOT,
          "  connections opened up to %.1f ms ahead of their time (the replay's own connect time),"
              + " each then waiting for its place in the order%n",
          o.connectLeadMs());
    }
    if (o.lockViews() > 0) {
      out.printf(
          Locale.ROOT,
          "  the server's lock view read %d times to look for a lock cycle%n",
          o.lockViews());
    }
    o.broken()
        .forEach(
            (k, v) -> out.printf(Locale.ROOT, "  %d waits broken by the watchdog: %s%n", v, k));
    o.brokenAt().forEach(w -> out.println("    " + w));
    ReplayResult.Pooling p = r.pooling();
    if (p != null) {
      out.printf(
          Locale.ROOT,
          "pool: %d connections, %s mode; %d sessions ended inside a transaction (rolled back),"
              + " %d connections reset (DISCARD ALL)%n",
          p.size(),
          p.mode(),
          p.rolledBack(),
          p.reset());
    }
  }
}
