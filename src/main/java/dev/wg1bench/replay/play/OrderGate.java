package dev.wg1bench.replay.play;

import java.util.ArrayList;
import java.util.Collection;
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
 *
 * <p>A deadlock's victim in the log waits here too, for its cycle's other statements to be sent
 * ({@link #awaitCue}, {@link DeadlockSteer}): the watchdog sees that wait as any other.
 */
final class OrderGate {
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

  /** Per cue group (a deadlock cycle's partners, or its victim): which have been sent. */
  private final Cues cues;

  /** Waiting for a cue group ({@link Needs#CUE}: endsNeeded is the group). */
  private final List<GateWaiter> forCues = new ArrayList<>();

  private int startMark;
  private int endMark;
  private int releaseMark;
  private long progress;
  private final PriorityQueue<GateWaiter> forStarts =
      new PriorityQueue<>(Comparator.comparingInt((GateWaiter w) -> w.startRank));
  private final PriorityQueue<GateWaiter> forEnds =
      new PriorityQueue<>(Comparator.comparingInt((GateWaiter w) -> w.endsNeeded));
  private final PriorityQueue<GateWaiter> forReleases =
      new PriorityQueue<>(Comparator.comparingInt((GateWaiter w) -> w.endsNeeded));
  private final PriorityQueue<GateWaiter> forKeys =
      new PriorityQueue<>(Comparator.comparingInt((GateWaiter w) -> w.endsNeeded));

  /** Which ends a wait needs done, each kind with its watermark. */
  enum Needs {
    /** the ends that order: a start's (happens-before) */
    ENDS,
    /** the same, a transaction's end counted once sent: a lock's grant ({@link #releasing}) */
    RELEASES,
    /** the ends that order and the DELETEs inside blocks: an INSERT's start (its key) */
    KEYS,
    /** a deadlock cycle's statements sent ({@link #awaitCue}) */
    CUE
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
    this.cues = new Cues(schedule.cueMembers);
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
    GAVE_WAY,
    /** its deadline passed first ({@link #awaitCue}) */
    TIMED_OUT
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
    GateWaiter w =
        new GateWaiter(session, keepStartOrder ? startRank : 0, endsNeeded, needs, where);
    synchronized (this) {
      if (ready(w)) {
        return Wait.FREE;
      }
      queue(w);
    }
    return park(w, 0, stop, onWait);
  }

  /**
   * A statement of a deadlock's cycle ({@link DeadlockSteer}): waits until every member of cue
   * {@code group} has been sent ({@link #cue}), or the wait is broken, or {@code deadline}
   * (nanoTime) passes, or the replay is told to stop.
   */
  Wait awaitCue(
      int session, int group, String where, long deadline, AtomicBoolean stop, Runnable onWait) {
    GateWaiter w = new GateWaiter(session, 0, group, Needs.CUE, where);
    synchronized (this) {
      if (cues.ready(group)) {
        return Wait.FREE;
      }
      queue(w);
    }
    return park(w, deadline, stop, onWait);
  }

  /**
   * Parks a queued waiter until it passes, is broken, is stopped or its deadline (nanoTime; 0 for
   * none) passes.
   */
  private Wait park(GateWaiter w, long deadline, AtomicBoolean stop, Runnable onWait) {
    onWait.run();
    boolean late = false;
    while (!w.passed && w.broken == null && !stop.get()) {
      // wakes at least every 100 ms to see a stop
      long left = deadline == 0 ? 100_000_000L : deadline - System.nanoTime();
      if (left <= 0) {
        late = true;
        break;
      }
      LockSupport.parkNanos(this, Math.min(left, 100_000_000L));
    }
    if (!w.passed) {
      synchronized (this) {
        for (Collection<GateWaiter> q : queues()) {
          q.remove(w);
        }
      }
    }
    if (w.passed) {
      long now = System.nanoTime();
      handOffs.record(now - w.wokenAt, now - w.markedAt);
    }
    if (w.passed || w.broken == null) {
      return late && !w.passed ? Wait.TIMED_OUT : Wait.WAITED;
    }
    if (Watchdog.CYCLE.equals(w.broken)) {
      return Wait.GAVE_WAY;
    }
    return Watchdog.POOL.equals(w.broken) ? Wait.BROKEN_BY_POOL : Wait.BROKEN_BY_LOCK;
  }

  private final HandOffs handOffs = new HandOffs();

  /** nanoTime of the event the mark being made stands for (under the gate's monitor). */
  private long markAt;

  /** A copy of the hand-offs' latencies so far, in µs: [0] from the unpark, [1] the event. */
  Histogram[] handOffs() {
    return handOffs.copy();
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
    return forStarts.size() + forEnds.size() + forReleases.size() + forKeys.size() + forCues.size();
  }

  private List<Collection<GateWaiter>> queues() {
    return List.of(forStarts, forEnds, forReleases, forKeys, forCues);
  }

  /** Member {@code member} of cue {@code group} is being sent: its waiters go once all are. */
  synchronized void cue(int group, int member) {
    markAt = System.nanoTime();
    progress++;
    if (cues.send(group, member)) {
      forCues.removeIf(
          w -> {
            if (w.endsNeeded != group) {
              return false;
            }
            wake(w);
            return true;
          });
    }
  }

  /**
   * Lets every waiting session of {@code sessions} go without its order, saying why; returns them.
   */
  synchronized List<GateWaiter> breakWaits(IntPredicate sessions, String why) {
    List<GateWaiter> out = new ArrayList<>();
    for (Collection<GateWaiter> q : queues()) {
      for (GateWaiter w : q) {
        if (sessions.test(w.session)) {
          out.add(w);
        }
      }
    }
    for (GateWaiter w : out) {
      for (Collection<GateWaiter> q : queues()) {
        q.remove(w);
      }
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
    for (Collection<GateWaiter> q : queues()) {
      for (GateWaiter w : q) {
        if (w.since - before >= 0) {
          continue;
        }
        Set<Integer> on = out.computeIfAbsent(w.session, k -> new HashSet<>());
        if (w.needs == Needs.CUE) {
          cues.unsent(w.endsNeeded, on);
          on.remove(w.session);
          continue;
        }
        boolean[] done = done(w.needs);
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
    for (Collection<GateWaiter> q : queues()) {
      for (GateWaiter w : q) {
        oldest = Math.min(oldest, w.since);
      }
    }
    return oldest;
  }

  private boolean startReady(GateWaiter w) {
    return startMark >= w.startRank;
  }

  private boolean endsReady(GateWaiter w) {
    return mark(w.needs) >= w.endsNeeded;
  }

  private int mark(Needs needs) {
    return switch (needs) {
      case ENDS -> endMark;
      case RELEASES -> releaseMark;
      case KEYS -> keyMark;
      case CUE -> throw new IllegalArgumentException("a cue has no mark");
    };
  }

  private boolean[] done(Needs needs) {
    return switch (needs) {
      case ENDS -> ended;
      case RELEASES -> released;
      case KEYS -> keyEnded;
      case CUE -> throw new IllegalArgumentException("a cue has no mark");
    };
  }

  private PriorityQueue<GateWaiter> queueFor(Needs needs) {
    return switch (needs) {
      case ENDS -> forEnds;
      case RELEASES -> forReleases;
      case KEYS -> forKeys;
      case CUE -> throw new IllegalArgumentException("a cue waits in forCues");
    };
  }

  private boolean ready(GateWaiter w) {
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

  private void queue(GateWaiter w) {
    if (watcherIdle) {
      watcherIdle = false;
      LockSupport.unpark(watcher);
    }
    if (w.needs == Needs.CUE) {
      forCues.add(w);
    } else if (!startReady(w)) {
      forStarts.add(w);
    } else {
      queueFor(w.needs).add(w);
    }
  }

  private void promote() {
    while (!forStarts.isEmpty() && startReady(forStarts.peek())) {
      GateWaiter w = forStarts.poll();
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

  private void wake(GateWaiter w) {
    w.markedAt = markAt;
    w.wokenAt = System.nanoTime();
    w.passed = true;
    LockSupport.unpark(w.thread);
  }
}
