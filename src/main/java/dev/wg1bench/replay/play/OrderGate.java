package dev.wg1bench.replay.play;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;
import org.HdrHistogram.Histogram;

/**
 * The gate that holds each session to the {@link Schedule}: starts and ends are marked done as the
 * sessions run, each kind advancing a watermark (every rank below it done), and a session waits
 * until both watermarks reach what its next start needs. Waiters sit in priority queues and are
 * woken one by one, so a thousand sessions cost no thundering herd.
 *
 * <p>The schedule's waits alone cannot form a cycle, but the replay has resources the log's order
 * does not know of: a pool smaller than the capture's concurrency, or a row lock taken in another
 * order than in the capture. A session inside its transaction may then wait, through the order, on
 * a session blocked by its own row lock: the watchdog sees that cycle in the server's lock view and
 * lets the wait go at once ({@link #waitsOn}); other stalls it {@link #breakWaits breaks} after a
 * second. Both are counted and reported apart.
 */
final class OrderGate {
  /** A session waiting at the gate. */
  static final class Waiter {
    final Thread thread = Thread.currentThread();
    final int session;
    final int startRank;
    final int endsNeeded;

    /** Which ends it waits for. */
    final Needs needs;

    final String where;
    final long since = System.nanoTime();
    volatile boolean passed;
    volatile String broken;

    /** nanoTime at which another session's mark let it pass and unparked it. */
    volatile long wokenAt;

    /** nanoTime of the event that mark stands for (a statement's end as its reply came in). */
    volatile long markedAt;

    Waiter(int session, int startRank, int endsNeeded, Needs needs, String where) {
      this.needs = needs;
      this.where = where;
      this.session = session;
      this.startRank = startRank;
      this.endsNeeded = endsNeeded;
    }
  }

  private final boolean keepStartOrder;
  private final int[] startSession;
  private final int[] endSession;
  private final boolean[] started;
  private final boolean[] ended;

  /** Per end rank: ended, or a transaction's end already sent (it lets go of its locks). */
  private final boolean[] released;

  /**
   * Per end rank, for an INSERT: ended, a DELETE inside a block among them ({@link Needs#KEYS}).
   */
  private final boolean[] keyEnded;

  private int keyMark;

  private int startMark;
  private int endMark;
  private int releaseMark;
  private long progress;
  private final PriorityQueue<Waiter> forStarts =
      new PriorityQueue<>(Comparator.comparingInt((Waiter w) -> w.startRank));
  private final PriorityQueue<Waiter> forEnds =
      new PriorityQueue<>(Comparator.comparingInt((Waiter w) -> w.endsNeeded));
  private final PriorityQueue<Waiter> forReleases =
      new PriorityQueue<>(Comparator.comparingInt((Waiter w) -> w.endsNeeded));
  private final PriorityQueue<Waiter> forKeys =
      new PriorityQueue<>(Comparator.comparingInt((Waiter w) -> w.endsNeeded));

  /** Which ends a wait needs done, each kind with its watermark. */
  enum Needs {
    /** the ends that order: a start's (happens-before) */
    ENDS,
    /** the same, a transaction's end counted once sent: a lock's grant ({@link #releasing}) */
    RELEASES,
    /** the ends that order and the DELETEs inside blocks: an INSERT's start (its key) */
    KEYS
  }

  /**
   * @param keepStartOrder false with a pool: sessions queue for connections, so starts cannot keep
   *     the log's order, and only happens-before is kept
   */
  OrderGate(Schedule schedule, boolean keepStartOrder) {
    this.keepStartOrder = keepStartOrder;
    this.startSession = schedule.startSession;
    this.endSession = schedule.endSession;
    this.started = new boolean[schedule.starts];
    this.ended = new boolean[schedule.ends];
    this.released = new boolean[schedule.ends];
    this.keyEnded = new boolean[schedule.ends];
    // a start or an end no other session waits for is done from the outset: the watermarks pass
    // over it
    for (int r = 0; r < started.length; r++) {
      started[r] = !schedule.startOrders[r];
    }
    for (int r = 0; r < ended.length; r++) {
      ended[r] = !schedule.endOrders[r];
      released[r] = ended[r];
      keyEnded[r] = ended[r] && !schedule.endHoldsKeys[r];
    }
    while (startMark < started.length && started[startMark]) {
      startMark++;
    }
    while (endMark < ended.length && ended[endMark]) {
      endMark++;
    }
    advanceReleases();
    advanceKeys();
  }

  /** How a wait ended. */
  enum Wait {
    /** the start could go at once */
    FREE,
    /** it waited for the order */
    WAITED,
    /** the watchdog broke the wait: it went without its order */
    BROKEN_BY_POOL,
    BROKEN_BY_LOCK,
    /** the server showed a lock cycle through the wait: it went at once, without its order */
    GAVE_WAY
  }

