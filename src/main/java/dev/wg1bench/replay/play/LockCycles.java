package dev.wg1bench.replay.play;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The waits of the order that sit on a cycle the capture never had. Two kinds of edge between
 * replayed sessions: a session waiting at the order waits on the sessions that own a start or an
 * end it needs ({@link OrderGate#waitsOn}); a statement waiting for a lock waits on the sessions
 * whose backends block it (the server's {@code pg_blocking_pids}). The order's edges alone form no
 * cycle (they follow the log's times) and the locks' alone are deadlocks the server ends, so every
 * cycle has a session that waits at the order while holding a lock another session on the cycle
 * waits for: that wait is the one to let go, since nothing else can end it.
 */
final class LockCycles {
  private LockCycles() {}

  /**
   * The sessions whose order wait to let go, so that no cycle is left: each waits at the order,
   * blocks a lock request, and reaches itself through the edges. One per cycle: once a wait is let
   * go its edges are gone, and the cycles it ended are not counted again.
   *
   * @param order session waiting at the order to the sessions it waits on
   * @param locks session whose statement waits for a lock to the sessions blocking it
   */
  static List<Integer> toLetGo(Map<Integer, Set<Integer>> order, Map<Integer, Set<Integer>> locks) {
    Map<Integer, Set<Integer>> edges = new HashMap<>();
    order.forEach((s, on) -> edges.computeIfAbsent(s, k -> new HashSet<>()).addAll(on));
    locks.forEach((s, on) -> edges.computeIfAbsent(s, k -> new HashSet<>()).addAll(on));
    Set<Integer> blockers = new TreeSet<>();
    locks.values().forEach(blockers::addAll);
    List<Integer> out = new ArrayList<>();
    for (int w : blockers) {
      if (order.containsKey(w) && reaches(edges, w)) {
        out.add(w);
        edges.get(w).removeAll(order.get(w));
      }
    }
    return out;
  }

  /** Whether a path of one edge or more leads from {@code from} back to it. */
  private static boolean reaches(Map<Integer, Set<Integer>> edges, int from) {
    Deque<Integer> todo = new ArrayDeque<>(edges.getOrDefault(from, Set.of()));
    Set<Integer> seen = new HashSet<>();
    while (!todo.isEmpty()) {
      int s = todo.pop();
      if (s == from) {
        return true;
      }
      if (seen.add(s)) {
        todo.addAll(edges.getOrDefault(s, Set.of()));
      }
    }
    return false;
  }
}
