package dev.wg1bench.server.wire;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.postgresql.PGConnection;

/**
 * The connections of this JVM whose sockets count (see {@link WireSocketFactory}), found from their
 * {@link Connection}: by the backend's process id, which the driver and the protocol's
 * BackendKeyData both know (a pooler's own id where one is between: the same on both sides), so
 * finding one costs no round trip. Under TLS the protocol cannot be read, and the connection is
 * found by its client port instead, asked of the server once ({@code inet_client_port()}).
 *
 * <p>Two live connections of one JVM with the same key (servers on two hosts can give the same
 * process id) are left unknown rather than mixed up: {@link #of} returns null for both.
 */
public final class Wire {
  /** Held for a key two live connections share. */
  private static final WireCounts AMBIGUOUS = new WireCounts();

  static final Map<Integer, WireCounts> BY_PID = new ConcurrentHashMap<>();
  static final Map<Integer, WireCounts> BY_PORT = new ConcurrentHashMap<>();

  private Wire() {}

  /**
   * The counts of {@code c}'s socket, or null where it has none (opened without {@link
   * WireSocketFactory}, an application's own pool, or a key shared by two connections). Call once
   * per connection, after it opened and before its first op, and keep what it returns: it marks the
   * start-up over where the protocol could not (under TLS), and may ask the server its client port
   * once. Any {@code Connection} pgjdbc made will do, a pool's proxy included.
   */
  public static WireCounts of(Connection c) {
    try {
      if (!c.isWrapperFor(PGConnection.class)) {
        return null;
      }
      WireCounts w = BY_PID.get(c.unwrap(PGConnection.class).getBackendPID());
      if (w == null) {
        w = byClientPort(c);
      }
      if (w == null || w == AMBIGUOUS) {
        return null;
      }
      w.markStartup();
      return w;
    } catch (SQLException e) {
      return null;
    }
  }

  private static WireCounts byClientPort(Connection c) throws SQLException {
    if (BY_PORT.isEmpty() || !c.getAutoCommit()) {
      // in a transaction the query would be the transaction's: left unknown rather than changed
      return null;
    }
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT inet_client_port()")) {
      return rs.next() ? BY_PORT.get(rs.getInt(1)) : null;
    }
  }

  /** Backend process ids of this JVM's counted connections that are open now. */
  public static Set<Integer> openPids() {
    return openPids(null);
  }

  /** As {@link #openPids()}, of {@code owner}'s connections only (every one where it is null). */
  public static Set<Integer> openPids(String owner) {
    Set<Integer> pids = new TreeSet<>();
    BY_PID.forEach(
        (pid, w) -> {
          if (owns(owner, w)) {
            pids.add(pid);
          }
        });
    return pids;
  }

  private static boolean owns(String owner, WireCounts w) {
    return owner == null || owner.equals(w.owner);
  }

  /**
   * Records the server session behind a pooler that {@code c} keeps for its whole session (session
   * mode), as the server named it to a query sent through the pooler; the pid {@code c} was told at
   * start-up is the pooler's own. Looked up by that pid without marking the start-up over: the
   * query that read it is the connection's start-up, not an op's. False where {@code c}'s socket
   * does not count.
   */
  public static boolean serverSession(Connection c, int serverPid) {
    try {
      if (!c.isWrapperFor(PGConnection.class)) {
        return false;
      }
      WireCounts w = BY_PID.get(c.unwrap(PGConnection.class).getBackendPID());
      if (w == null || w == AMBIGUOUS) {
        return false;
      }
      w.serverPid = serverPid;
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  /**
   * The server sessions ({@link #serverSession}) of this JVM's counted connections that are open
   * now and had theirs read; fewer than {@link #openPids()} where some were not.
   */
  public static Set<Integer> openServerPids() {
    return openServerPids(null);
  }

  /** As {@link #openServerPids()}, of {@code owner}'s connections only (all where null). */
  public static Set<Integer> openServerPids(String owner) {
    Set<Integer> pids = new TreeSet<>();
    BY_PID.forEach(
        (pid, w) -> {
          int s = w.serverPid;
          if (s > 0 && owns(owner, w)) {
            pids.add(s);
          }
        });
    return pids;
  }

  /** {@link #serverSession}'s pid of a connection whose read failed: asked, and unknown. */
  public static final int UNREAD = -1;

  /**
   * How many of this JVM's open counted connections were asked their server session, read or not:
   * what {@link #openServerPids()} is short of. Not {@link #openPids()}: with --forks 0 (a user's
   * test JVM) that holds every other counted connection of the JVM too, the previous run's not yet
   * closed among them (PgBouncerTest saw "4 of 5" once in three CI runs).
   */
  public static int askedServerSessions() {
    return askedServerSessions(null);
  }

  /** As {@link #askedServerSessions()}, of {@code owner}'s connections only (all where null). */
  public static int askedServerSessions(String owner) {
    int[] n = {0};
    BY_PID.forEach(
        (pid, w) -> {
          if (w.serverPid != 0 && owns(owner, w)) {
            n[0]++;
          }
        });
    return n[0];
  }

  /** A socket connected from {@code localPort}. */
  static void connected(WireCounts w, int localPort) {
    w.localPort = localPort;
    put(BY_PORT, localPort, w);
  }

  /** The protocol named the connection's backend ({@link WireCounts#backendPid()}). */
  static void registered(WireCounts w) {
    put(BY_PID, w.backendPid, w);
  }

  private static void put(Map<Integer, WireCounts> m, int key, WireCounts w) {
    m.merge(key, w, (old, now) -> old == now ? old : AMBIGUOUS);
  }

  /** The socket closed: its keys may be another connection's next. */
  static void closed(WireCounts w) {
    if (w.backendPid != 0) {
      BY_PID.remove(w.backendPid, w);
    }
    if (w.localPort != 0) {
      BY_PORT.remove(w.localPort, w);
    }
  }
}
