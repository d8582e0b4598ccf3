package dev.wg1bench.jmh;

import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.window.ServerWindow;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The server's side of the measurement windows: its commit counter of this database and its WAL
 * insert position, read on a connection of the window's own at each window's two ends. Lost or
 * timed out once, it is given up for the trial (the windows then have no server figures), rather
 * than waited for at every window.
 */
final class ServerCounter {
  /**
   * How long a read of the server's counter may take before it is given up (and the figure). At a
   * window's end the server is under the run's full load: with 200 clients on 2 busy cores the read
   * took over 2 s (the old bound) and the trial lost its server figure; a server that stopped
   * answering holds the next window up by this much at most, once.
   */
  static final int STATS_TIMEOUT_MS = 10_000;

  /** The counter and position read together; wal is null on a standby. */
  record Count(long commits, String wal) {}

  private final ConnectionFactory connections;
  private boolean tried;
  private Connection stats;

  ServerCounter(ConnectionFactory connections) {
    this.connections = connections;
  }

  /**
   * Opens the connection, once: when every client is connected, so it never takes a client's
   * connection slot; not from an application's own pool: the connection would be one of its
   * clients' for the whole trial.
   */
  void open() {
    if (!tried && !connections.fromApplicationPool()) {
      tried = true;
      try {
        stats = connections.openOwn();
        // a server that stops answering must not hold up the clients waiting for the window
        stats.setNetworkTimeout(Runnable::run, STATS_TIMEOUT_MS);
      } catch (SQLException e) {
        stats = null;
      }
    }
  }

  boolean isOpen() {
    return stats != null;
  }

  /**
   * The server's count now; null when it cannot be read. The query counts one commit itself, a
   * constant two per window.
   */
  Count read() {
    if (stats == null) {
      return null;
    }
    try (Statement st = stats.createStatement();
        ResultSet rs =
            st.executeQuery(
                ServerWindow.MARKER
                    + " SELECT xact_commit, CASE WHEN pg_is_in_recovery() THEN NULL"
                    + " ELSE pg_current_wal_insert_lsn()::text END"
                    + " FROM pg_stat_database WHERE datname = current_database()")) {
      return rs.next() ? new Count(rs.getLong(1), rs.getString(2)) : null;
    } catch (SQLException e) {
      // timed out or lost: no more server counts for this trial, rather than a wait per window
      close();
      return null;
    }
  }

  void close() {
    if (stats != null) {
      try {
        stats.close();
      } catch (SQLException e) {
        // closing: nothing left to do
      }
      stats = null;
    }
  }
}
