package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.server.ConnectionFactory;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * Breaks a wait the {@link OrderGate} cannot end by itself. The schedule's own waits form no cycle,
 * but a pool smaller than the capture's concurrency can leave every session waiting, for the order
 * or for a connection held by a session that waits for the order; and a statement can block on a
 * row lock held by a session that waits for the order (the two took their locks in another order
 * than in the capture). A lock cycle through the order is let go at once: every {@link #LOOK_NANOS}
 * the watchdog looks, and when a session inside its transaction has waited {@link #CYCLE_NANOS} it
 * reads the server's lock waits and lets go each wait that sits on a cycle ({@link LockCycles}),
 * counted apart. When the order has made no progress for {@link #STALL_NANOS} and one of these
 * still holds, the waits involved are broken, counted and reported with where they were: for the
 * pool, every session that holds a connection and waits leaves the order for the rest of its run
 * (the pool cannot give the capture's concurrency, so it could only stall again); for a lock, the
 * one wait.
 */
public final class Watchdog {
  static final long STALL_NANOS = 1_000_000_000L;

  /**
   * A wait this long, by a session inside its transaction while another runs a statement, has the
   * server's lock view read for a cycle; while none is found the next read comes twice as late, up
   * to {@link #CYCLE_BACKOFF_MAX_NANOS}, so a long wait that is no cycle costs the server little.
   */
  static final long CYCLE_NANOS = 2_000_000L;

  static final long CYCLE_BACKOFF_MAX_NANOS = 20_000_000L;

  /**
   * How soon the watchdog looks again while a wait that could sit on a cycle goes on: the latency
   * of letting a lock cycle go.
   */
  static final long LOOK_NANOS = 2_000_000L;

  /** The longest park between looks: how late a stop is seen when nothing unparks the watchdog. */
  static final long IDLE_PARK_NANOS = 100_000_000L;

  /** The shortest: a look due now or past is not a reason to spin. */
  static final long MIN_PARK_NANOS = 100_000L;

  static final String CYCLE =
      "a session it waited on was blocked by a row lock of its own (taken in another order than in"
          + " the capture): let go at once";
  static final String POOL = "every session waited (a pool smaller than the capture's concurrency)";
  static final String LOCK = "a waiting session held a lock another one needed";

  /** Broken waits listed by where; beyond this only counted. */
  private static final int KEPT = 20;

  private final OrderGate order;
  private final Sessions live;
  private final Function<String, ConnectionFactory> factories;
  private final Map<String, Long> broken = new LinkedHashMap<>();
  private final List<String> brokenAt = new ArrayList<>();
  private long gaveWay;
  private long lockViews;
  private long gaveWayNanos;
  private final List<String> gaveWayAt = new ArrayList<>();
  private long nextCycleLook;
  private long cycleBackoff = CYCLE_NANOS;
  private long oldestSeen = Long.MAX_VALUE;
  private final List<LoggedSession> sessions;
  private long lastProgress = -1;
  private long since;
  private Connection monitor;

  Watchdog(
      OrderGate order,
      Sessions live,
      Function<String, ConnectionFactory> factories,
      List<LoggedSession> sessions) {
    this.order = order;
    this.live = live;
    this.factories = factories;
    this.sessions = sessions;
  }

  /**
   * Looks, on the calling thread, until {@link #stop}: each look when something could need it (a
   * wait reaching {@link #CYCLE_NANOS}, the next cycle look, a stall's second), not on a fixed
   * tick. With no wait at the order it parks until the gate says one began ({@link
   * OrderGate#watcherIdles}): a paced replay's sessions mostly sleep on the clock, and a fixed 2 ms
   * tick cost the replay more CPU than any of its sessions' threads (bench record 2026-12-06).
   */
  void watch() {
    order.watchedBy(Thread.currentThread());
    while (!stopped) {
      long next = look();
      if (next == Long.MAX_VALUE && !order.watcherIdles()) {
        // a wait began since the look: look again
        continue;
      }
      // bounded, so a stop is seen even without an unpark
      LockSupport.parkNanos(this, Math.max(MIN_PARK_NANOS, Math.min(next, IDLE_PARK_NANOS)));
    }
  }

  /** Ends {@link #watch}: the looking thread returns after its current look. */
  void stop(Thread watching) {
    stopped = true;
    LockSupport.unpark(watching);
  }

  private volatile boolean stopped;

  /** Nanoseconds until the next look is needed; Long.MAX_VALUE while no session waits. */
  synchronized long look() {
    long now = System.nanoTime();
    long cycleLook = lookForCycles(now);
    long p = order.progress();
    if (order.waiting() == 0) {
      lastProgress = p;
      since = now;
      return Long.MAX_VALUE;
    }
    if (p != lastProgress) {
      lastProgress = p;
      since = now;
    }
    if (now - since < STALL_NANOS) {
      return Math.min(cycleLook, since + STALL_NANOS) - now;
    }
    since = now;
    if (live.allWaiting()) {
      List<GateWaiter> holding = order.breakWaits(live::holds, POOL);
      if (holding.isEmpty()) {
        // no waiter holds a connection: the order alone cannot stall, but never hang on it
        holding = order.breakWaits(s -> true, POOL);
      }
      holding.forEach(w -> record(w, POOL));
      return LOOK_NANOS;
    }
    Set<Integer> holders = waitersBlockingOthers();
    if (!holders.isEmpty()) {
      order.breakWaits(holders::contains, LOCK).forEach(w -> record(w, LOCK));
    }
    return LOOK_NANOS;
  }

  /**
   * Lets go at once every order wait that sits on a lock cycle ({@link LockCycles}), when one is
   * possible and a wait has lasted {@link #CYCLE_NANOS}: a cycle cannot end by itself, and waiting
   * a second for the stall rule would hold every session behind it.
   */
  private long lookForCycles(long now) {
    long oldest = order.oldestWait();
    if (oldest == Long.MAX_VALUE) {
      oldestSeen = oldest;
      return Long.MAX_VALUE;
    }
    if (oldest != oldestSeen) {
      // another wait is now the oldest: a new cycle may have formed, look soon again
      oldestSeen = oldest;
      cycleBackoff = CYCLE_NANOS;
      nextCycleLook = oldest + CYCLE_NANOS;
    }
    if (now - nextCycleLook < 0) {
      return nextCycleLook;
    }
    if (!live.lockCyclePossible() || !holderWaitsOnRunning(now)) {
      // what the sessions do changes without the gate knowing: look again after a tick
      return now + LOOK_NANOS;
    }
    long asked = System.nanoTime();
    Map<Integer, Set<Integer>> locks = lockWaits();
    lockViews++;
    // only what held through the view: a wait that began before it was read and still goes on,
    // and a lock held by such a session or by one itself waiting for a lock (a chain of blocked
    // statements ending at such a wait is blocked still). The view and the order are read one
    // after the other, and a session whose COMMIT was still flushing its WAL when the view was
    // read (holding its row locks) may wait at the order for its next BEGIN by the time the order
    // is read: no cycle
    Map<Integer, Set<Integer>> on = order.waitsOn(asked);
    locks
        .values()
        .forEach(blockers -> blockers.removeIf(b -> !on.containsKey(b) && !locks.containsKey(b)));
    List<Integer> letGo = LockCycles.toLetGo(on, locks);
    for (int s : letGo) {
      order.breakWaits(w -> w == s, CYCLE).forEach(this::gaveWay);
    }
    cycleBackoff =
        letGo.isEmpty() ? Math.min(cycleBackoff * 2, CYCLE_BACKOFF_MAX_NANOS) : CYCLE_NANOS;
    nextCycleLook = now + cycleBackoff;
    return nextCycleLook;
  }

  /**
   * Whether a session inside its transaction has waited at the order {@link #CYCLE_NANOS} on a
   * session that runs a statement, directly or through other waiting sessions: the one shape a lock
   * cycle through the order takes (its lock edge is a running statement blocked in the server).
   * Read from the replay's own state, so the server's lock view is read only when a cycle can be.
   */
  private boolean holderWaitsOnRunning(long now) {
    Map<Integer, Set<Integer>> on = order.waitsOn(now - CYCLE_NANOS);
    for (int w : on.keySet()) {
      if (!live.inTransaction(w)) {
        continue;
      }
      Deque<Integer> todo = new ArrayDeque<>(on.get(w));
      Set<Integer> seen = new HashSet<>();
      while (!todo.isEmpty()) {
        int s = todo.pop();
        if (live.get(s) == Sessions.RUNNING) {
          return true;
        }
        if (seen.add(s) && on.containsKey(s)) {
          todo.addAll(on.get(s));
        }
      }
    }
    return false;
  }

  /** Times the server's lock view was read for a cycle: the cost the cycle checks put on it. */
  public synchronized long lockViews() {
    return lockViews;
  }

  /** Sessions waiting for the order whose backend blocks another backend's lock request. */
  private Set<Integer> waitersBlockingOthers() {
    Set<Integer> out = new HashSet<>();
    lockWaits().values().forEach(out::addAll);
    out.removeIf(s -> live.get(s) != Sessions.ORDER);
    return out;
  }

  /**
   * The server's lock waits between replayed sessions: each session whose statement waits for a
   * lock, to the sessions whose backends block it. Empty when the server cannot say (the next look
   * asks again).
   */
  private Map<Integer, Set<Integer>> lockWaits() {
    Map<Integer, Integer> byPid = new HashMap<>();
    for (int s = 0; s < live.size(); s++) {
      if (live.holds(s) && live.get(s) != Sessions.DONE) {
        byPid.put(live.pid(s), s);
      }
    }
    Map<Integer, Set<Integer>> out = new HashMap<>();
    try {
      if (monitor == null) {
        monitor = factories.apply(null).openOwn();
      }
      try (Statement st = monitor.createStatement();
          ResultSet r =
              st.executeQuery(
                  "SELECT pid, pg_blocking_pids(pid) FROM pg_stat_activity"
                      + " WHERE wait_event_type = 'Lock'")) {
        while (r.next()) {
          // a backend that is no replayed session (-1) can still be blocked by a waiting one
          int waiter = byPid.getOrDefault(r.getInt(1), -1);
          Array a = r.getArray(2);
          for (Object pid : (Object[]) a.getArray()) {
            Integer blocker = byPid.get(((Number) pid).intValue());
            if (blocker != null) {
              out.computeIfAbsent(waiter, k -> new HashSet<>()).add(blocker);
            }
          }
        }
      }
    } catch (SQLException e) {
      // the server cannot say: the wait goes on, and the next look asks again
    }
    return out;
  }

  private void gaveWay(GateWaiter w) {
    gaveWay++;
    gaveWayNanos += System.nanoTime() - w.since;
    if (gaveWayAt.size() < KEPT) {
      gaveWayAt.add(w.where + " (session " + sessions.get(w.session).id() + ")");
    }
  }

  /** OrderGate waits let go at once on a lock cycle, and where the first were. */
  public synchronized long gaveWay() {
    return gaveWay;
  }

  /** How long the waits let go had waited, in all: what the cycles cost before they were seen. */
  public synchronized long gaveWayNanos() {
    return gaveWayNanos;
  }

  public synchronized List<String> gaveWayAt() {
    return List.copyOf(gaveWayAt);
  }

  private void record(GateWaiter w, String why) {
    if (w == null) {
      return;
    }
    broken.merge(why, 1L, Long::sum);
    if (brokenAt.size() < KEPT) {
      brokenAt.add(w.where + " (session " + sessions.get(w.session).id() + "): " + why);
    }
  }

  public synchronized Map<String, Long> broken() {
    return new LinkedHashMap<>(broken);
  }

  public synchronized List<String> brokenAt() {
    return List.copyOf(brokenAt);
  }

  synchronized void close() {
    if (monitor != null) {
      try {
        monitor.close();
      } catch (SQLException e) {
        // closing the tool's own connection: nothing to learn
      }
      monitor = null;
    }
  }
}
