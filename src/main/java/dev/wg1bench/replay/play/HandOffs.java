package dev.wg1bench.replay.play;

import org.HdrHistogram.Histogram;

/**
 * The order's hand-offs ({@link OrderGate}): waits that another session's mark let pass, each timed
 * from the unpark to the waiting thread running again (the wake's latency, what a hand-off adds
 * beyond the order itself) and from the event the mark stands for (a reply's arrival), in µs.
 */
final class HandOffs {
  private static final long MAX_MICROS = 3_600_000_000L;

  private final Histogram fromWake = new Histogram(MAX_MICROS, 3);
  private final Histogram fromEvent = new Histogram(MAX_MICROS, 3);

  synchronized void record(long wakeNanos, long eventNanos) {
    fromWake.recordValue(Math.min(Math.max(wakeNanos / 1000, 0), MAX_MICROS));
    fromEvent.recordValue(Math.min(Math.max(eventNanos / 1000, 0), MAX_MICROS));
  }

  /** A copy of the latencies so far: [0] from the unpark, [1] from the event. */
  synchronized Histogram[] copy() {
    return new Histogram[] {fromWake.copy(), fromEvent.copy()};
  }
}
