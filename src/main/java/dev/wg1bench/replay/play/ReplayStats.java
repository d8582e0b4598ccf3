package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.LoggedStatement;
import dev.wg1bench.replay.capture.SqlNormalizer;
import dev.wg1bench.workload.OpCounts;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

/** What the replay did, added to by every session thread. Times are in microseconds. */
public final class ReplayStats {
  /** Up to an hour per statement or of lag, at three significant digits. */
  private static final long HIGHEST_MICROS = 3_600_000_000L;

  /**
   * One statement class: its replayed latencies and the log's own durations. A real log has
   * thousands of classes (5,428 in one 4.8 MB capture): two full-range histograms of three digits
   * each (190 KB apiece) needed 2 GB. Per class, two significant digits (1% resolution) in int
   * counts that grow with the largest value recorded: a few KB per class; the whole replay's
   * latency keeps three digits in one histogram of its own.
   */
  public static final class ClassStats {
    public final String text;
    public final AbstractHistogram latency = compact();
    public final AbstractHistogram logged = compact();
    public long count;
    public long logCount;
    public long errors;
    public long logErrors;
    public long rowsAffected;
    public long rowsReturned;

    ClassStats(String text) {
      this.text = text;
    }

    synchronized void ran(long micros, long affected, long returned, String sqlState) {
      count++;
      latency.recordValue(Math.min(Math.max(micros, 0), HIGHEST_MICROS));
      rowsAffected += affected;
      rowsReturned += returned;
      if (sqlState != null) {
        errors++;
      }
    }

    synchronized void logged(LoggedStatement s) {
      logCount++;
      if (s.logDurationMs() != null) {
        logged.recordValue(Math.min(Math.round(s.logDurationMs() * 1000), HIGHEST_MICROS));
      }
      if (s.logSqlState() != null) {
        logErrors++;
      }
    }
  }

  private static AbstractHistogram compact() {
    IntCountsHistogram h = new IntCountsHistogram(2);
    h.setAutoResize(true);
    return h;
  }

  public final Map<String, ClassStats> classes = new ConcurrentHashMap<>();
  private final Histogram all = new Histogram(HIGHEST_MICROS, 3);
  public final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  public final AtomicLong statements = new AtomicLong();
  public final AtomicLong transactions = new AtomicLong();
  public final AtomicLong sessionsStarted = new AtomicLong();
  public final AtomicLong sessionsCompleted = new AtomicLong();
  final AtomicLong sessionsFailed = new AtomicLong();
  final AtomicLong active = new AtomicLong();

  /** Sessions that ended inside a transaction block, rolled back before the pool got it back. */
  public final AtomicLong rolledBack = new AtomicLong();

  /** Pooled connections reset (DISCARD ALL) before going back. */
  public final AtomicLong reset = new AtomicLong();

  /** Starts that waited for another session beyond their time, and the time waited, in ns. */
  public final AtomicLong orderWaits = new AtomicLong();

  public final AtomicLong orderWaitedNanos = new AtomicLong();

  /**
   * Of those, statements that can wait for a row lock held until what ended before they got it had
   * ended ({@link LockWaits}), and the time, in ns.
   */
  public final AtomicLong grantWaits = new AtomicLong();

  public final AtomicLong grantWaitedNanos = new AtomicLong();

  /**
   * Transactions' ends a row lock's grant proved over before their own session's reply marked them
   * ({@link LockProofs}).
   */
  public final AtomicLong endsProven = new AtomicLong();

  /**
   * Set when the replay starts: INSERTs that kept no place among the starts, their table plain in
   * the target's catalog ({@link TableFacts}).
   */
  public volatile long plainInserts;

  /**
   * Waits the log's rows lowered ({@link Footprints}): start places, ends and grants that wait only
   * up to the last transaction sharing a row with theirs.
   */
  public volatile long rowOrdered;