  /**
   * Waits until the start may go, or the wait is broken, or the replay is told to stop; for a
   * lock's grant ({@link Needs#RELEASES}), the ends it needs count as done once released ({@link
   * #releasing}).
   */
  Wait await(
      int session,
      int startRank,
      int endsNeeded,
      Needs needs,
      String where,
      AtomicBoolean stop,
      Runnable onWait) {
    Waiter w = new Waiter(session, keepStartOrder ? startRank : 0, endsNeeded, needs, where);
    synchronized (this) {
      if (ready(w)) {
        return Wait.FREE;
      }
      queue(w);
    }
    onWait.run();
    while (!w.passed && w.broken == null && !stop.get()) {
      // wakes at least every 100 ms to see a stop
      LockSupport.parkNanos(this, 100_000_000L);
    }
    if (!w.passed) {
      synchronized (this) {
        forStarts.remove(w);
        forEnds.remove(w);
        forReleases.remove(w);
        forKeys.remove(w);
      }
    }
    if (w.passed) {
      long now = System.nanoTime();
      handOff(now - w.wokenAt, now - w.markedAt);
    }
    if (w.passed || w.broken == null) {
      return Wait.WAITED;
    }
    if (Watchdog.CYCLE.equals(w.broken)) {
      return Wait.GAVE_WAY;
    }
    return Watchdog.POOL.equals(w.broken) ? Wait.BROKEN_BY_POOL : Wait.BROKEN_BY_LOCK;
  }

  /**
   * Hand-offs: waits that another session's mark let pass, each timed from the unpark to the
   * waiting thread running again (the wake's latency, what a hand-off adds beyond the order
   * itself), in µs.
   */
  private final Histogram handOffs = new Histogram(3_600_000_000L, 3);

  /** The same hand-offs timed from the event the mark stands for (a reply's arrival) instead. */
  private final Histogram handOffsFromEvent = new Histogram(3_600_000_000L, 3);

  /** nanoTime of the event the mark being made stands for (under the gate's monitor). */
  private long markAt;

  private void handOff(long wakeNanos, long eventNanos) {
    synchronized (handOffs) {
      handOffs.recordValue(Math.min(Math.max(wakeNanos / 1000, 0), 3_600_000_000L));
      handOffsFromEvent.recordValue(Math.min(Math.max(eventNanos / 1000, 0), 3_600_000_000L));
    }
  }

  /** A copy of the hand-offs' latencies so far, in µs: [0] from the unpark, [1] the event. */
  Histogram[] handOffs() {
    synchronized (handOffs) {
      return new Histogram[] {handOffs.copy(), handOffsFromEvent.copy()};
    }
  }

  synchronized void started(int rank) {
    markAt = System.nanoTime();
    started[rank] = true;
    while (startMark < started.length && started[startMark]) {
      startMark++;
    }
    progress++;
    promote();
  }

  synchronized void ended(int rank) {
    ended(rank, System.nanoTime());
  }

  /** Marks end {@code rank} done, its statement's reply having come in at {@code at} (nanoTime). */
  synchronized void ended(int rank, long at) {
    markAt = at;
    ended[rank] = true;
    released[rank] = true;
    keyEnded[rank] = true;
    while (endMark < ended.length && ended[endMark]) {
      endMark++;
    }
    advanceReleases();
    advanceKeys();
    progress++;
    promote();
  }

  /**
   * Marks end {@code rank} done, proven over at {@code at} ({@link LockProofs}), unless it is done
   * already; true when this marked it.
   */
  synchronized boolean endedOnce(int rank, long at) {
    if (ended[rank]) {
      return false;
    }
    ended(rank, at);
    return true;
  }

  /**
   * A transaction's end (COMMIT, ROLLBACK) is being sent: once on its way it ends by itself, and
   * the locks it lets go are granted in the server's queue, in the order they were asked for. A
   * statement that waited for one of them in the capture may then be sent at once and queue for it,
   * as it queued in the capture, instead of after a round trip to the COMMIT's own client.
   */
  synchronized void releasing(int rank) {
    markAt = System.nanoTime();
    released[rank] = true;
    advanceReleases();
    progress++;
    promote();
  }

  private void advanceReleases() {
    while (releaseMark < released.length && released[releaseMark]) {
      releaseMark++;
    }
  }

  private void advanceKeys() {
    while (keyMark < keyEnded.length && keyEnded[keyMark]) {
      keyMark++;
    }
  }

  /** Marks done, counted as progress since the last look. */
  synchronized long progress() {
    return progress;
  }

  synchronized int waiting() {
    return forStarts.size() + forEnds.size() + forReleases.size() + forKeys.size();
  }

