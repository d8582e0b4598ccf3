package dev.wg1bench.jmh;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Aborts the connection of any client whose op is still waiting for the server {@link
 * #graceNanos()} after its iteration's time was up: a server that stops answering without closing
 * the connection (frozen, or cut off by the network) fails that op as a connection failure, and the
 * client reconnects, instead of the run waiting for it forever.
 *
 * <p>Client connections carry no pgjdbc socketTimeout by default: with one, every read of the JDK's
 * socket takes a non-blocking read, a poll and a second read instead of one blocking read, which
 * cost 10-18% more client CPU per op on tpcb (measured, see bench/vs-pgbench.sh). This watchdog
 * bounds a silent server instead, so the run still ends.
 */
final class StallWatchdog {
  private final List<Client> clients;
  private final long grace;
  private final Thread thread;

  /** How long past the end of an iteration an op may still wait for the server. */
  static long graceNanos() {
    return TimeUnit.MILLISECONDS.toNanos(Long.getLong("wg1bench.stallGraceMs", 10_000));
  }

  /** Starts watching {@code clients} (the list may grow), with the grace as the trial starts. */
  StallWatchdog(List<Client> clients) {
    this.clients = clients;
    // tests shorten it by the property, read once per trial
    this.grace = graceNanos();
    this.thread = new Thread(this::watch, "wg1bench-stall-watchdog");
    thread.setDaemon(true);
    thread.start();
  }

  void stop() {
    thread.interrupt();
  }

  private void watch() {
    while (!Thread.currentThread().isInterrupted()) {
      long now = System.nanoTime();
      for (Client c : clients) {
        Connection x = c.inUse;
        if (x != null && c.inIteration && now - c.iterationEnd > grace) {
          double g = grace / 1e9;
          c.stallNote =
              "no answer from the server "
                  + (g == Math.rint(g) ? Long.toString((long) g) : Double.toString(g))
                  + " s after the end of the iteration: wg1bench aborted the connection";
          c.inUse = null;
          try {
            x.abort(Runnable::run);
          } catch (SQLException | RuntimeException e) {
            // already closed: the op is failing anyway
          }
        }
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      }
    }
  }
}
