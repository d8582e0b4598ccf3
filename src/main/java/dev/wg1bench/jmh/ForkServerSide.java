package dev.wg1bench.jmh;

import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.window.ServerSide;
import dev.wg1bench.server.window.ServerWindow;
import dev.wg1bench.server.wire.Wire;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The server's side of each measured window of a fork (server.window): started as the window opens,
 * finished as it closes, on connections of its own, sampling the waits of this fork's client
 * backends (the counted connections' pids, server.wire). Nothing here can fail a run or hold it:
 * whatever goes wrong is the figure's one line why.
 */
final class ForkServerSide {
  private final ConnectionFactory connections;

  ForkServerSide(ConnectionFactory connections) {
    this.connections = connections;
  }

  /** A window's start; what it holds says why where it cannot read the server. */
  Started start() {
    if (connections.fromApplicationPool()) {
      return new Started(
          null,
          "the server's side was not read: connections come from the application's DataSource,"
              + " and one held for the tool's sampling would be one of its clients'");
    }
    String via = connections.target().provided().via();
    try {
      return new Started(
          via != null
              ? ServerWindow.throughPooler(
                  this::openBounded, via, ServerWindow.DEFAULT_SAMPLE_INTERVAL)
              : ServerWindow.start(
                  this::openBounded, Wire.openPids(), ServerWindow.DEFAULT_SAMPLE_INTERVAL),
          null);
    } catch (RuntimeException e) {
      return new Started(null, "the server's side was not read: " + ConnectionFactory.oneLine(e));
    }
  }

  /**
   * The tool's own connection with every read bounded: the window is finished as the measurement
   * window closes, under its lock, so a server that stopped answering (SIGSTOP in ServerFaultsTest)
   * held the clients' next iteration for as long as a read waited, which was for ever.
   */
  private Connection openBounded() throws SQLException {
    Connection c = connections.openOwn();
    c.setNetworkTimeout(Runnable::run, READ_TIMEOUT_MS);
    return c;
  }

  /** How long one of the window's reads may wait for the server: a figure is lost, not the run. */
  static final int READ_TIMEOUT_MS = 5_000;

  /** A started window, or why there is none. */
  static final class Started {
    private ServerWindow window;
    private final String why;
    private ServerSide side;

    Started(ServerWindow window, String why) {
      this.window = window;
      this.why = why;
    }

    /** The figures over the window, once; the window's connections are closed. Never throws. */
    synchronized ServerSide finish() {
      if (side != null) {
        return side;
      }
      if (window == null) {
        side = new ServerSide(0, null, why, null, why, 0, 0, null, why, null, why);
        return side;
      }
      try {
        side = window.finish();
      } catch (RuntimeException e) {
        String w = "the server's side was not read: " + ConnectionFactory.oneLine(e);
        side = new ServerSide(0, null, w, null, w, 0, 0, null, w, null, w);
      } finally {
        window = null;
      }
      return side;
    }
  }
}
