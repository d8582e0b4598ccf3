package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.LoggedDeadlock;
import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.replay.capture.LoggedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

  private Deadlocks(List<Cycle> cycles, int unresolved) {
    this.cycles = List.copyOf(cycles);
    this.unresolved = unresolved;
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

  boolean isEmpty() {
    return cycles.isEmpty();
  }
}
