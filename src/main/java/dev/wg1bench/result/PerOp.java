package dev.wg1bench.result;

import dev.wg1bench.workload.OpCounts;

/**
 * What one op took on average over the measured windows, from the counts of the connections'
 * sockets (server.wire) and the server's statistics: the JSON's {@code measurement.perOp}. Each
 * figure is a count over the ops it was counted for (successful and failed ops that ran on a
 * connection), null where it is unknown, never 0; {@code notCounted} says in one line why one is
 * null.
 *
 * @param roundTrips round trips per op (a read of the server's answer after the client wrote), over
 *     the ops whose connection's socket counted
 * @param statements statements per op: a script's as sent (over all ops), a workload class's as the
 *     server completed them (over the ops whose protocol the socket could read: not under TLS)
 * @param statementsFrom {@code sent} where the statements are the runner's count of what it sent (a
 *     script), {@code completed} where they are the socket's count of what the server completed (a
 *     workload class, whose JDBC calls the runner does not see)
 * @param rows rows the server returned per op, over the ops whose protocol could be read
 * @param bytesSent bytes the client sent per op, over the ops whose socket counted
 * @param bytesReceived bytes the client received per op, over the ops whose socket counted
 * @param serverMs the statements' execution and planning time per op on the server
 *     (pg_stat_statements over the measured window), null where the server did not say
 * @param notCounted why a figure is null, one line per reason joined by "; ", null when none is
 */
public record PerOp(
    Double roundTrips,
    Double statements,
    String statementsFrom,
    Double rows,
    Double bytesSent,
    Double bytesReceived,
    Double serverMs,
    String notCounted) {
  /** {@link #statementsFrom}: the runner's count of what it sent. */
  public static final String SENT = "sent";

  /** {@link #statementsFrom}: the socket's count of what the server completed. */
  public static final String COMPLETED = "completed";

  /**
   * From the measured counts {@code m}; {@code runnerStatements}: whether the runner counted the
   * statements it sent (a script), {@code wireWhy}: why the sockets did not count (null when they
   * did), {@code serverMs} and {@code serverWhy}: the server's side, or null with the reason.
   */
  public static PerOp of(
      OpCounts m, boolean runnerStatements, String wireWhy, Double serverMs, String serverWhy) {
    StringBuilder why = new StringBuilder();
    Double roundTrips = over(m.roundTrips, m.wireOps);
    if (m.wireOps == 0) {
      note(
          why,
          wireWhy != null
              ? wireWhy
              : "round trips and bytes not counted: no op ran on a counted connection");
    } else if (m.protocolOps == 0) {
      note(why, "statements and rows not counted at the socket: the connection is encrypted (TLS)");
    }
    Double statements =
        runnerStatements ? over(m.statements, m.attempted()) : over(m.statements, m.protocolOps);
    if (serverMs == null && serverWhy != null) {
      note(why, serverWhy);
    }
    return new PerOp(
        roundTrips,
        statements,
        runnerStatements ? SENT : COMPLETED,
        over(m.rows, m.protocolOps),
        over(m.bytesSent, m.wireOps),
        over(m.bytesReceived, m.wireOps),
        serverMs,
        why.length() == 0 ? null : why.toString());
  }

  /** The same figures with the server's time per op. */
  public PerOp withServerMs(Double ms, String why) {
    String reasons = ms == null && why != null ? join(notCounted, why) : notCounted;
    return new PerOp(
        roundTrips, statements, statementsFrom, rows, bytesSent, bytesReceived, ms, reasons);
  }

  /** {@code count} per op of {@code ops}; null (never 0) where no op was counted. */
  static Double over(long count, long ops) {
    return ops > 0 ? (double) count / ops : null;
  }

  private static void note(StringBuilder why, String line) {
    if (why.length() > 0) {
      why.append("; ");
    }
    why.append(line);
  }

  private static String join(String a, String b) {
    return a == null ? b : a + "; " + b;
  }
}
