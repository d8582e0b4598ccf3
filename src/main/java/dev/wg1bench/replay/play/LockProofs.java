package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.replay.capture.LoggedStatement;
import dev.wg1bench.replay.capture.SqlText;
import dev.wg1bench.replay.capture.StatementKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A row lock's grant proves the transaction that held the row over. When a statement that changed
 * one row ({@code UPDATE} or {@code DELETE ... WHERE key = value}, {@link TableFacts#row}) comes
 * back having changed it, every other session's transaction that had already changed the same row
 * in the replay has ended: while it was open the row's lock was its, and the statement would still
 * be waiting. Its end (the COMMIT or ROLLBACK that closes it) is then marked done in the order at
 * once, by the thread that got the row, instead of when the committing session's thread gets its
 * own reply and hands the mark over.
 *
 * <p>That hand-off is what a log of transactions passing one hot row in turn waits on (pgbench's
 * branch row at scale 1): the statement after the UPDATE started after the previous holder's COMMIT
 * ended in the capture, so it waited for that COMMIT's reply to reach another thread. A session
 * that got the row now goes on without it.
 *
 * <p>Only a transaction that cannot let go of the row before it ends counts: one inside a block
 * with no SAVEPOINT (rolling back to one lets go of the locks taken since) that ends in COMMIT or
 * ROLLBACK, whose statement on the row came back having changed it. Candidates are the capture's
 * holders before the grant ({@link Schedule#grantNeeds}), the last two of each other session's: an
 * earlier one of the same session ended before its later one began.
 */
final class LockProofs {
  private final OrderGate order;

  /** Per session, per statement: the row it changes, as an index into {@link #holders}; or -1. */
  private final int[][] row;

  /** Per session, per statement: the end rank of the block that holds its row lock, or -1. */
  private final int[][] blockEnd;

  private final int[][] grantNeeds;

  /** Per row, per session: the statements that change it inside a block, by block end rank. */
  private final List<Map<Integer, int[][]>> holders = new ArrayList<>();

  /** Per session, per statement: 1 once it came back having changed its row. */
  private final AtomicIntegerArray[] changed;

  /** Ends marked done by a grant before their own session's reply. */
  final AtomicLong proofs;

  /**
   * @param proofs counts the ends a grant marked done before their own session's reply
   */
  LockProofs(
      List<LoggedSession> sessions,
      Schedule schedule,
      OrderGate order,
      TableFacts facts,
      AtomicLong proofs) {
    this.order = order;
    this.proofs = proofs;
    int n = sessions.size();
    row = new int[n][];
    blockEnd = new int[n][];
    changed = new AtomicIntegerArray[n];
    grantNeeds = schedule.grantNeeds;
    Map<String, Integer> rows = new HashMap<>();
    Map<Integer, Map<Integer, List<int[]>>> byRow = new HashMap<>();
    for (int s = 0; s < n; s++) {
      List<LoggedStatement> st = sessions.get(s).statements();
      row[s] = new int[st.size()];
      changed[s] = new AtomicIntegerArray(st.size());
      blockEnd[s] = blockEnds(st, schedule.endRank[s], schedule.endLetsGo);
      for (int i = 0; i < st.size(); i++) {
        LoggedStatement x = st.get(i);
        String key = facts.row(sessions.get(s), x);
        row[s][i] = key == null ? -1 : rows.computeIfAbsent(key, k -> rows.size());
        if (row[s][i] >= 0 && blockEnd[s][i] >= 0) {
          byRow
              .computeIfAbsent(row[s][i], k -> new HashMap<>())
              .computeIfAbsent(s, k -> new ArrayList<>())
              .add(new int[] {blockEnd[s][i], i});
        }
      }
    }
    for (int r = 0; r < rows.size(); r++) {
      Map<Integer, int[][]> perSession = new HashMap<>();
      byRow
          .getOrDefault(r, Map.of())
          .forEach((s, list) -> perSession.put(s, list.toArray(new int[0][])));
      holders.add(perSession);
    }
  }

  /**
   * Per statement of a session: the end rank of the block it is in, where that block takes no
   * SAVEPOINT and ends in a COMMIT or ROLLBACK ({@link Schedule#endLetsGo}) that is a statement of
   * its own; -1 for a statement outside such a block.
   */
  private static int[] blockEnds(List<LoggedStatement> st, int[] endRank, boolean[] letsGo) {
    int[] out = new int[st.size()];
    Arrays.fill(out, -1);
    int begin = -1;
    for (int i = 0; i < st.size(); i++) {
      List<String> parts = SqlText.parts(st.get(i).sent());
      for (String part : parts) {
        String p = SqlText.stripComments(part).strip();
        if (StatementKind.txControl(p) == StatementKind.TxControl.BEGIN) {
          begin = parts.size() == 1 ? i : -1;
        } else if (p.regionMatches(true, 0, "savepoint", 0, 9)) {
          // rolled back to, it lets go of the locks taken since (ROLLBACK TO needs one first)
          begin = -1;
        }
      }
      if (begin >= 0 && i > begin && letsGo[endRank[i]] && st.get(i).skip() == null) {
        Arrays.fill(out, begin + 1, i, endRank[i]);
        begin = -1;
      } else if (begin >= 0
          && i > begin
          && parts.stream()
              .anyMatch(x -> StatementKind.txControl(x) == StatementKind.TxControl.END)) {
        begin = -1; // ended otherwise (PREPARE TRANSACTION, a string of several): no proof
      }
    }
    return out;
  }

  /**
   * Statement {@code position} of {@code session} came back at {@code at} (nanoTime): where it
   * changed its row, every other session's open holder of that row before its grant is over.
   */
  void cameBack(int session, int position, boolean ok, long affected, long at) {
    int r = row[session][position];
    if (r < 0 || !ok || affected <= 0) {
      return;
    }
    changed[session].set(position, 1);
    int needs = grantNeeds[session][position];
    // outside a block its lock went with its end, before its reply: another may have had the row
    if (needs < 0 || blockEnd[session][position] < 0) {
      return;
    }
    for (Map.Entry<Integer, int[][]> e : holders.get(r).entrySet()) {
      int x = e.getKey();
      if (x == session) {
        continue;
      }
      int[][] list = e.getValue();
      int last = lastBefore(list, needs);
      for (int j = last; j >= 0 && j >= last - 1; j--) {
        if (changed[x].get(list[j][1]) == 1 && order.endedOnce(list[j][0], at)) {
          proofs.incrementAndGet();
        }
      }
    }
  }

  /** The last index whose end rank is below {@code needs}, or -1; the list is by end rank. */
  private static int lastBefore(int[][] list, int needs) {
    int lo = 0;
    int hi = list.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (list[mid][0] < needs) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }
}
