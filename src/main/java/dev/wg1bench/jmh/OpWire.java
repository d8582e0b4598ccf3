package dev.wg1bench.jmh;

import dev.wg1bench.server.wire.Wire;
import dev.wg1bench.server.wire.WireCounts;
import dev.wg1bench.server.wire.WireMark;
import dev.wg1bench.workload.OpCounts;
import java.sql.Connection;

/**
 * One client's reading of its connection's socket around each op (server.wire): round trips, bytes
 * and, where the protocol is readable, rows, and a workload class's statements, added to the op's
 * own counts, so they travel in the one count value. Its own connection is looked up once; a pooled
 * one on every lease (its proxy is new each time). Nothing is allocated per op on the client's own
 * connection.
 */
final class OpWire {
  private final WireMark mark = new WireMark();
  private Connection of;
  private WireCounts counts;
  private boolean taken;

  /**
   * Marks {@code conn}'s counts before an op runs on it (nothing where its socket does not count).
   */
  void before(Connection conn) {
    if (conn != of) {
      of = conn;
      counts = Wire.of(conn);
    }
    taken = counts != null;
    if (taken) {
      mark.take(counts);
    }
  }

  /**
   * The op's share of the socket's counts, added to {@code op}; {@code statements}: whether the
   * socket's count of completed statements is the op's (a workload class's, which the runner cannot
   * see) rather than the runner's own.
   */
  void after(OpCounts op, boolean statements) {
    if (!taken) {
      return;
    }
    taken = false;
    op.wireOps++;
    op.roundTrips += mark.roundTrips();
    op.bytesSent += mark.bytesSent();
    op.bytesReceived += mark.bytesReceived();
    if (counts.protocolReadable()) {
      op.protocolOps++;
      op.rows += mark.rows();
      if (statements) {
        op.statements += mark.statements();
      }
    }
  }
}
