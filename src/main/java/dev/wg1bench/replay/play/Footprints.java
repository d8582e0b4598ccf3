package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.replay.capture.LoggedStatement;
import dev.wg1bench.replay.capture.Transactions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The rows each transaction of the log names, so that the order between sessions ({@link Schedule})
 * waits only for what a transaction can see or contend with. A transaction whose every statement
 * reads or writes rows it names ({@link RowsTouched}: one row by its key, an INSERT's key and the
 * rows its foreign keys reference), inserts plain values into a plain table ({@link
 * TableFacts#plainInsert}) or controls the transaction has a footprint: the set of those rows, each
 * read or written. Two footprints meet on a row one of them writes. Any other statement (a SELECT
 * of a range, a join, a call, DDL, one not replayed) gives its transaction none: it can see or lock
 * any row, and waits for, and is waited for by, every other as before.
 *
 * <p>Two transactions of other sessions whose footprints do not meet (no row that one writes and
 * the other reads or writes) cannot see each other's writes nor wait for each other's locks: in the
 * capture the one that followed the other's end would have read and locked the same rows had the
 * other never run. So a statement's start waits for the ends, and its place among the starts for
 * the starts, of the transactions whose footprint meets its own, and of those without a footprint,
 * not for every end and start before it in the log. The waits stay watermarks: a start still waits
 * for every end up to the last one it needs, only not past it. On a log whose transactions all meet
 * on one row (pgbench's branch at scale 1) nothing changes; on one that spreads its rows (pgbench's
 * simple-update script), a session no longer waits for each other session's commits of rows it
 * never touches: with one watermark, the slowest thread's reply held every other session, and a
 * 16-client log replayed in 1.5 of its span at every speed with the machine's cores a quarter idle
 * (bench record 2026-12-07).
 *
 * <p>A log that asks for SERIALIZABLE anywhere, or a replay that runs its sessions so, gets no
 * footprints: the server's predicate locks are coarser than rows, and a serialization failure there
 * can come from transactions that share no row.
 */
final class Footprints {
  /** Per session, per statement: its transaction's rows; null for a transaction without. */
  private final Set<String>[][] rows;

  @SuppressWarnings("unchecked")
  Footprints(
      List<LoggedSession> sessions, TableFacts facts, boolean[][] plain, boolean serializable) {
    rows = new Set[sessions.size()][];
    serializable |= asksSerializable(sessions);
    for (int s = 0; s < sessions.size(); s++) {
      LoggedSession ls = sessions.get(s);
      rows[s] = new Set[ls.statements().size()];
      if (!serializable) {
        transactions(ls, facts, plain[s], rows[s]);
      }
    }
  }

  private static boolean asksSerializable(List<LoggedSession> sessions) {
    for (LoggedSession s : sessions) {
      for (LoggedStatement st : s.statements()) {
        if (st.sent().toLowerCase(Locale.ROOT).contains("serializable")) {
          return true;
        }
      }
    }
    return false;
  }

  /** Fills each statement's transaction's rows (null where the transaction has no footprint). */
  private static void transactions(
      LoggedSession ls, TableFacts facts, boolean[] plain, Set<String>[] out) {
    List<LoggedStatement> st = ls.statements();
    Transactions.Counter tx = new Transactions.Counter();
    String database = facts.database(ls);
    int first = 0;
    Set<String> rows = new HashSet<>();
    for (int i = 0; i < st.size(); i++) {
      LoggedStatement x = st.get(i);
      tx.add(x.sent());
      if (rows != null) {
        rows = add(rows, x, facts, database, plain[i]);
      }
      if (!tx.inBlock()) {
        // the transaction closed with statement i: its footprint is every member's
        Arrays.fill(out, first, i + 1, rows == null ? null : Set.copyOf(rows));
        first = i + 1;
        rows = new HashSet<>();
      }
    }
    // a block the log leaves open: its statements keep no footprint
    Arrays.fill(out, first, st.size(), null);
  }

  /** The rows with statement x's, or null when x can see or lock more than rows named. */
  private static Set<String> add(
      Set<String> rows, LoggedStatement x, TableFacts facts, String database, boolean plain) {
    if (x.skip() != null) {
      return null;
    }
    if (plain || OrderedEvents.controlOnly(x.sent())) {
      return rows;
    }
    Set<String> touched = RowsTouched.of(facts, database, x.sent(), x.parameters());
    if (touched == null) {
      return null;
    }
    rows.addAll(touched);
    return rows;
  }

  /** The footprint of statement i's transaction; null for none, or past the statements. */
  Set<String> of(int session, int statement) {
    Set<String>[] r = rows[session];
    return statement < 0 || statement >= r.length ? null : r[statement];
  }

  /**
   * Lowers each wait {@code bounds[s][k]} (a count of events: every one ranked below it done) to
   * one past the last event below it, of another session, that counts and whose transaction's
   * footprint meets that of the waiting statement ({@code k - shift}); a wait of a statement
   * without a footprint stays. Events are given by rank: their session, their statement (by index,
   * out of range for a connection or a session's end: no footprint), whether they count (an event
   * done from the outset is skipped, or its watermark would hold every event before it). Returns
   * how many waits it lowered.
   */
  static long narrow(
      Footprints f,
      int[][] bounds,
      int shift,
      int[] eventSession,
      int[] eventStatement,
      boolean[] counts) {
    List<int[]> queries = new ArrayList<>();
    for (int s = 0; s < bounds.length; s++) {
      for (int k = 0; k < bounds[s].length; k++) {
        if (bounds[s][k] > 0 && f.of(s, k - shift) != null) {
          queries.add(new int[] {bounds[s][k], s, k});
        }
      }
    }
    queries.sort((a, b) -> Integer.compare(a[0], b[0]));
    Last every = new Last();
    Last any = new Last();
    // per row: the last event of a transaction that touched it, and of one that wrote it
    Map<String, Last> touched = new HashMap<>();
    Map<String, Last> written = new HashMap<>();
    int r = 0;
    long lowered = 0;
    for (int[] q : queries) {
      for (; r < q[0]; r++) {
        if (!counts[r]) {
          continue;
        }
        any.add(r, eventSession[r]);
        Set<String> fp = f.of(eventSession[r], eventStatement[r]);
        if (fp == null) {
          every.add(r, eventSession[r]);
        } else {
          for (String token : fp) {
            String row = token.substring(1);
            touched.computeIfAbsent(row, k -> new Last()).add(r, eventSession[r]);
            if (token.charAt(0) == RowsTouched.WRITE) {
              written.computeIfAbsent(row, k -> new Last()).add(r, eventSession[r]);
            }
          }
        }
      }
      int s = q[1];
      int last = every.before(s);
      for (String token : f.of(s, q[2] - shift)) {
        // a write meets every transaction on its row; a read only those that wrote it
        Map<String, Last> meets = token.charAt(0) == RowsTouched.WRITE ? touched : written;
        Last l = meets.get(token.substring(1));
        if (l != null) {
          last = Math.max(last, l.before(s));
        }
      }
      // counted where another session's event is no longer waited for; below its own last event
      // the wait only drops the session's own events, done before it anyway
      lowered += last < any.before(s) ? 1 : 0;
      bounds[s][q[2]] = Math.min(bounds[s][q[2]], last + 1);
    }
    return lowered;
  }

  /** The last event ranked so far, and the last of a session other than its own. */
  private static final class Last {
    private int rank = -1;
    private int session = -1;
    private int otherRank = -1;

    void add(int r, int s) {
      if (s != session) {
        otherRank = rank;
        session = s;
      }
      rank = r;
    }

    /** The last rank of a session other than {@code s}, or -1. */
    int before(int s) {
      return s == session ? otherRank : rank;
    }
  }
}
