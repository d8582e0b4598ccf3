package dev.wg1bench.jmh;

import java.util.SplittableRandom;

/**
 * A client's arrivals under {@code --rate} (pgbench -R): a Poisson schedule, exponential gaps of
 * the client's mean interval, each op's intended start the next arrival. A user who thinks ({@code
 * Op.thinkTime}) does not arrive before the think time ends: when it ends after the next arrival,
 * the schedule resumes from its end, so the think time is counted neither as schedule lag nor in
 * the op's latency (which, under a rate, runs from the intended start), as without a rate.
 */
final class Arrivals {
  private final SplittableRandom random;
  private long next;

  Arrivals(long seed) {
    random = new SplittableRandom(seed);
  }

  /**
   * The next op's intended start (System.nanoTime), the first one at {@code now}.
   *
   * @param readyAt when the last op's think time ends; 0 when there is none
   */
  long next(long meanNanos, long readyAt, long now) {
    if (next == 0) {
      next = now;
    }
    if (readyAt != 0 && readyAt - next > 0) {
      next = readyAt;
    }
    long t = next;
    next += Math.round(-Math.log(1.0 - random.nextDouble()) * meanNanos);
    return t;
  }
}
