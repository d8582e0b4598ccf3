package dev.wg1bench.jmh;

import java.time.Instant;

/**
 * The monotonic clock and the wall clock read at one instant. A window's start is both: the clients
 * count their ops by {@code System.nanoTime()}, the server's WAL is counted from the wall-clock
 * start. Read again when the thread was preempted between the two (more than 0.2 ms between the
 * monotonic reads around the wall clock's), so that both name the same instant.
 *
 * @param nanos the monotonic reading, {@code System.nanoTime()}'s
 * @param epochMicros the wall-clock reading, microseconds since the epoch
 */
record ClockPair(long nanos, long epochMicros) {
  static ClockPair read() {
    long before;
    long start;
    Instant now;
    do {
      before = System.nanoTime();
      now = Instant.now();
      start = System.nanoTime();
    } while (start - before > 200_000);
    return new ClockPair(start, now.getEpochSecond() * 1_000_000 + now.getNano() / 1000);
  }
}
