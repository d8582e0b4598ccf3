package dev.wg1bench.replay;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/** What the replay did, added to by every session thread. Times are in microseconds. */
final class ReplayStats {
  /** Up to an hour per statement or of lag, at three significant digits. */
  private static final long HIGHEST_MICROS = 3_600_000_000L;

  /** One statement class: its replayed latencies and the log's own durations. */
  static final class ClassStats {
    final String text;
    final Histogram latency = new Histogram(HIGHEST_MICROS, 3);
    final Histogram logged = new Histogram(HIGHEST_MICROS, 3);
    long count;
    long logCount;
    long errors;
    long logErrors;
    long rowsAffected;
    long rowsReturned;

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

  final Map<String, ClassStats> classes = new ConcurrentHashMap<>();
  final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  final AtomicLong statements = new AtomicLong();
  final AtomicLong transactions = new AtomicLong();
  final AtomicLong sessionsStarted = new AtomicLong();
  final AtomicLong sessionsCompleted = new AtomicLong();
  final AtomicLong sessionsFailed = new AtomicLong();
  final AtomicLong active = new AtomicLong();
  private final Histogram lag = new Histogram(HIGHEST_MICROS, 3);
  private final Histogram poolWait = new Histogram(HIGHEST_MICROS, 3);

  /** nanoTime of the first statement's start and the last one's end: the exact window. */
  final AtomicLong firstStart = new AtomicLong(Long.MAX_VALUE);

  final AtomicLong lastEnd = new AtomicLong(Long.MIN_VALUE);

  ClassStats of(String sql) {
    String n = SqlText.normalize(sql);
    return classes.computeIfAbsent(n, ClassStats::new);
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

  Histogram lagCopy() {
    synchronized (lag) {
      return lag.copy();
    }
  }

  Histogram poolWaitCopy() {
    synchronized (poolWait) {
      return poolWait.copy();
    }
  }

  /** Every replayed statement's latency, all classes together. */
  Histogram allLatency() {
    Histogram all = new Histogram(HIGHEST_MICROS, 3);
    for (ClassStats c : classes.values()) {
      synchronized (c) {
        all.add(c.latency);
      }
    }
    return all;
  }

  void error(String sqlState) {
    errors.computeIfAbsent(sqlState, k -> new LongAdder()).increment();
  }

  void window(long start, long end) {
    firstStart.accumulateAndGet(start, Math::min);
    lastEnd.accumulateAndGet(end, Math::max);
  }

  long errorCount() {
    return errors.values().stream().mapToLong(LongAdder::sum).sum();
  }
}