  /**
   * Lets every waiting session of {@code sessions} go without its order, saying why; returns them.
   */
  synchronized List<Waiter> breakWaits(IntPredicate sessions, String why) {
    List<Waiter> out = new ArrayList<>();
    for (PriorityQueue<Waiter> q : List.of(forStarts, forEnds, forReleases, forKeys)) {
      for (Waiter w : q) {
        if (sessions.test(w.session)) {
          out.add(w);
        }
      }
    }
    for (Waiter w : out) {
      forStarts.remove(w);
      forEnds.remove(w);
      forReleases.remove(w);
      forKeys.remove(w);
      w.broken = why;
      LockSupport.unpark(w.thread);
    }
    return out;
  }

  /**
   * Whom each session waiting since before {@code before} (nanoTime) waits on: for each, the other
   * sessions that own a start or an end its wait needs and that is not done yet. The graph the
   * watchdog looks for a lock cycle in: a wait that began before the server's lock view was read
   * and still goes on held through it, so the locks its session holds are those the view showed (a
   * session waiting at the order sends nothing).
   */
  synchronized Map<Integer, Set<Integer>> waitsOn(long before) {
    Map<Integer, Set<Integer>> out = new HashMap<>();
    for (PriorityQueue<Waiter> q : List.of(forStarts, forEnds, forReleases, forKeys)) {
      for (Waiter w : q) {
        if (w.since - before >= 0) {
          continue;
        }
        boolean[] done = done(w.needs);
        Set<Integer> on = out.computeIfAbsent(w.session, k -> new HashSet<>());
        for (int r = startMark; r < w.startRank; r++) {
          if (!started[r]) {
            on.add(startSession[r]);
          }
        }
        for (int r = mark(w.needs); r < w.endsNeeded; r++) {
          if (!done[r]) {
            on.add(endSession[r]);
          }
        }
        on.remove(w.session);
      }
    }
    return out;
  }

  /** When the longest wait still waiting began (nanoTime), or Long.MAX_VALUE when none waits. */
  synchronized long oldestWait() {
    long oldest = Long.MAX_VALUE;
    for (PriorityQueue<Waiter> q : List.of(forStarts, forEnds, forReleases, forKeys)) {
      for (Waiter w : q) {
        oldest = Math.min(oldest, w.since);
      }
    }
    return oldest;
  }

  private boolean startReady(Waiter w) {
    return startMark >= w.startRank;
  }

  private boolean endsReady(Waiter w) {
    return mark(w.needs) >= w.endsNeeded;
  }

  private int mark(Needs needs) {
    return switch (needs) {
      case ENDS -> endMark;
      case RELEASES -> releaseMark;
      case KEYS -> keyMark;
    };
  }

  private boolean[] done(Needs needs) {
    return switch (needs) {
      case ENDS -> ended;
      case RELEASES -> released;
      case KEYS -> keyEnded;
    };
  }

  private PriorityQueue<Waiter> queueFor(Needs needs) {
    return switch (needs) {
      case ENDS -> forEnds;
      case RELEASES -> forReleases;
      case KEYS -> forKeys;
    };
  }

  private boolean ready(Waiter w) {
    return startReady(w) && endsReady(w);
  }

  /**
   * The watchdog's thread, unparked when a wait begins at an empty gate ({@link Watchdog#watch}).
   */
  private Thread watcher;

  /**
   * Whether the watchdog parks with no wait to look at ({@link #watcherIdles}): only then does a
   * wait beginning unpark it. In a timed park it wakes at its own time; an unpark at every wait
   * begun at an empty gate woke it thousands of times a second on an unpaced log, for nothing.
   */
  private boolean watcherIdle;

  synchronized void watchedBy(Thread t) {
    watcher = t;
  }

  /**
   * The watchdog is about to park until a wait begins: true when none waits now (the next wait
   * unparks it), false when one began since its look (it should look again).
   */
  synchronized boolean watcherIdles() {
    watcherIdle = waiting() == 0;
    return watcherIdle;
  }

  private void queue(Waiter w) {
    if (watcherIdle) {
      watcherIdle = false;
      LockSupport.unpark(watcher);
    }
    if (!startReady(w)) {
      forStarts.add(w);
    } else {
      queueFor(w.needs).add(w);
    }
  }

  private void promote() {
    while (!forStarts.isEmpty() && startReady(forStarts.peek())) {
      Waiter w = forStarts.poll();
      if (ready(w)) {
        wake(w);
      } else {
        queue(w);
      }
    }
    while (!forEnds.isEmpty() && endMark >= forEnds.peek().endsNeeded) {
      wake(forEnds.poll());
    }
    while (!forReleases.isEmpty() && releaseMark >= forReleases.peek().endsNeeded) {
      wake(forReleases.poll());
    }
    while (!forKeys.isEmpty() && keyMark >= forKeys.peek().endsNeeded) {
      wake(forKeys.poll());
    }
  }

  private void wake(Waiter w) {
    w.markedAt = markAt;
    w.wokenAt = System.nanoTime();
    w.passed = true;
    LockSupport.unpark(w.thread);
  }
}