  /**
   * The log's deadlocks ({@link DeadlockSteer}): set when the replay starts, those whose cycle the
   * log shows and, of them, how many the replay could steer (0 when its role may not set
   * deadlock_timeout); counted as it runs, victims sent after their partners and, of them, those
   * whose wait for a partner ran out.
   */
  public volatile long deadlocksResolved;

  /**
   * Set when the replay starts: of those, the ones that followed a race ({@link Deadlocks#raced}).
   */
  public volatile long deadlocksRaced;

  /**
   * Set when the replay starts: those after which a row went to a newcomer first ({@link
   * Deadlocks#lostToNewcomers}).
   */
  public volatile long deadlocksNewcomers;

  /** The deadlock_timeout a steered victim is sent with ({@link DeadlockSteer}), in ms. */
  public static final long DEADLOCK_CHECK_MS = DeadlockSteer.VICTIM_CHECK_MS;

  public volatile boolean deadlocksSteerable;

  public final AtomicLong deadlockVictimsSteered = new AtomicLong();

  public final AtomicLong deadlockPartnersLate = new AtomicLong();

  /** Steered victims sent before every partner was seen waiting for its lock. */
  public final AtomicLong deadlockPartnersUnseen = new AtomicLong();

  /**
   * Set when the replay ends: the order's hand-offs (waits another session's mark let pass), timed
   * in µs [0] from the unpark to the waiter running, [1] from the event the mark stood for (the
   * reply of the statement waited on) to the waiter running.
   */
  public volatile Histogram[] handOffs = {new Histogram(3), new Histogram(3)};

  public final Outcomes outcomes = new Outcomes();
  private final Histogram lag = new Histogram(HIGHEST_MICROS, 3);
  private final Histogram poolWait = new Histogram(HIGHEST_MICROS, 3);

  /** nanoTime of the first statement's start and the last one's end: the exact window. */
  public final AtomicLong firstStart = new AtomicLong(Long.MAX_VALUE);

  public final AtomicLong lastEnd = new AtomicLong(Long.MIN_VALUE);

  /**
   * The sessions' wire counts, each session's added once it ended ({@link StatementWire}): what the
   * replay's per-statement round trips, bytes, rows and completed statements are over.
   */
  private final OpCounts wire = new OpCounts();

  void wire(OpCounts session) {
    synchronized (wire) {
      wire.add(session);
    }
  }

  /** A copy of the sessions' wire counts so far. */
  public OpCounts wireCopy() {
    synchronized (wire) {
      return wire.copy();
    }
  }

  ClassStats of(String sql) {
    String n = SqlNormalizer.normalize(sql);
    return classes.computeIfAbsent(n, ClassStats::new);
  }

  /** One replayed statement: its class's figures and the whole replay's latency. */
  void ran(ClassStats of, long micros, long affected, long returned, String sqlState) {
    of.ran(micros, affected, returned, sqlState);
    synchronized (all) {
      all.recordValue(Math.min(Math.max(micros, 0), HIGHEST_MICROS));
    }
  }

  void lag(long micros) {
    synchronized (lag) {
      lag.recordValue(Math.min(Math.max(micros, 0), HIGHEST_MICROS));
    }
  }

  void poolWait(long micros) {
    synchronized (poolWait) {
      poolWait.recordValue(Math.min(Math.max(micros, 0), HIGHEST_MICROS));
    }
  }

  public Histogram lagCopy() {
    synchronized (lag) {
      return lag.copy();
    }
  }

  public Histogram poolWaitCopy() {
    synchronized (poolWait) {
      return poolWait.copy();
    }
  }

  /** Every replayed statement's latency, all classes together. */
  public Histogram allLatency() {
    synchronized (all) {
      return all.copy();
    }
  }

  void error(String sqlState) {
    errors.computeIfAbsent(sqlState, k -> new LongAdder()).increment();
  }

  void window(long start, long end) {
    firstStart.accumulateAndGet(start, Math::min);
    lastEnd.accumulateAndGet(end, Math::max);
  }

  public long errorCount() {
    return errors.values().stream().mapToLong(LongAdder::sum).sum();
  }
}
