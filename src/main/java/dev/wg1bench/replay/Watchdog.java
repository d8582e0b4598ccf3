package dev.wg1bench.replay;

import dev.wg1bench.server.ConnectionFactory;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Breaks a wait the {@link Order} cannot end by itself. The schedule's own waits form no cycle, but
 * a pool smaller than the capture's concurrency can leave every session waiting, for the order or
 * for a connection held by a session that waits for the order; and a statement can block on a row
 * lock held by a session that waits for the order (the two took their locks in another order than
 * in the capture). When the order has made no progress for {@link #STALL_NANOS} and one of these
 * holds, the waits involved are broken, counted and reported with where they were: for the pool,
 * every session that holds a connection and waits leaves the order for the rest of its run (the
 * pool cannot give the capture's concurrency, so it could only stall again); for a lock, the one
 * wait.
 */
final class Watchdog {
  static final long STALL_NANOS = 1_000_000_000L;
  static final String POOL = "every session waited (a pool smaller than the capture's concurrency)";
  static final String LOCK = "a waiting session held a lock another one needed";

  /** Broken waits listed by where; beyond this only counted. */
  private static final int KEPT = 20;

  private final Order order;
  private final Sessions live;
  private final Function<String, ConnectionFactory> factories;
  private final Map<String, Long> broken = new LinkedHashMap<>();
  private final List<String> brokenAt = new ArrayList<>();
  private final List<LoggedSession> sessions;
  private long lastProgress = -1;
  private long since;
  private Connection monitor;

  Watchdog(
      Order order,
      Sessions live,
      Function<String, ConnectionFactory> factories,
      List<LoggedSession> sessions) {
    this.order = order;
    this.live = live;
    this.factories = factories;
    this.sessions = sessions;
  }

  synchronized void look() {
    long now = System.nanoTime();
    long p = order.progress();
    if (order.waiting() == 0 || p != lastProgress) {
      lastProgress = p;
      since = now;
      return;
    }
    if (now - since < STALL_NANOS) {
      return;
    }
    since = now;
    if (live.allWaiting()) {
      List<Order.Waiter> holding = order.breakWaits(live::holds, POOL);
      if (holding.isEmpty()) {
        // no waiter holds a connection: the order alone cannot stall, but never hang on it
        holding = order.breakWaits(s -> true, POOL);
      }
      holding.forEach(w -> record(w, POOL));
      return;
    }
    Set<Integer> holders = waitersBlockingOthers();
    if (!holders.isEmpty()) {
      order.breakWaits(holders::contains, LOCK).forEach(w -> record(w, LOCK));
    }
  }

  /** Sessions waiting for the order whose backend blocks another backend's lock request. */
  private Set<Integer> waitersBlockingOthers() {
    Set<Integer> out = new HashSet<>();
    try {
      if (monitor == null) {
        monitor = factories.apply(null).openPlain();
      }
      Set<Integer> blockers = new HashSet<>();
      try (Statement st = monitor.createStatement();
          ResultSet r =
              st.executeQuery(
                  "SELECT pg_blocking_pids(pid) FROM pg_stat_activity"
                      + " WHERE wait_event_type = 'Lock'")) {
        while (r.next()) {
          Array a = r.getArray(1);
          for (Object pid : (Object[]) a.getArray()) {
            blockers.add(((Number) pid).intValue());
          }
        }
      }
      for (int s = 0; s < live.size(); s++) {
        if (live.get(s) == Sessions.ORDER && blockers.contains(live.pid(s))) {
          out.add(s);
        }
      }
    } catch (SQLException e) {
      // the server cannot say: the wait goes on, and the next look asks again
    }
    return out;
  }

  private void record(Order.Waiter w, String why) {
    if (w == null) {
      return;
    }
    broken.merge(why, 1L, Long::sum);
    if (brokenAt.size() < KEPT) {
      brokenAt.add(w.where + " (session " + sessions.get(w.session).id() + "): " + why);
    }
  }

  synchronized Map<String, Long> broken() {
    return new LinkedHashMap<>(broken);
  }

  synchronized List<String> brokenAt() {
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
