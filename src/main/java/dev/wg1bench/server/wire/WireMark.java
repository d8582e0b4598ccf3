package dev.wg1bench.server.wire;

/**
 * A reading of one connection's {@link WireCounts}, kept to tell what came after it: a client takes
 * one before an op and asks after it, with one mark for all its ops (nothing is allocated).
 */
public final class WireMark {
  private WireCounts w;
  private long roundTrips;
  private long bytesSent;
  private long bytesReceived;
  private long statements;
  private long rows;
  private long commandRows;
  private long errors;

  /** Reads {@code w} now; what follows is measured from here. */
  public void take(WireCounts w) {
    this.w = w;
    roundTrips = w.roundTrips;
    bytesSent = w.bytesSent;
    bytesReceived = w.bytesReceived;
    statements = w.statements;
    rows = w.rows;
    commandRows = w.commandRows;
    errors = w.errors;
  }

  public long roundTrips() {
    return w.roundTrips - roundTrips;
  }

  public long bytesSent() {
    return w.bytesSent - bytesSent;
  }

  public long bytesReceived() {
    return w.bytesReceived - bytesReceived;
  }

  /** See {@link WireCounts#statements()}: meaningful only where the protocol is readable. */
  public long statements() {
    return w.statements - statements;
  }

  public long rows() {
    return w.rows - rows;
  }

  public long commandRows() {
    return w.commandRows - commandRows;
  }

  public long errors() {
    return w.errors - errors;
  }
}
