package dev.wg1bench.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;

/** How a sampler's thread of its own (the server's counters, the clients' waits) is stopped. */
public final class SamplerThreads {
  private SamplerThreads() {}

  /**
   * Interrupts {@code thread} and waits up to a second for it. A thread still alive then has a
   * sample query waiting on a server that stopped answering: the run is over, so its connection
   * (read after the wait, as the thread may have replaced it) is aborted rather than make the
   * result wait for it, and the thread gets one more second.
   */
  public static void stop(Thread thread, Supplier<Connection> connection) {
    thread.interrupt();
    try {
      thread.join(1000);
      Connection c = connection.get();
      if (thread.isAlive() && c != null) {
        try {
          c.abort(Runnable::run);
        } catch (SQLException e) {
          // already closed
        }
        thread.join(1000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
