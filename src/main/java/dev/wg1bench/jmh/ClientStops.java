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

  /** Of stopped: clients that never ran an op (could not connect or set up), and the first why. */
  private int notStarted;

  private String notStartedBy;

  /** Why the pool could not open the connections asked, null when it did (or none was asked). */
  private String poolShort;

  ClientStops(boolean continueOnError, int clients) {
    this.continueOnError = continueOnError;
    this.clients = clients;
  }

  /** Whether a client whose op just failed this way must stop. */
  boolean stopsOp(FailureKind kind, String sqlState) {
    return !continueOnError && FailureKind.wontHeal(kind, sqlState);
  }

  /**
   * Whether a client that could not connect at the start must stop: an error that won't heal, or a
   * pooler's refusal to take the client (kind pooler with PgBouncer's SQLSTATE 08P01: too many
   * clients, no server login), which pgbench would abort the client on too. A statement the pooler
   * lost or duplicated (26000, 42P05) may not recur on the next connection: counted, not stopped.
   */
  boolean stopsConnect(SQLException e, FailureKind kind) {
    boolean refused = kind == FailureKind.POOLER && "08P01".equals(e.getSQLState());
    return !continueOnError && (refused || FailureKind.wontHealAtConnect(e));
  }

  /** Counts one stopped client; true when no client is left running. */
  synchronized boolean stop(String reason) {
    stopped++;
    if (firstReason == null) {
      firstReason = reason;
    }
    return stopped == clients;
  }

  /**
   * Counts one client that could not start (it never ran an op): a run that did not run the clients
   * it was asked for is not a success, as pgbench exits 1 when a client cannot connect.
   */
  synchronized void notStarted(String reason) {
    notStarted++;
    if (notStartedBy == null) {
      notStartedBy = reason;
    }
  }

  /** The pool could not open the connections asked: the clients ran, but not as asked. */
  synchronized void poolShort(String reason) {
    poolShort = reason;
  }

  /** The clients of this fork that started (connected and set up). */
  synchronized int started() {
    return clients - notStarted;
  }

  /**
   * The one line saying how this fork did not run as asked ("20 of 25 clients ran; 5 could not
   * start, the first: could not connect (53300): ..."), null when it did.
   */
  synchronized String notAsAsked() {
    if (notStarted > 0) {
      return started()
          + " of "
          + clients
          + " clients ran; "
          + notStarted
          + (notStarted == 1 ? " client" : " clients")
          + " could not start, the first: "
          + notStartedBy;
    }
    return poolShort;
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
    String who = clients == 1 ? "the client" : "all " + clients + " clients";
    if (firstReason != null && firstReason.startsWith(SETUP)) {
      // no op ran: the reason is the set-up's, which no option keeps running
      return who + " could not start: " + firstReason;
    }
    return who
        + " stopped on an error that won't heal (--continue-on-error keeps them running): "
        + firstReason;
  }

  /** How the reason of a client stopped in its set-up begins. */
  static final String SETUP = "set-up failed";
}
