package dev.wg1bench.jmh;

import dev.wg1bench.workload.FailureKind;
import java.sql.SQLException;

/**
 * Clients stopped by an error that won't heal, as pgbench aborts a client on its first error rather
 * than repeating it for the whole run: a stopped client closes its connection (so the server's
 * other clients get it back) and idles. Unless --continue-on-error.
 */
final class ClientStops {
  private final boolean continueOnError;
  private final int clients;
  private int stopped;
  private String firstReason;

  ClientStops(boolean continueOnError, int clients) {
    this.continueOnError = continueOnError;
    this.clients = clients;
  }

  /** Whether a client whose op just failed this way must stop. */
  boolean stopsOp(FailureKind kind, String sqlState) {
    return !continueOnError && FailureKind.wontHeal(kind, sqlState);
  }

  /** Whether a client that could not connect at the start must stop. */
  boolean stopsConnect(SQLException e) {
    return !continueOnError && FailureKind.wontHealAtConnect(e);
  }

  /** Counts one stopped client; true when no client is left running. */
  synchronized boolean stop(String reason) {
    stopped++;
    if (firstReason == null) {
      firstReason = reason;
    }
    return stopped == clients;
  }

  synchronized boolean noneLeft() {
    return stopped == clients;
  }

  synchronized int stopped() {
    return stopped;
  }

  synchronized String firstReason() {
    return firstReason;
  }

  /** The one line that ends a run in which every client stopped. */
  synchronized String allStopped() {
    return (clients == 1 ? "the client" : "all " + clients + " clients")
        + " stopped on an error that won't heal (--continue-on-error keeps them running): "
        + firstReason;
  }
}
