package dev.wg1bench.server;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Ticks at a fixed rate from its start, for samplers: the n-th tick is due at start + n intervals
 * whenever the one before it finished, so a slow sample delays the next one but never shifts the
 * ones after it (no drift), and the samples' times stay on the grid. An interrupt ends a wait only
 * once the owner has stopped.
 */
public final class FixedRate {
  private final long start = System.nanoTime();
  private final long interval;
  private final BooleanSupplier running;
  private long due;
  private long now;
  private boolean ticked;

  /**
   * @param intervalNanos time between ticks
   * @param atOnce whether the first tick is at the start, else one interval after it
   * @param running false once the owner stopped: then {@link #await} returns false
   */
  public FixedRate(long intervalNanos, boolean atOnce, BooleanSupplier running) {
    this.interval = intervalNanos;
    this.running = running;
    this.due = atOnce ? start : start + intervalNanos;
  }

  /** Waits for the next tick: true when it is due, false once the owner stopped. */
  public boolean await() {
    if (ticked) {
      due += interval;
      ticked = false;
    }
    while (running.getAsBoolean()) {
      long t = System.nanoTime();
      if (t >= due) {
        now = t;
        ticked = true;
        return true;
      }
      // parked to the tick itself: a sleep in whole milliseconds woke twice a tick (its
      // remainder slept again), and each wake-up is a context switch on the clients' cores
      LockSupport.parkNanos(due - t);
      if (Thread.interrupted() && !running.getAsBoolean()) {
        return false;
      }
    }
    return false;
  }

  /** Seconds from the start to when the tick was due, to the millisecond. */
  public double dueSeconds() {
    return Math.round((due - start) / 1e6) / 1000.0;
  }

  /** Seconds from the start to when the tick was taken, to the millisecond. */
  public double takenSeconds() {
    return Math.round((now - start) / 1e6) / 1000.0;
  }
}
