package dev.wg1bench.workload;

import dev.wg1bench.server.wire.WireCounts;
import dev.wg1bench.server.wire.WireMark;

/**
 * What a connection's socket (server.wire) saw during one execution of a part of an op, a workload
 * class's step or a script's command under -r, added to that part of the op's value as the op's own
 * share is added to the op (jmh/OpWire): round trips, bytes and, where the protocol is readable,
 * rows and (a step's, which the runner does not see) statements. Every execution counts, completed
 * or not, so {@link OpCounts#wireOps} of a part is its executions measured.
 */
final class WireShare {
  private WireShare() {}

  /**
   * Adds what {@code w} saw since {@code mark} was taken to {@code part}; {@code statements}: the
   * socket's count of completed statements is the part's (a step's) rather than the runner's.
   */
  static void add(OpCounts part, WireMark mark, WireCounts w, boolean statements) {
    part.wireOps++;
    part.roundTrips += mark.roundTrips();
    part.bytesSent += mark.bytesSent();
    part.bytesReceived += mark.bytesReceived();
    if (w.protocolReadable()) {
      part.protocolOps++;
      part.rows += mark.rows();
      if (statements) {
        part.statements += mark.statements();
      }
    }
  }
}
