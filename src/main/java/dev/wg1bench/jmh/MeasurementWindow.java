package dev.wg1bench.jmh;

import dev.wg1bench.ProcessCpu;
import dev.wg1bench.fork.ForkReport;
import dev.wg1bench.server.ConnectionFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The wall-clock windows a fork's throughput is measured over: one per measurement iteration,
 * opened when the last client is ready (when JMH starts its iteration timer) and closed one
 * iteration time later, the same instants for every client. An op counts when it completes inside
 * the window, whichever phase of JMH's it ran in.
 *
 * <p>Why not JMH's score: with many threads JMH's synchronisation of iteration ends takes seconds,
 * its aux counters count the ops run meanwhile, and it divides them by the iteration time only (at
 * 200 clients tps came out 2.8 times the statements/s). Counting by completion time in one shared
 * window makes tps = successful ops / window exactly, never above attempted ops/s, and comparable
 * with the server's commit counter sampled at the same two instants.
 *
 * <p>With pgbench's -t (ops per client) there is one window, opened once every client is connected
 * and ready (the others wait for it, as pgbench's threads wait for all connections) and closed when
 * the last client has run its ops: every op of the run falls inside it, and the server's commit
 * counter is read at the same two instants.
 */
final class MeasurementWindow {
  /** Width of the per-second throughput samples the interval is computed from. */
  static final long BIN_NANOS = 1_000_000_000L;

  /**
   * One iteration's window: fixed start and end, shared by all clients. It is published to the
   * clients before its start is stamped (see {@link #stamp}): a client that completes an op between
   * the two reads "not started" and, its op being earlier than the start, rightly leaves it out.
   * Were the start taken first, ops completed before the clients could see the window (the opening
   * thread preempted on a busy machine: some 2,000 ops at 200 clients) were missed by the tool
   * while the server's WAL counted them.
   */
  static final class Span {
    private static final long UNSTAMPED = Long.MIN_VALUE;

    /** Written before {@link #start}'s volatile write, so read after it is seen set. */
    long end;

    volatile long start = UNSTAMPED;
    final ForkReport.Window record;
    long cpuAtStart;
    final Long commitsAtStart;
    final String walAtStart;

    /** Midpoint of the round trip that read commitsAtStart: when the server's count was taken. */
    final long commitsTakenAt;

    ScheduledFuture<?> closing;
    ForkServerSide.Started server; // the server's side over the window; a warmup's is dropped

    /** -t: the window has been closed by its last client (or truncated). */
    boolean closed;

    /** False for a warmup iteration's span (see {@link #warmup}): what it counts is dropped. */
    final boolean measured;

    Span(ForkReport.Window record, Long commitsAtStart, String walAtStart, long commitsTakenAt) {
      this(record, commitsAtStart, walAtStart, commitsTakenAt, true);
    }

    private Span(
        ForkReport.Window record,
        Long commitsAtStart,
        String walAtStart,
        long commitsTakenAt,
        boolean measured) {
      this.record = record;
      this.commitsAtStart = commitsAtStart;
      this.walAtStart = walAtStart;
      this.commitsTakenAt = commitsTakenAt;
      this.measured = measured;
    }

    /**
     * A warmup iteration's span. Counted into it, the warmup's ops take the op path's counting
     * branches as measured ops will: with no span before the first window, the JIT compiled the
     * path with those branches cut off, and at the window's opening threw the compiled op path away
     * (pgjdbc's calls inlined in it) and compiled it again, in the measured time (25% of a measured
     * window's CPU was the C2 compiler's, select7 at 4 clients, on this 2-core machine). A client's
     * counts are cleared at each iteration's start and a warmup's never read (see
     * Client.beginIteration, ForkTally.absorb), so nothing counted here reaches a result.
     */
    static Span warmup() {
      return new Span(new ForkReport.Window(), null, null, 0, false);
    }

    /** Starts the published window now; it lasts {@code nanos}. */
    void stamp(long now, long nanos) {
      end = now + nanos;
      start = now;
    }

    boolean contains(long t) {
      long s = start;
      return s != UNSTAMPED && t - s >= 0 && t - end < 0;
    }

    int bin(long t) {
      return (int) ((t - start) / BIN_NANOS);
    }
  }

  /** A -t window's provisional length: longer than any run, closed by the last client instead. */
  static final long UNTIL_DONE = 1_000_000_000_000_000_000L;

  /** Number of per-second samples of a window of {@code nanos}, the last one possibly partial. */
  static int bins(long nanos) {
    return (int) ((nanos + BIN_NANOS - 1) / BIN_NANOS);
  }

  /**
   * Guards the windows. A lock rather than the monitor: the clients wait here for the window to
   * open, and the last one reads the server's counter here, and on Java 21-23 a virtual thread that
   * blocks inside synchronized pins its carrier.
   */
  private final ReentrantLock lock = new ReentrantLock();

  private final Condition openedCond = lock.newCondition();
  private final ScheduledExecutorService closer;
  private final List<ForkReport.Window> windows = new ArrayList<>();
  private volatile Span current;
  private int ready;
  private final boolean untilDone;
  private int opened;
  private int finished;
  private final ServerCounter stats;
  private final ForkServerSide serverSide;

  /** With --agent: the local epoch ms the first window opens at, agreed with the other agents. */
  private Long openAtEpochMs;

  MeasurementWindow(ConnectionFactory connections, boolean untilDone) {
    this.stats = new ServerCounter(connections);
    this.serverSide = new ForkServerSide(connections);
    this.untilDone = untilDone;
    // loaded now, not while the last client ready opens the first window and runs no op
    ProcessCpu.nanos();
    this.closer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "wg1bench-window");
              t.setDaemon(true);
              return t;
            });
  }

  /** With --agent: the first window opens at this local epoch ms, not before. */
  void openAt(long epochMs) {
    lock.lock();
    try {
      if (windows.isEmpty()) {
        openAtEpochMs = epochMs;
      }
    } finally {
      lock.unlock();
    }
  }

  /** A span no op falls in: between a warmup span and the window that follows it. */
  private static final Span CLOSED = Span.warmup();

  /**
   * The window of the running measurement iteration (or the last one), null before any; during a
   * warmup iteration its span, whose counts are dropped ({@link Span#measured} false).
   */
  Span current() {
    return current;
  }

  /**
   * A client finished its iteration setup; the last one of a measurement iteration opens the
   * window. JMH starts its own timer only once every thread is ready, so this is its start too.
   */
  void clientReady(int threads, boolean measuring, long nanos) {
    lock.lock();
    try {
      clientReadyLocked(threads, measuring, nanos);
    } finally {
      lock.unlock();
    }
  }

  private void clientReadyLocked(int threads, boolean measuring, long nanos) {
    Span last = current;
    if (ready == 0 && last != null && !last.measured) {
      // the first client of the next iteration: the warmup span ends here, so no op of the next
      // iteration can complete inside it and be counted in the counts that client just cleared
      current = CLOSED;
      serverSideOf(last);
    }
    if (++ready < threads) {
      if (untilDone && measuring) {
        awaitOpening();
      }
      return;
    }
    ready = 0;
    if (!measuring) {
      if (!untilDone) {
        openWarmup(nanos);
      }
      return;
    }
    stats.open();
    serverSideOf(current); // started before an agreed instant: its connections take time
    ForkServerSide.Started server = serverSide.start();
    awaitAgreedOpening();
    openWindow(nanos, server);
  }

  /**
   * -t, a client that is not the last ready (lock held): JMH's single shot has no start barrier, so
   * no client starts before the window opens.
   */
  private void awaitOpening() {
    int before = opened;
    while (opened == before) {
      try {
        openedCond.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * With --agent (lock held): the agents' windows coincide, so the last client waits for the agreed
   * instant (the others keep running ops meanwhile, JMH's iteration start barrier lets them); a
   * fork that comes later than the instant opens its window late, and the window's recorded start
   * says so.
   */
  private void awaitAgreedOpening() {
    if (openAtEpochMs == null) {
      return;
    }
    long wait = openAtEpochMs - System.currentTimeMillis();
    openAtEpochMs = null;
    if (wait > 0) {
      try {
        Thread.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The last client ready of a measurement iteration opens its window (lock held): the server's
   * counter read, the span published and then stamped, and its closing scheduled (or, with -t, the
   * waiting clients released).
   */
  private void openWindow(long nanos, ForkServerSide.Started server) {
    long asked = System.nanoTime();
    ServerCounter.Count count = stats.read();
    long answered = System.nanoTime();
    ForkReport.Window w = new ForkReport.Window();
    w.nanos = nanos;
    w.okPerSecond = new long[untilDone ? 0 : bins(nanos)];
    windows.add(w);
    Span s =
        new Span(
            w,
            count == null ? null : count.commits(),
            count == null ? null : count.wal(),
            asked + (answered - asked) / 2);
    s.server = server;
    // published first, then started: see Span
    current = s;
    s.cpuAtStart = ProcessCpu.nanos();
    stampStart(s, nanos);
    if (ended) {
      // the run was stopped before this window opened: it ends as it opens
      truncate(s, System.nanoTime());
    }
    if (untilDone) {
      finished = 0;
      opened++;
      openedCond.signalAll();
    } else if (!s.closed) {
      s.closing = closer.schedule(() -> close(s), nanos, TimeUnit.NANOSECONDS);
    }
  }

  /** Starts {@code s} at one instant on both clocks (ClockPair): the clients' and the WAL's. */
  private static void stampStart(Span s, long nanos) {
    ClockPair start = ClockPair.read();
    s.stamp(start.nanos(), nanos);
    s.record.startEpochMicros = start.epochMicros();
  }

  /**
   * A warmup iteration warms what the window's opening runs, so no compiled code is thrown away
   * when it opens. Its ops count into a span for the first half of the iteration and into none for
   * the second, so the op path takes both ways of its counting branches before it is measured (see
   * {@link Span#warmup}). Halfway through, the server's counter is read and the server's side
   * started as at a window's opening, the side dropped at the iteration's end: their code and their
   * own driver's (server.OwnDriver) compiled before the first window, not inside it.
   */
  private void openWarmup(long nanos) {
    Span w = Span.warmup();
    current = w;
    w.stamp(System.nanoTime(), nanos / 2);
    warmupRead = closer.schedule(this::warmupRead, nanos / 2, TimeUnit.NANOSECONDS);
  }

  /** The warmup's read of the server's counter, still to come; dropped when the fork ends first. */
  private ScheduledFuture<?> warmupRead;

  private void warmupRead() {
    lock.lock();
    try {
      stats.open();
      stats.read();
      Span w = current;
      if (w != null && w != CLOSED && !w.measured && w.server == null) {
        w.server = serverSide.start();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * -t: a client ran its ops; the last one closes the window now. The server's count is read later,
   * in {@link #finish()}, once the clients have disconnected.
   */
  void clientFinished(int threads) {
    long cpu = ProcessCpu.nanos();
    lock.lock();
    try {
      Span s = current;
      if (s == null || ++finished < threads || s.closed) {
        return;
      }
      s.closed = true;
      end(s, System.nanoTime());
      s.record.cpuNanos = cpu - s.cpuAtStart;
    } finally {
      lock.unlock();
    }
  }

  /**
   * A -t window's server count, read after its clients disconnected: a backend publishes its
   * commits to pg_stat_database at most once a second while it runs and then only when idle for 10
   * s (PostgreSQL 15+), but always when it exits; read at once, the count missed them (0 of 400
   * commits after a 0.2 s run, measured). The count settles once every client's backend is gone.
   */
  private void countAfterClients(Span s) {
    if (!stats.isOpen() || s.commitsAtStart == null) {
      return;
    }
    ServerCounter.Count last = null;
    long deadline = System.nanoTime() + SETTLE_NANOS;
    while (System.nanoTime() < deadline) {
      LockSupport.parkNanos(100_000_000L);
      ServerCounter.Count now = stats.read();
      if (now == null) {
        return;
      }
      if (last != null && now.commits() - last.commits() <= 1) {
        // nothing but (at most) our own read committed since the last read
        last = now;
        break;
      }
      last = now;
    }
    // the reads after the first each count one commit of their own: not the clients'
    s.record.serverCommits = last.commits() - s.commitsAtStart;
    s.record.walStart = s.walAtStart;
    s.record.walEnd = last.wal();
    s.record.serverNanos = s.record.nanos;
  }

  /** How long a -t run waits at most for its clients' commits to be published. */
  static final long SETTLE_NANOS = 3_000_000_000L;

  /**
   * The window ends at {@code now}. A -t window's per-second samples grow as clients fold theirs
   * in, and are cut to its length when the fork's report is written.
   */
  private static void end(Span s, long now) {
    s.record.nanos = now - s.start;
  }

  private void close(Span s) {
    long cpu = ProcessCpu.nanos();
    lock.lock();
    try {
      long asked = System.nanoTime();
      ServerCounter.Count count = stats.read();
      long answered = System.nanoTime();
      s.record.cpuNanos = cpu - s.cpuAtStart;
      if (count != null && s.commitsAtStart != null) {
        s.record.serverCommits = count.commits() - s.commitsAtStart;
        s.record.walStart = s.walAtStart;
        s.record.walEnd = count.wal();
        // under load a round trip can take a good part of a second: the server's count covers
        // the time between the two reads, not the window itself
        s.record.serverNanos = asked + (answered - asked) / 2 - s.commitsTakenAt;
      }
    } finally {
      lock.unlock();
    }
    serverSideOf(s);
  }

  /** {@code s}'s server side finished into its record, once (a warmup's record is dropped). */
  private static void serverSideOf(Span s) {
    if (s != null && s.server != null) {
      s.record.serverSide = s.server.finish();
    }
  }

  /**
   * The run was stopped (--exit-on-error, every client stopped): the window in progress ends now,
   * without a server sample, and so does one that opens later. A client can stop the run before the
   * last client is ready and opens the iteration's window (JMH runs the ready clients' ops while it
   * waits for the others); that window must not claim the full duration.
   */
  void truncate() {
    lock.lock();
    try {
      ended = true;
      if (current != null) {
        truncate(current, System.nanoTime());
      }
    } finally {
      lock.unlock();
    }
  }

  /** Set by {@link #truncate()}: no window lasts past it. */
  private boolean ended;

  private static void truncate(Span s, long now) {
    if (s.contains(now) && !s.closed) {
      s.closed = true;
      if (s.closing != null) {
        s.closing.cancel(false);
      }
      end(s, now);
      s.record.cpuNanos = ProcessCpu.nanos() - s.cpuAtStart;
      s.record.serverCommits = null;
    }
  }

  /**
   * The windows so far, after waiting for the last one's closing sample; also closes the stats
   * connection.
   */
  List<ForkReport.Window> finish() {
    lock.lock();
    try {
      if (warmupRead != null) {
        warmupRead.cancel(false);
      }
    } finally {
      lock.unlock();
    }
    closer.shutdown();
    try {
      closer.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    lock.lock();
    try {
      Span s = current;
      if (untilDone && s != null && s.closed && s.record.serverCommits == null) {
        countAfterClients(s);
      }
      stats.close();
      serverSideOf(s); // -t, or a truncated window: not finished by a closing
      return new ArrayList<>(windows);
    } finally {
      lock.unlock();
    }
  }
}
