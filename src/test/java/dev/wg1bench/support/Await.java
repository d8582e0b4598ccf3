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

  /** A count read from a server: the caller's own way to reach it. */
  public interface Count {
    long of(String sql) throws java.sql.SQLException;
  }

  /**
   * Until no session of the tool (application_name wg1bench) is connected: a backend publishes its
   * commits to pg_stat_database as it exits, so the counter is settled then.
   */
  public static void toolBackendsGone(Count query) throws InterruptedException {
    until(
        Duration.ofMinutes(2),
        "the tool's backends to exit",
        () -> {
          try {
            return query.of(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'wg1bench'")
                == 0;
          } catch (java.sql.SQLException e) {
            return false;
          }
        });
  }
}
