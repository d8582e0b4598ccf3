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
   * Until no session of the tool (application_name wg1bench) but the asking one is connected, of
   * those that started at or after {@code since} (a server timestamp, e.g. {@code now()} read when
   * the test began; null for all): a backend publishes its commits to pg_stat_database as it exits,
   * so the counter is settled then. Sessions older than {@code since} (an idle pool left by another
   * test in this JVM) are not waited for: they committed nothing since.
   */
  public static void toolBackendsGone(Count query, String since) throws InterruptedException {
    String sql =
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'wg1bench'"
            + " AND pid <> pg_backend_pid()"
            + (since == null ? "" : " AND backend_start >= '" + since + "'::timestamptz");
    until(
        Duration.ofMinutes(2),
        "the tool's backends to exit",
        () -> {
          try {
            return query.of(sql) == 0;
          } catch (java.sql.SQLException e) {
            return false;
          }
        });
  }

  /** The server's clock now, as text for {@link #toolBackendsGone}'s {@code since}. */
  public static String serverNow(java.sql.Connection c) throws java.sql.SQLException {
    try (java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT now()::text")) {
      rs.next();
      return rs.getString(1);
    }
  }
}
