package dev.wg1bench.jmh;

import dev.wg1bench.fork.ForkReport;
import java.util.ArrayList;
import java.util.List;

/**
 * A fork's connection outages: one opens when the first client loses its connection and closes when
 * the last one is back, so a server restart shows as one outage however many clients it hit.
 */
final class Outages {
  private final List<ForkReport.Outage> closed = new ArrayList<>();
  private ForkReport.Outage open;
  private int clientsDown;

  /** A client lost its connection: it opens an outage if it is the first one down. */
  synchronized void lost(Client c) {
    if (!c.down) {
      c.down = true;
      if (clientsDown++ == 0) {
        open = new ForkReport.Outage();
        open.lostAtEpochMs = System.currentTimeMillis();
      }
      open.clientsLost++;
    }
  }

  /** An op failed for want of a connection: counted in the outage it belongs to. */
  synchronized void failure(Client c) {
    lost(c);
    open.failedOps++;
  }

  /** A client has a working connection again; the last one back closes the outage. */
  synchronized void back(Client c) {
    if (c.down) {
      c.down = false;
      open.clientsReconnected++;
      if (--clientsDown == 0) {
        open.backAtEpochMs = System.currentTimeMillis();
        closed.add(open);
        open = null;
      }
    }
  }

  /** The closed outages, and the open one if a client is still down. */
  synchronized List<ForkReport.Outage> all() {
    List<ForkReport.Outage> out = new ArrayList<>(closed);
    if (open != null) {
      out.add(open);
    }
    return out;
  }
}
