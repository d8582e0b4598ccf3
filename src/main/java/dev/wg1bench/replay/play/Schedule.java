package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.LogOrder;
import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.replay.capture.LoggedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The order between sessions that a replay keeps at every speed, from the log's times. Two rules,
 * each a rank in one global order:
 *
 * <ul>
 *   <li><b>starts in log order</b>: a session connects, and a statement is sent, only after every
 *       connection and statement that started before it in the log has been started in the replay
 *       (statements that overlapped in the log still overlap);
 *   <li><b>happens-before</b>: a connection or statement waits until every statement (and every
 *       session) of another session that ended before it started in the log has ended in the
 *       replay, so a statement that followed another session's commit sees that commit, and a
 *       session that began after another one ended does not begin before it ends.
 * </ul>
 *
 * pgreplay and pgreplay-go only time each statement by the clock (scaled by the speed), so a slow
 * statement or a fast speed lets later ones overtake it; here the clock decides when a statement is
 * due and these ranks decide whether it may go. An end the log does not show (log_statement without
 * durations) is taken as the session's next start, an upper bound: a later end only ever removes a
 * wait, so the ranks never ask for an order the capture did not have, and waits on them cannot form
 * a cycle. Records logged in the same millisecond are ordered as the log wrote them ({@link
 * LogOrder}), so a start logged after another session's end waits for it even in the same
 * millisecond. A statement that can wait for a row lock is sent, once started, only when what ended
 * before it got the lock has ended ({@link LockWaits}), a transaction's end counted as soon as it
 * is sent ({@link #endLetsGo}): the server may grant a row in another order than it was asked for,
 * and the replay keeps the capture's grants. Only the starts and ends another session can see or
 * contend with take part ({@link OrderedEvents}): a statement inside another session's open block
 * is waited for by no one (its COMMIT is), and a BEGIN or a plain SELECT keeps no place among the
 * starts; an INSERT also waits for another session's DELETE inside its block that ended before it
 * started, whose key it may wait for ({@link #endHoldsKeys}). Where the target's catalog lets a
 * transaction name the rows it reads and changes, its statements' waits on other sessions stop at
 * the last transaction that shares one of them, or names none ({@link Footprints}, {@link
 * #startsNeeded}).
 */
final class Schedule {
  /** Per session: [0] its connection, [i + 1] its statement i; the rank of each start. */
  final int[][] startRank;

  /**
   * Per session, same shape: how many starts (by start rank) must be done first, for a start that
   * keeps its place; at most its own rank, lower where the starts before it share no row with it
   * ({@link Footprints}).
   */
  final int[][] startsNeeded;

  /**
   * Waits lowered by the transactions' rows ({@link Footprints}): [0] start places, [1] ends, [2]
   * grants.
   */
  final long[] narrowed;

  /** Per session, same shape: how many end events (by end rank) must be done first. */
  final int[][] endsNeeded;

  /** Per session: [i] the end rank of statement i, [n] that of the session itself. */
  final int[][] endRank;

  /** The session of each start rank, and of each end rank: whom a wait for a rank waits on. */
  final int[] startSession;

  final int[] endSession;

  /**
   * Per session, per statement: how many end events must be done before it is sent, once started,
   * when it can wait for a row lock ({@link LockWaits}): those before its grant; else -1, nothing
   * beyond {@link #endsNeeded}.
   */
  final int[][] grantNeeds;

  /**
   * Per start rank: whether it keeps its place among the starts ({@link OrderedEvents}); one that
   * does not waits for no earlier start, and no later one waits for it.
   */
  final boolean[] startOrders;

  /** Per end rank: whether a start of another session waits for it ({@link OrderedEvents}). */
  final boolean[] endOrders;

  /**
   * Per end rank: whether it is a transaction's end (COMMIT, ROLLBACK) that lets go of its locks
   * once sent ({@link OrderedEvents#letsGo}): a lock's grant waits for it to be sent, not to end.
   */
  final boolean[] endLetsGo;

  /**
   * Per end rank: a DELETE's inside a block, which orders no start but an INSERT's ({@link
   * OrderedEvents#holdsKeys}).
   */
  final boolean[] endHoldsKeys;

  /** Per session, per statement: whether its start waits for those DELETEs too. */
  final boolean[][] waitsForKeys;

  final int starts;
  final int ends;

  /**
   * Cue groups ({@link OrderGate#awaitCue}), two per deadlock cycle of the log ({@link Deadlocks}):
   * [2k] the sessions of cycle k's partners, which its victim waits for to be sent; [2k + 1] its
   * victim's, which the partners queued behind it wait for.
   */
  final int[][] cueMembers;

  /** INSERTs into a plain table ({@link TableFacts#plainInsert}): they keep no place. */
  final long plainInserts;

  private record Event(Instant time, int session, int position, boolean orders) {
    Event(Instant time, int session, int position) {
      this(time, session, position, true);
    }
  }

  private static final Comparator<Event> ORDER =
      Comparator.comparing(Event::time)
          .thenComparingInt(Event::session)
          .thenComparingInt(Event::position);

  Schedule(List<LoggedSession> sessions) {
    this(sessions, TableFacts.NONE);
  }

  /**
   * @param facts what the target's catalog says of the log's tables: an INSERT into a plain one
   *     keeps no place ({@link OrderedEvents})
   */
  Schedule(List<LoggedSession> sessions, TableFacts facts) {
    this(sessions, facts, Deadlocks.NONE);
  }

  /**
   * @param deadlocks the log's deadlocks: a partner's grant does not wait for its victim's failure
   *     ({@link #grantNeeds})
   */
  Schedule(List<LoggedSession> sessions, TableFacts facts, Deadlocks deadlocks) {
    this(sessions, facts, deadlocks, false);
  }

  /**
   * @param serializable the replay's sessions run SERIALIZABLE (its isolation or settings): no
   *     transaction names rows ({@link Footprints})
   */
  Schedule(
      List<LoggedSession> sessions, TableFacts facts, Deadlocks deadlocks, boolean serializable) {
    int n = sessions.size();
    boolean[][] plain = new boolean[n][];
    long plainCount = 0;
    for (int s = 0; s < n; s++) {
      List<LoggedStatement> st = sessions.get(s).statements();
      plain[s] = new boolean[st.size()];
      for (int i = 0; i < st.size(); i++) {
        plain[s][i] =
            st.get(i).skip() == null
                && facts.plainInsert(facts.database(sessions.get(s)), st.get(i).sent());
        plainCount += plain[s][i] ? 1 : 0;
      }
    }
    startRank = new int[n][];
    startsNeeded = new int[n][];
    endsNeeded = new int[n][];
    endRank = new int[n][];
    List<Event> startEvents = new ArrayList<>();
    List<Event> endEvents = new ArrayList<>();
    Instant[][] startTimes = new Instant[n][];
    for (int s = 0; s < n; s++) {
      startTimes[s] = events(sessions.get(s), s, plain[s], startEvents, endEvents);
      int positions = startTimes[s].length;
      startRank[s] = new int[positions];
      endsNeeded[s] = new int[positions];
      endRank[s] = new int[positions];
    }
    startEvents.sort(ORDER);
    endEvents.sort(ORDER);
    startSession = new int[startEvents.size()];
    startOrders = new boolean[startEvents.size()];
    int[] startStatement = new int[startEvents.size()];
    for (int r = 0; r < startEvents.size(); r++) {
      Event e = startEvents.get(r);
      startRank[e.session][e.position] = r;
      startStatement[r] = e.position - 1;
      startSession[r] = e.session;
      startOrders[r] = e.orders;
    }
    Instant[] endTimes = new Instant[endEvents.size()];
    int[] endStatement = new int[endEvents.size()];
    endSession = new int[endEvents.size()];
    endOrders = new boolean[endEvents.size()];
    endLetsGo = new boolean[endEvents.size()];
    endHoldsKeys = new boolean[endEvents.size()];
    boolean[][] letsGo = new boolean[n][];
    boolean[][] holdsKeys = new boolean[n][];
    waitsForKeys = new boolean[n][];
    for (int s = 0; s < n; s++) {
      letsGo[s] = OrderedEvents.letsGo(sessions.get(s));
      holdsKeys[s] = OrderedEvents.holdsKeys(sessions.get(s));
      waitsForKeys[s] = OrderedEvents.waitsForKeys(sessions.get(s), plain[s]);
    }
    for (int r = 0; r < endEvents.size(); r++) {
      Event e = endEvents.get(r);
      endRank[e.session][e.position] = r;
      endStatement[r] = e.position;
      endTimes[r] = e.time;
      endSession[r] = e.session;
      endOrders[r] = e.orders;
      endLetsGo[r] = e.position < letsGo[e.session].length && letsGo[e.session][e.position];
      endHoldsKeys[r] =
          e.position < holdsKeys[e.session].length && holdsKeys[e.session][e.position];
    }
    for (int s = 0; s < n; s++) {
      for (int p = 0; p < startTimes[s].length; p++) {
        endsNeeded[s][p] = before(endTimes, startTimes[s][p]);
      }
    }
    Instant[][] grants = LockWaits.grants(sessions);
    grantNeeds = new int[n][];
    for (int s = 0; s < n; s++) {
      grantNeeds[s] = new int[grants[s].length];
      for (int i = 0; i < grants[s].length; i++) {
        grantNeeds[s][i] = grants[s][i] == null ? -1 : before(endTimes, grants[s][i]);
      }
    }
    Footprints rows = new Footprints(sessions, facts, plain, serializable);
    narrowed = new long[3];
    for (int s = 0; s < n; s++) {
      startsNeeded[s] = startRank[s].clone();
    }
    narrowed[0] =
        Footprints.narrow(rows, startsNeeded, 1, startSession, startStatement, startOrders);
    narrowed[1] = Footprints.narrow(rows, endsNeeded, 1, endSession, endStatement, endOrders);
    narrowed[2] = Footprints.narrow(rows, grantNeeds, 0, endSession, endStatement, endOrders);
    // a deadlock's partner got its lock when the victim failed, after its own check: its grant
    // waits for what ended before that failure, not for the failure, which in the replay comes
    // only once the partner is sent (DeadlockSteer), and whatever it waits for then it waits for
    // on the server
    cueMembers = new int[2 * deadlocks.cycles.size()][];
    for (int k = 0; k < deadlocks.cycles.size(); k++) {
      Deadlocks.Cycle c = deadlocks.cycles.get(k);
      cueMembers[2 * k] = c.partners().stream().mapToInt(p -> p[0]).toArray();
      cueMembers[2 * k + 1] = new int[] {c.session()};
      int failed = endRank[c.session()][c.statement()];
      for (List<int[]> ps : List.of(c.partners(), c.behind())) {
        for (int[] p : ps) {
          if (grantNeeds[p[0]][p[1]] > failed) {
            grantNeeds[p[0]][p[1]] = failed;
          }
        }
      }
    }
    starts = startEvents.size();
    ends = endEvents.size();
    plainInserts = plainCount;
  }

  /**
   * Adds a session's start events (its connection, then each statement) and end events (each
   * statement, then the session itself); returns the times of its starts.
   */
  private static Instant[] events(
      LoggedSession ls, int s, boolean[] plain, List<Event> startEvents, List<Event> endEvents) {
    List<LoggedStatement> st = ls.statements();
    Instant[] startTimes = new Instant[st.size() + 1];
    startTimes[0] = ls.connected();
    startEvents.add(new Event(ls.connected(), s, 0));
    boolean[] ordered = OrderedEvents.starts(ls, plain);
    for (int i = 0; i < st.size(); i++) {
      startTimes[i + 1] = st.get(i).time();
      startEvents.add(new Event(st.get(i).time(), s, i + 1, ordered[i]));
    }
    Instant last = ls.connected();
    boolean[] orders = OrderedEvents.ends(ls);
    for (int i = 0; i < st.size(); i++) {
      Instant end = end(ls, i);
      if (end.isBefore(st.get(i).time())) {
        end = st.get(i).time();
      }
      endEvents.add(new Event(end, s, i, orders[i]));
      last = max(last, end);
    }
    Instant gone = ls.disconnected() == null ? Instant.MAX : max(ls.disconnected(), last);
    endEvents.add(new Event(gone, s, st.size()));
    return startTimes;
  }

  /** The best upper bound the log gives for when statement i ended. */
  private static Instant end(LoggedSession s, int i) {
    LoggedStatement st = s.statements().get(i);
    if (st.end() != null) {
      return st.end();
    }
    if (i + 1 < s.statements().size()) {
      return s.statements().get(i + 1).time();
    }
    return s.disconnected() == null ? Instant.MAX : s.disconnected();
  }

  /** How many of the sorted times are strictly before {@code t}. */
  private static int before(Instant[] sorted, Instant t) {
    int i = Arrays.binarySearch(sorted, t);
    if (i < 0) {
      return -i - 1;
    }
    while (i > 0 && sorted[i - 1].equals(t)) {
      i--;
    }
    return i;
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
