package dev.wg1bench.jmh;

import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.window.ServerSide;
import dev.wg1bench.server.window.ServerWindow;
import dev.wg1bench.server.wire.Wire;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;

/**
 * The server's side of each measured window of a fork (server.window): started as the window opens,
 * finished as it closes, on connections of its own, sampling the waits of this fork's client
 * backends (the counted connections' pids, server.wire). Nothing here can fail a run or hold it:
 * whatever goes wrong is the figure's one line why.
 */
final class ForkServerSide {
  private final ConnectionFactory connections;

  /** The server behind the pooler in front, connected to directly; null without one. */
  private final ConnectionFactory direct;

  ForkServerSide(ConnectionFactory connections) {
    this.connections = connections;
    TargetSpec t = connections.target();
    String server = t.provided().server();
    this.direct =
        server == null
            ? null
            : new ConnectionFactory(t.at(server, t.user(), t.password()), connections.settings());
  }

  static boolean sessionMode(String via) {
    return via.startsWith("pgbouncer:session");
  }

  /**
   * Behind a pooler in session mode, reads the server session {@code c} keeps for its whole session
   * through the pooler, once, as the connection's start-up (before its first op, on its client's
   * thread), for the window to sample ({@code PGConnection.getBackendPID()} is PgBouncer's own
   * cancel key, the BackendKeyData it sent). Marked as the window's statements are, so a read after
   * a reconnect inside a window is not one of its statements. A read that fails leaves the
   * connection without one, and the waits say why as they did before: never the client's failure.
   */
  static void readServerSession(ConnectionFactory connections, Connection c) {
    String via = connections.target().provided().via();
    if (c == null || via == null || !sessionMode(via)) {
      return;
    }
    try (Statement st = ConnectionFactory.unnamed(c.createStatement());
        ResultSet rs = st.executeQuery(ServerWindow.MARKER + " SELECT pg_backend_pid()")) {
      Wire.serverSession(c, rs.next() ? rs.getInt(1) : Wire.UNREAD);
    } catch (SQLException | RuntimeException e) {
      // the client's connection is what it was; its session is not sampled, and counts as asked
      Wire.serverSession(c, Wire.UNREAD);
    }
  }

  /** The waits' line behind a pooler in session mode: where the pids came from. */
  static String sessionNote(int read, int clients) {
    return "through pgbouncer in session mode the clients' server sessions, their pids read through"
        + " the pooler (pg_backend_pid()) as each connected"
        + (read < clients ? " (" + read + " of " + clients + " connections)" : "");
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
      if (via == null) {
        return new Started(
            ServerWindow.start(
                this::openBounded,
                Wire.openPids(connections.wireOwner()),
                ServerWindow.DEFAULT_SAMPLE_INTERVAL),
            null);
      }
      Set<Integer> server =
          sessionMode(via) ? Wire.openServerPids(connections.wireOwner()) : Set.of();
      return new Started(
          server.isEmpty() || direct == null
              ? ServerWindow.throughPooler(
                  this::openBounded, via, ServerWindow.DEFAULT_SAMPLE_INTERVAL)
              : ServerWindow.throughSessionPooler(
                  this::openBounded,
                  this::openDirect,
                  server,
                  sessionNote(server.size(), Wire.askedServerSessions(connections.wireOwner())),
                  ServerWindow.DEFAULT_SAMPLE_INTERVAL),
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

  /** The sampler's connection to the server behind the pooler, bounded as {@link #openBounded}. */
  private Connection openDirect() throws SQLException {
    Connection c = direct.openOwn();
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
