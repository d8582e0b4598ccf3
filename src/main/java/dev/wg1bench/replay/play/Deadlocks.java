package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.LoggedDeadlock;
import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.replay.capture.LoggedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The log's deadlocks ({@link LoggedDeadlock}) as statements of the replay: each cycle's victim,
 * the statement that failed with 40P01, and its partners, the statement each other backend of the
 * cycle was running (waiting in) when the victim failed. A partner's session is the one whose
 * session id carries the DETAIL's process id and that was connected then; its statement, the last
 * one it started before the victim's error (the log's own order within a millisecond, {@link
 * dev.wg1bench.replay.capture.LogOrder}), still running at it. A cycle whose victim or partners the
 * log does not show (another database's session, a statement left out) keeps what it has: one
 * without a partner is not steered ({@link DeadlockSteer}). A partner queued behind the victim for
 * the row the victim's statement waited for ({@link LoggedDeadlock#behind}) is kept apart: it asked
 * for that row after the victim did, and in the replay must too.
 */
final class Deadlocks {
  /**
   * One cycle: the victim's session and statement, when it failed, each partner that holds what the
   * victim waited for as {session, statement}, and each queued behind the victim for its row.
   */
  record Cycle(int session, int statement, Instant at, List<int[]> partners, List<int[]> behind) {}

  static final Deadlocks NONE = new Deadlocks(List.of(), 0);

  /** The cycles whose victim and at least one partner the log shows. */
  final List<Cycle> cycles;

  /** The log's deadlocks that could not be resolved so (no victim or no partner in the replay). */
  final int unresolved;

  /**
   * The cycles that followed a race the replay cannot steer ({@link #raced}): their victim and what
   * its transaction did after are not the capture's in any replay.
   */
  final int raced;

  private Deadlocks(List<Cycle> cycles, int unresolved) {
    this.cycles = List.copyOf(cycles);
    this.unresolved = unresolved;
    int n = 0;
    for (int k = 0; k < cycles.size(); k++) {
      n += raced(k) ? 1 : 0;
    }
    this.raced = n;
  }

  /**
   * Whether cycle {@code k} followed an earlier one in a race on the capture server: its victim's
   * statement was waiting in the earlier cycle when that one's victim failed, and that victim's
   * session, its transaction retried at once, is in this cycle with a statement started after its
   * failure. The failure let go of the row the statement was queued for, so the server woke it to
   * take the row; the retried transaction asked for the same row before the woken backend ran and
   * took it first (on a busy machine, within microseconds). Replayed, the statement is still queued
   * when the earlier victim's ROLLBACK lets go of the row and, unless the server's timing falls as
   * the capture's, gets it, whatever the order of sends: no client can hold it back without
   * breaking the earlier cycle, which needs it queued. It then succeeds where it failed in the log,
   * and the retry waits for it instead of deadlocking.
   */
  boolean raced(int k) {
    Cycle c = cycles.get(k);
    for (int j = k - 1; j >= 0; j--) {
      Cycle e = cycles.get(j);
      boolean waitedThere =
          Stream.concat(e.partners().stream(), e.behind().stream())
              .anyMatch(p -> p[0] == c.session() && p[1] == c.statement());
      boolean retriedHere =
          Stream.concat(c.partners().stream(), c.behind().stream())
              .anyMatch(p -> p[0] == e.session() && p[1] > e.statement());
      if (waitedThere && retriedHere) {
        return true;
      }
    }
    return false;
  }

  static Deadlocks of(List<LoggedSession> sessions, List<LoggedDeadlock> logged) {
    if (logged.isEmpty()) {
      return NONE;
    }
    Map<String, Integer> byId = new HashMap<>();
    Map<Long, List<Integer>> byPid = new HashMap<>();
    for (int s = 0; s < sessions.size(); s++) {
      byId.put(sessions.get(s).id(), s);
      Long pid = LoggedDeadlock.pid(sessions.get(s).id());
      if (pid != null) {
        byPid.computeIfAbsent(pid, k -> new ArrayList<>()).add(s);
      }
    }
    List<Cycle> cycles = new ArrayList<>();
    int unresolved = 0;
    for (LoggedDeadlock d : logged) {
      Integer s = byId.get(d.session());
      int victim = s == null ? -1 : victim(sessions.get(s).statements(), d.at());
      List<int[]> partners = new ArrayList<>();
      List<int[]> behind = new ArrayList<>();
      for (long pid : victim < 0 ? List.<Long>of() : d.others()) {
        int[] p = partner(sessions, byPid.getOrDefault(pid, List.of()), d.at());
        if (p != null) {
          (d.behind().contains(pid) ? behind : partners).add(p);
        }
      }
      if (partners.isEmpty() && behind.isEmpty()) {
        unresolved++;
      } else {
        cycles.add(new Cycle(s, victim, d.at(), partners, behind));
      }
    }
    return new Deadlocks(cycles, unresolved);
  }

  /** The statement that failed with 40P01 at {@code at}, or -1 (left out, or not found). */
  private static int victim(List<LoggedStatement> st, Instant at) {
    for (int i = 0; i < st.size(); i++) {
      LoggedStatement x = st.get(i);
      if ("40P01".equals(x.logSqlState()) && at.equals(x.end())) {
        return x.skip() == null ? i : -1;
      }
    }
    return -1;
  }

  /**
   * The statement of the session among {@code candidates} (those of one process id) that was
   * connected at {@code at} and running then, as {session, statement}, or null.
   */
  private static int[] partner(List<LoggedSession> sessions, List<Integer> candidates, Instant at) {
    for (int s : candidates) {
      LoggedSession ls = sessions.get(s);
      if (ls.connected().isAfter(at)
          || (ls.disconnected() != null && ls.disconnected().isBefore(at))) {
        continue;
      }
      List<LoggedStatement> st = ls.statements();
      int last = -1;
      for (int i = 0; i < st.size() && st.get(i).time().isBefore(at); i++) {
        last = i;
      }
      if (last >= 0
          && st.get(last).skip() == null
          && (st.get(last).end() == null || st.get(last).end().isAfter(at))) {
        return new int[] {s, last};
      }
    }
    return null;
  }

  /**
   * The cycles after which a statement waiting in them lost its row to a newcomer: a statement of
   * another session than the victim's (whose retry is {@link #raced}) that changes the same row by
   * its key, started after the victim failed and ended before the waiting one did. An aborted
   * transaction lets go of its locks at the error, not at its ROLLBACK; the server woke the waiting
   * statement for the row, but the newcomer took it first (had the waiting one taken it, the
   * newcomer would have waited for its transaction's end). Replayed, the waiting statement is
   * queued for the row (its cycle needs it) and gets it first: the two take the row in the other
   * order, and what follows differs. Counted only where the target's catalog names the rows ({@link
   * TableFacts#row}).
   */
  int lostToNewcomers(List<LoggedSession> sessions, TableFacts facts) {
    Map<String, List<LoggedStatement>> byRow = new HashMap<>();
    Map<LoggedStatement, Integer> sessionOf = new IdentityHashMap<>();
    for (int s = 0; s < sessions.size(); s++) {
      for (LoggedStatement x : sessions.get(s).statements()) {
        String row = facts.row(sessions.get(s), x);
        if (row != null && x.end() != null) {
          byRow.computeIfAbsent(row, k -> new ArrayList<>()).add(x);
          sessionOf.put(x, s);
        }
      }
    }
    // each row's statements by start: only those started between a failure and a waiting
    // statement's end are looked at
    byRow.values().forEach(l -> l.sort(Comparator.comparing(LoggedStatement::time)));
    int n = 0;
    for (Cycle c : cycles) {
      boolean lost = false;
      for (int[] p : Stream.concat(c.partners().stream(), c.behind().stream()).toList()) {
        LoggedStatement w = sessions.get(p[0]).statements().get(p[1]);
        String row = facts.row(sessions.get(p[0]), w);
        List<LoggedStatement> on = row == null || w.end() == null ? List.of() : byRow.get(row);
        for (int i = after(on, c.at()); i < on.size() && on.get(i).time().isBefore(w.end()); i++) {
          LoggedStatement q = on.get(i);
          int s = sessionOf.get(q);
          lost |= s != p[0] && s != c.session() && q.end().isBefore(w.end());
        }
      }
      n += lost ? 1 : 0;
    }
    return n;
  }

  /** The first index whose statement started after {@code t}; the list is by start. */
  private static int after(List<LoggedStatement> byStart, Instant t) {
    int lo = 0;
    int hi = byStart.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (byStart.get(mid).time().isAfter(t)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  boolean isEmpty() {
    return cycles.isEmpty();
  }
}
