package dev.wg1bench.server.wire;

/**
 * What one connection carried, counted at its socket: round trips, bytes each way, and, where the
 * protocol could be read (not under TLS), the statements completed, the rows returned and the
 * backend's error responses. Figures are totals since the socket opened; {@link #startup()} holds
 * what the connection's start-up (TLS negotiation, authentication, the session's parameters) took
 * of them, so what its ops took is the total less that, or a difference of two readings.
 *
 * <p>A round trip is a read of the server's answer after the client wrote since its last read: one
 * per {@code executeQuery}, one for a pipelined JDBC batch (pgjdbc writes all of it, then reads),
 * one per fetch of a cursor's rows. Counting at the socket sees what the network sees, whatever the
 * driver's mode, workload or statement kind.
 *
 * <p>Written by the thread that reads and writes the connection (pgjdbc holds one lock per
 * connection for both), read without locks: a client reading its own connection between its ops
 * sees exact figures, and so does any thread that took the connection over through a pool (its
 * hand-over orders the writes before). Reading it allocates nothing.
 */
public final class WireCounts {
  long roundTrips;
  long bytesSent;
  long bytesReceived;
  long statements;
  long rows;
  long commandRows;
  long errors;
  int backendPid;

  /**
   * Behind a pooler in session mode, the pid of the server session the pooler gave this connection
   * ({@link Wire#serverSession}), or 0: {@link #backendPid} is then the pooler's own key.
   */
  volatile int serverPid;

  /** Whose connection this is ({@link WireSocketFactory#OWNER}), or null where none was named. */
  String owner;

  int localPort;
  boolean readable = true;
  boolean wroteSinceRead;
  private Startup startup;

  WireCounts() {}

  /**
   * What the connection took before it was handed over ({@link Wire#of}): TLS negotiation,
   * authentication, and the driver's own statements (pgjdbc's {@code SET extra_float_digits = 3}).
   */
  public record Startup(
      long roundTrips, long bytesSent, long bytesReceived, long statements, long rows) {}

  public long roundTrips() {
    return roundTrips;
  }

  public long bytesSent() {
    return bytesSent;
  }

  public long bytesReceived() {
    return bytesReceived;
  }

  /**
   * Statements the server completed (its CommandComplete messages: BEGIN and COMMIT included, one
   * per statement of a multi-statement string and per row of a batch); meaningful only where {@link
   * #protocolReadable()}.
   */
  public long statements() {
    return statements;
  }

  /** Rows the server returned (its DataRow messages); meaningful only where readable. */
  public long rows() {
    return rows;
  }

  /**
   * Rows the completed statements reported (each CommandComplete's count: rows returned by a
   * SELECT, inserted, updated, deleted, merged, copied), as pg_stat_statements' {@code rows} counts
   * them; meaningful only where readable.
   */
  public long commandRows() {
    return commandRows;
  }

  /** Error responses from the server; meaningful only where readable. */
  public long errors() {
    return errors;
  }

  /**
   * Whether the protocol could be read: false once the connection switched to TLS (or began with
   * something other than a PostgreSQL start-up), where statements, rows and errors stop counting
   * and only round trips and bytes hold.
   */
  public boolean protocolReadable() {
    return readable;
  }

  /** The server's process id for this connection (its BackendKeyData), or 0 while unknown. */
  public int backendPid() {
    return backendPid;
  }

  /** What the start-up took, or null until it is over. */
  public Startup startup() {
    return startup;
  }

  /** Marks the start-up over now, unless it was marked already. */
  void markStartup() {
    if (startup == null) {
      startup = new Startup(roundTrips, bytesSent, bytesReceived, statements, rows);
    }
  }

  @Override
  public String toString() {
    return "roundTrips="
        + roundTrips
        + " sent="
        + bytesSent
        + " received="
        + bytesReceived
        + (readable ? " statements=" + statements + " rows=" + rows : " (TLS)");
  }
}
