package dev.wg1bench.replay.play;

import dev.wg1bench.server.wire.Wire;
import dev.wg1bench.server.wire.WireCounts;
import dev.wg1bench.server.wire.WireMark;
import dev.wg1bench.workload.OpCounts;
import java.sql.Connection;

/**
 * One replayed session's reading of its connection's socket (server.wire) around each statement it
 * sends: a replay's op is one query string sent, as the log holds it (a multi-statement string is
 * one op; a failed one counts too). Its round trips, bytes, rows and the statements the server
 * completed go into the session's own count, added to the replay's once the session ends. The
 * connection's start-up (authentication, pgjdbc's own settings) and what the tool sends between
 * statements (a pooled connection's ROLLBACK and DISCARD ALL) are no op's. Nothing is allocated per
 * statement.
 */
final class StatementWire {
  private final OpCounts counts = new OpCounts();
  private final WireMark mark = new WireMark();
  private WireCounts socket;

  /** The session's connection now (its own, or a pooled one on each lease). */
  void on(Connection c) {
    socket = Wire.of(c);
  }

  /** Before a statement is sent. */
  void before() {
    if (socket != null) {
      mark.take(socket);
    }
  }

  /** After it came back: its share of the socket's counts. */
  void after() {
    if (socket == null) {
      return;
    }
    counts.wireOps++;
    counts.roundTrips += mark.roundTrips();
    counts.bytesSent += mark.bytesSent();
    counts.bytesReceived += mark.bytesReceived();
    if (socket.protocolReadable()) {
      counts.protocolOps++;
      counts.rows += mark.rows();
      counts.statements += mark.statements();
    }
  }

  OpCounts counts() {
    return counts;
  }
}
