package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.LoggedSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * Keeps the capture's victim of each deadlock of the log ({@link Deadlocks}). The server does not
 * choose a victim by the order statements were sent in but by time: each backend that waits for a
 * lock checks for a cycle once, {@code deadlock_timeout} after it began to wait, and the first
 * check that finds one fails its own statement. Replayed as logged, the victim is whichever check
 * comes first on the target, and on a log whose deadlocks close within a millisecond (a capture's
 * low {@code deadlock_timeout}) that is the other backend about half the time: the capture's victim
 * then succeeds, its partner fails, and each of them diverges with what follows.
 *
 * <p>So the victim's statement is sent last and checks first: the victim's session sets its own
 * {@code deadlock_timeout} to {@link #VICTIM_CHECK_MS} (one query, while its partners are still on
 * their way), waits at the order until every partner's statement has been sent ({@link
 * OrderGate#awaitCue}: the watchdog lets that wait go at once if a partner's session is blocked by
 * the victim's own locks, as any wait at the order), then until the server shows them waiting for
 * their locks ({@link #SEEN_NANOS}), and then sends its statement; its check runs {@link
 * #VICTIM_CHECK_MS} after it began to wait, once the cycle is closed and long before the partners'
 * own checks: each partner's session sets its own to {@link #PARTNER_CHECK_MS} before its
 * statement, whatever the target's (a capture server's is set low to log lock waits, and the
 * partner would check first; PostgreSQL's default, 1 s, held every session behind a deadlock the
 * replay took otherwise a second before its partners' checks ended it). A setting goes back with
 * its transaction when the statement fails inside one (as a victim's should), and by a second query
 * otherwise. A partner's grant does not wait for the victim's failure ({@link Schedule}). The role
 * must be allowed to set {@code deadlock_timeout} (a superuser, or {@code GRANT SET ON PARAMETER
 * deadlock_timeout}); without it the victims are left to the server's timing, and the report says
 * so.
 */
final class DeadlockSteer {
  /**
   * The victim's deadlock_timeout: a margin for the partners the victim does not see waiting before
   * it is sent (one whose session waits at the order as another cycle's victim, or whose wait comes
   * after a third session's lock), short against any target's deadlock_timeout (1 s by default) and
   * against the log's pace. The least PostgreSQL takes, 1 ms, replayed a transfer log with 154
   * deadlocks 4 % faster, but with 35-42 statements divergent against 19-31 (three replays each,
   * alternated).
   */
  static final long VICTIM_CHECK_MS = 5;

  /**
   * A partner's deadlock_timeout, whatever the target's: far above the victim's check and the
   * hand-off from the partner's send to the victim's (tens of microseconds; milliseconds on a
   * saturated machine), yet short where the victim's check finds no cycle (the replay's locks taken
   * otherwise than the capture's): the partner's own check then ends the wait in 100 ms, where the
   * target's default would hold it, and every session behind it, a second.
   */
  static final long PARTNER_CHECK_MS = 100;

  /**
   * How long a victim waits for its partners beyond the log's time for the last of them: a partner
   * held longer (a session lost, a stall the watchdog breaks) lets it go, counted.
   */
  static final long PATIENCE_NANOS = 1_000_000_000L;

  /**
   * How long a victim whose partners' statements are sent waits to see them waiting for their locks
   * on the server: sent is not waiting (on a machine whose every core is busy a partner's backend
   * can reach its lock wait milliseconds after the send), and a check that runs before the cycle is
   * closed finds nothing and is not run again, so the partner's own check, later, ended the cycle
   * the other way. As long as the partners' check: a partner not waiting by then is one the replay
   * let have its lock (its locks taken otherwise than the capture's).
   */
  static final long SEEN_NANOS = PARTNER_CHECK_MS * 1_000_000L;

  /** Between two looks at the partners' waits: a few round trips to the server. */
  private static final long LOOK_NANOS = 500_000L;

  /**
   * Counts a victim's partners whose backend waits for a lock, read from the server's lock view.
   */
  private static final String WAITING =
      "SELECT count(*) FROM unnest(?::int[]) AS p WHERE cardinality(pg_blocking_pids(p)) > 0";

  /**
   * Per cycle: until when (log time) its victim waits for its partners, and its partners queued
   * behind it for the victim: when the last of them, or the victim, started in the log.
   */
  private final Instant[] partnersDue;

  private final Instant[] victimDue;

  /** Per cycle: its partners' statements {session, statement}, seen waiting before the victim. */
  private final List<List<int[]>> partnersOf = new ArrayList<>();

  /**
   * Per session: 1 + the partner statement it is sending or has sent without its reply yet, from
   * just before its cues to its reply; 0 when none.
   */
  private final AtomicIntegerArray onWire;

  /** Per victim statement (session, statement): its cycle. */
  private final Map<Long, Integer> victims = new HashMap<>();

  /** Per partner statement: its cue memberships, each {group, its place in the group}. */
  private final Map<Long, List<int[]>> partnerIn = new HashMap<>();

  /** Per partner statement queued behind its victim: the cycles it waits for the victim of. */
  private final Map<Long, List<Integer>> behindIn = new HashMap<>();

  private final boolean allowed;

  /** Whether partners set their own check: the target's deadlock_timeout is not already it. */
  private final boolean partnersSlowed;

  /** Whether every session starts with the partners' check: the target's is shorter. */
  private final boolean sessionsSlowed;

  /** Victims sent after their partners with the short check. */
  private final AtomicLong steered;

  /** Waits for a cycle's other statements that ran out ({@link #PATIENCE_NANOS}). */
  private final AtomicLong partnersLate;

  /** Victims sent with a partner not seen waiting for its lock ({@link #SEEN_NANOS}). */
  private final AtomicLong partnersUnseen;

  /**
   * @param allowed whether the replay's role may set deadlock_timeout
   * @param partnersSlowed whether partners set theirs: the target's is not already it
   * @param sessionsSlowed whether every session starts with it: the target's is shorter
   */
  DeadlockSteer(
      List<LoggedSession> sessions,
      Deadlocks deadlocks,
      boolean allowed,
      boolean partnersSlowed,
      boolean sessionsSlowed,
      ReplayStats stats) {
    this.allowed = allowed && !deadlocks.isEmpty();
    this.partnersSlowed = partnersSlowed;
    this.sessionsSlowed = this.allowed && sessionsSlowed;
    this.steered = stats.deadlockVictimsSteered;
    this.partnersLate = stats.deadlockPartnersLate;
    this.partnersUnseen = stats.deadlockPartnersUnseen;
    int n = deadlocks.cycles.size();
    this.partnersDue = new Instant[n];
    this.victimDue = new Instant[n];
    this.onWire = new AtomicIntegerArray(sessions.size());
    for (int k = 0; k < n; k++) {
      Deadlocks.Cycle c = deadlocks.cycles.get(k);
      partnersOf.add(c.partners());
      victims.put(key(c.session(), c.statement()), k);
      victimDue[k] = sessions.get(c.session()).statements().get(c.statement()).time();
      partnersDue[k] = victimDue[k];
      for (int j = 0; j < c.partners().size(); j++) {
        int[] p = c.partners().get(j);
        partnerIn
            .computeIfAbsent(key(p[0], p[1]), x -> new ArrayList<>())
            .add(new int[] {2 * k, j});
        Instant t = sessions.get(p[0]).statements().get(p[1]).time();
        partnersDue[k] = t.isAfter(partnersDue[k]) ? t : partnersDue[k];
      }
      for (int[] p : c.behind()) {
        behindIn.computeIfAbsent(key(p[0], p[1]), x -> new ArrayList<>()).add(k);
        partnerIn.computeIfAbsent(key(p[0], p[1]), x -> new ArrayList<>());
      }
    }
  }

  /**
   * The steering of the log's resolved deadlocks, its role's right to set deadlock_timeout read on
   * a tool connection to the first victim's database; {@code note} says why victims are left to the
   * server, when they are.
   */
  static DeadlockSteer of(
      List<LoggedSession> sessions,
      Deadlocks deadlocks,
      TableFacts facts,
      TableFacts.Opener opener,
      ReplayStats stats,
      Consumer<String> note) {
    stats.deadlocksResolved = deadlocks.cycles.size();
    stats.deadlocksRaced = deadlocks.raced;
    stats.deadlocksNewcomers = deadlocks.lostToNewcomers(sessions, facts);
    if (deadlocks.isEmpty()) {
      return new DeadlockSteer(sessions, deadlocks, false, false, false, stats);
    }
    String db = facts.database(sessions.get(deadlocks.cycles.get(0).session()));
    boolean allowed = false;
    boolean slowed = false;
    boolean all = false;
    try (Connection c = opener.open(db);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT (SELECT setting::bigint FROM pg_settings WHERE name = 'deadlock_timeout'),"
                    + " set_config('deadlock_timeout', current_setting('deadlock_timeout'), false)")) {
      rs.next();
      allowed = true;
      long ms = rs.getLong(1);
      slowed = ms != PARTNER_CHECK_MS;
      all = ms < PARTNER_CHECK_MS;
      if (slowed) {
        note.accept(
            "the target's deadlock_timeout is "
                + ms
                + " ms: "
                + (all
                    ? "every replayed session runs with "
                        + PARTNER_CHECK_MS
                        + " ms (set as it"
                        + " connects), and each statement of a deadlock's cycle other than its"
                        + " victim too"
                    : "the statements of a deadlock's cycle other than its victim run with "
                        + PARTNER_CHECK_MS
                        + " ms")
                + " (a query before and after each), so that a victim's check, at "
                + VICTIM_CHECK_MS
                + " ms, finds its cycle first, and where it finds none (the replay's locks taken"
                + " otherwise) theirs ends the wait soon");
      }
    } catch (SQLException e) {
      note.accept(
          "the log's "
              + deadlocks.cycles.size()
              + " deadlocks keep their victims only if the replay's role may set deadlock_timeout"
              + " (a superuser, or GRANT SET ON PARAMETER deadlock_timeout); it may not ("
              + e.getSQLState()
              + "): each victim is the one the target's own checks choose");
    }
    stats.deadlocksSteerable = allowed;
    return new DeadlockSteer(sessions, deadlocks, allowed, slowed, all, stats);
  }

  /**
   * The settings every replayed session starts with: the partners' check where the target's is
   * shorter. A statement waiting in the queue for a row of a cycle without being one of its own
   * (the log's DETAIL names only the cycle's backends) checks for one too, and with a capture
   * server's short timeout it found the cycle first and failed where the log's statement had not.
   */
  Map<String, String> sessionSettings() {
    return sessionsSlowed ? Map.of("deadlock_timeout", PARTNER_CHECK_MS + "ms") : Map.of();
  }

  /** Whether a statement is steered as a victim or a partner of the log's deadlocks. */
  boolean involves(int session, int statement) {
    long k = key(session, statement);
    return allowed && (victims.containsKey(k) || partnerIn.containsKey(k));
  }

  /**
   * A statement about to be sent, when it is a partner in the log's deadlocks: one queued behind a
   * victim waits for that victim to be sent, then its own check is set long where the target's is
   * short, and the victims waiting for it may go; returns the setting to put back after it ({@link
   * #after}), or null when none was changed.
   */
  String partner(Connection c, OrderGate order, int session, int statement, Waits waits)
      throws SQLException {
    List<int[]> in = allowed ? partnerIn.get(key(session, statement)) : null;
    if (in == null) {
      return null;
    }
    for (int k : behindIn.getOrDefault(key(session, statement), List.of())) {
      await(order, session, 2 * k + 1, victimDue[k], waits);
    }
    try {
      return partnersSlowed ? set(c, PARTNER_CHECK_MS) : null;
    } finally {
      onWire.set(session, statement + 1);
      for (int[] gj : in) {
        order.cue(gj[0], gj[1]);
      }
    }
  }

  /**
   * A statement about to be sent, when it is a deadlock's victim in the log: sets its session's
   * check short, waits at the order for its partners' statements to be sent (until they are, the
   * watchdog lets the wait go, or it runs out) and then for the server to show them waiting for
   * their locks ({@link #SEEN_NANOS} at most), and lets go those queued behind it; returns the
   * setting to put back after it ({@link #after}), or null when the statement is no victim steered.
   */
  String victim(Connection c, OrderGate order, int session, int statement, Waits waits)
      throws SQLException {
    Integer k = allowed ? victims.get(key(session, statement)) : null;
    if (k == null) {
      return null;
    }
    try {
      String was = set(c, VICTIM_CHECK_MS);
      steered.incrementAndGet();
      if (await(order, session, 2 * k, partnersDue[k], waits)) {
        awaitWaiting(c, partnersOf.get(k), waits);
      }
      return was;
    } finally {
      order.cue(2 * k + 1, 0);
    }
  }

  /** {@link #partner} or {@link #victim}: a step before a statement of a cycle is sent. */
  @FunctionalInterface
  interface Step {
    String take(Connection c, OrderGate order, int session, int statement, Waits waits)
        throws SQLException;
  }

  /** After a statement of a cycle came back (or failed to go): it is no longer on the wire. */
  void cameBack(int session) {
    onWire.set(session, 0);
  }

  /**
   * How a session waits at the order for a cycle's statements: where it is in the log, the nanoTime
   * a log time falls at in the replay, the replay's stop, what to do once waiting, and what every
   * session is doing now (its state and backend pid).
   */
  record Waits(
      String where,
      ToLongFunction<Instant> due,
      AtomicBoolean stop,
      Runnable onWait,
      Sessions live) {}

  /**
   * Waits for a cue group, {@link #PATIENCE_NANOS} at most past {@code until}'s time (or now);
   * whether every statement of the group was sent (false: it ran out, or the watchdog or the
   * replay's stop let it go).
   */
  private boolean await(OrderGate order, int session, int group, Instant until, Waits w) {
    long deadline = Math.max(System.nanoTime(), w.due().applyAsLong(until)) + PATIENCE_NANOS;
    OrderGate.Wait got = order.awaitCue(session, group, w.where(), deadline, w.stop(), w.onWait());
    if (got == OrderGate.Wait.TIMED_OUT) {
      partnersLate.incrementAndGet();
    }
    return got == OrderGate.Wait.FREE || got == OrderGate.Wait.WAITED;
  }

  /**
   * Looks, on the victim's own connection (a query beside its open transaction, which reads and
   * locks nothing), until every partner still on its way to the server waits for a lock there,
   * {@link #SEEN_NANOS} at most. A partner whose reply came back (the replay let it have its lock)
   * or whose session waits at the order (a statement that is the victim of another cycle, waiting
   * for that cycle's partners) will not be waiting soon: the victim does not wait for it.
   */
  private void awaitWaiting(Connection c, List<int[]> partners, Waits w) throws SQLException {
    long deadline = System.nanoTime() + SEEN_NANOS;
    try (PreparedStatement ps = c.prepareStatement(WAITING)) {
      while (true) {
        Integer[] pids =
            partners.stream()
                .filter(p -> onWire.get(p[0]) == p[1] + 1 && w.live().get(p[0]) != Sessions.ORDER)
                .map(p -> w.live().pid(p[0]))
                .toArray(Integer[]::new);
        if (pids.length == 0) {
          return;
        }
        ps.setArray(1, c.createArrayOf("int4", pids));
        if (waiting(ps) == pids.length) {
          return;
        }
        if (System.nanoTime() - deadline > 0 || w.stop().get()) {
          partnersUnseen.incrementAndGet();
          return;
        }
        LockSupport.parkNanos(LOOK_NANOS);
      }
    }
  }

  private static long waiting(PreparedStatement ps) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Sets the session's deadlock_timeout; returns what it was. */
  private static String set(Connection c, long ms) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT current_setting('deadlock_timeout'), set_config('deadlock_timeout', '"
                    + ms
                    + "ms', false)")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /**
   * After a steered victim's statement: its setting back, unless the statement failed inside a
   * transaction block, whose end puts it back by itself (a query now would fail in the aborted
   * block).
   */
  static void after(Connection c, String was, boolean failedInBlock) throws SQLException {
    if (was == null || failedInBlock) {
      return;
    }
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT set_config('deadlock_timeout', '" + was.replace("'", "''") + "', false)")) {
      rs.next();
    }
  }

  private static long key(int session, int statement) {
    return ((long) session << 32) | (statement & 0xffffffffL);
  }
}
