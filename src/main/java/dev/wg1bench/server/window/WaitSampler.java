package dev.wg1bench.server.window;

import dev.wg1bench.server.FixedRate;
import dev.wg1bench.server.SamplerThreads;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The clients' sessions sampled from pg_stat_activity on a connection of its own, at a fixed rate,
 * into how many samples found each in which state (see {@link ServerSide.WaitShare}). One query a
 * sample, for all the clients' pids at once.
 */
final class WaitSampler implements AutoCloseable {
  static final String SQL =
      ServerWindow.MARKER
          + " SELECT state, wait_event_type, wait_event FROM pg_stat_activity WHERE pid = ANY(?)";

  /** Drops the transaction's statistics snapshot, so the next read of pg_stat_activity is now. */
  static final String CLEAR = ServerWindow.MARKER + " SELECT pg_stat_clear_snapshot()";

  private final Callable<Connection> opener;
  private final int[] pids;
  private final long intervalNanos;
  private final Map<String, long[]> counts = new HashMap<>();
  private final Thread thread;
  private volatile boolean running = true;
  private volatile Connection connection;
  private long samples;
  private long found;
  private volatile String failure;

  /**
   * Down once the sampler's connection is open and its transaction begun (or it failed): what its
   * start-up sends (pgjdbc's {@code SET application_name}, the {@code BEGIN}) is then before the
   * window's first snapshot, so none of it is a statement of the window's.
   */
  private final CountDownLatch ready = new CountDownLatch(1);

  WaitSampler(Callable<Connection> opener, int[] pids, long intervalNanos) {
    this.opener = opener;
    this.pids = pids.clone();
    this.intervalNanos = intervalNanos;
    this.thread = new Thread(this::loop, "wg1bench-wait-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    FixedRate rate = new FixedRate(intervalNanos, false, () -> running);
    try (Connection c = opener.call()) {
      connection = c;
      ServerWindow.untracked(c);
      Integer[] boxed = new Integer[pids.length];
      for (int i = 0; i < pids.length; i++) {
        boxed[i] = pids[i];
      }
      Array array = c.createArrayOf("int4", boxed);
      // one transaction for all the samples, each reading pg_stat_activity afresh: a sample in
      // a transaction of its own was a commit of the database's (100 a second), counted in the
      // run's server commits/s beside the clients'; rolled back (nothing written) at the end
      c.setAutoCommit(false);
      // the snapshot dropped and pg_stat_activity read in one round trip: the sampler wakes the
      // clients' cores once a sample, not twice
      try (PreparedStatement ps = c.prepareStatement(CLEAR + ";" + SQL)) {
        ps.setArray(1, array);
        ps.execute(); // the transaction's BEGIN goes with it, before the window's first snapshot
        ready.countDown();
        while (rate.await()) {
          sample(ps);
        }
      } finally {
        c.rollback();
      }
    } catch (Exception e) {
      if (running) {
        failure = "the wait sampler stopped: " + ServerWindow.oneLine(e);
      }
    } finally {
      ready.countDown();
    }
  }

  /**
   * Waits until the sampler's connection is open and its transaction begun, or it failed, for at
   * most {@code ms}: a server that does not answer loses the order, not the run.
   */
  void awaitReady(long ms) {
    try {
      ready.await(ms, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One sample: the first result is the cleared snapshot's, the second the sessions' rows. */
  private void sample(PreparedStatement ps) throws SQLException {
    ps.execute();
    if (!ps.getMoreResults()) {
      throw new SQLException("the sampler's query gave no rows of pg_stat_activity");
    }
    try (ResultSet rs = ps.getResultSet()) {
      synchronized (counts) {
        samples++;
        while (rs.next()) {
          found++;
          counts
              .computeIfAbsent(
                  name(rs.getString(1), rs.getString(2), rs.getString(3)), k -> new long[1])[0]++;
        }
      }
    }
  }

  /** What a session's row says it is doing, as one name of {@link ServerSide.WaitShare}. */
  static String name(String state, String type, String event) {
    if (state == null) {
      return "unknown";
    }
    if (state.startsWith("idle in transaction")) {
      return "idle in transaction";
    }
    if (type != null) {
      return type + ":" + event;
    }
    return state.equals("active") ? "CPU" : state;
  }

  long seen(String name) {
    synchronized (counts) {
      long[] n = counts.get(name);
      return n == null ? 0 : n[0];
    }
  }

  long samples() {
    synchronized (counts) {
      return samples;
    }
  }

  /** Why the shares cannot be given, or null. */
  String why() {
    synchronized (counts) {
      if (failure != null && samples == 0) {
        return failure;
      }
      if (samples == 0) {
        return "no sample was taken in the window";
      }
      if (found == 0) {
        return "none of the clients' backend pids was a session of this server (behind a pooler"
            + " the clients' pids are the pooler's, not the server's)";
      }
      long[] unknown = counts.get("unknown");
      if (unknown != null && unknown[0] == found) {
        return "this role may not read the clients' sessions in pg_stat_activity (a superuser or"
            + " a member of pg_read_all_stats may)";
      }
      return failure;
    }
  }

  /** The shares, largest first; null where {@link #why()} says they cannot be given. */
  List<ServerSide.WaitShare> shares() {
    synchronized (counts) {
      if (samples == 0
          || found == 0
          || (counts.containsKey("unknown") && counts.get("unknown")[0] == found)) {
        return null;
      }
      return shares(counts, found);
    }
  }

  static List<ServerSide.WaitShare> shares(Map<String, long[]> counts, long total) {
    List<ServerSide.WaitShare> out = new ArrayList<>();
    counts.forEach(
        (name, n) ->
            out.add(new ServerSide.WaitShare(name, kind(name), n[0], (double) n[0] / total)));
    out.sort(
        Comparator.comparingLong(ServerSide.WaitShare::samples)
            .reversed()
            .thenComparing(ServerSide.WaitShare::name));
    return out;
  }

  static String kind(String name) {
    int colon = name.indexOf(':');
    return colon < 0 ? name : name.substring(0, colon);
  }

  @Override
  public void close() {
    running = false;
    SamplerThreads.stop(thread, () -> connection);
  }
}
