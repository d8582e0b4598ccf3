package dev.wg1bench.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for an observable event (a log line, a row in pg_stat_activity, a file) under a deadline,
 * instead of a fixed sleep that is too short on a busy machine and wasted on an idle one.
 */
public final class Await {
  private Await() {}

  /** Polls {@code done} every 50 ms; fails with {@code what} and {@code state} at the deadline. */
  public static void until(
      Duration deadline, String what, BooleanSupplier done, Supplier<String> state)
      throws InterruptedException {
    long end = System.nanoTime() + deadline.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() - end > 0) {
        throw new AssertionError(
            "waited " + deadline.toSeconds() + " s for " + what + "; state: " + state.get());
      }
      Thread.sleep(50);
    }
  }

  public static void until(Duration deadline, String what, BooleanSupplier done)
      throws InterruptedException {
    until(deadline, what, done, () -> "");
  }
}
