package dev.wg1bench.server;

import static dev.wg1bench.server.window.ServerWindow.MARKER;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the server did to the workload's tables while it ran (the NTT slides' long-running stability
 * view): every interval, each table's size and its indexes' size, live and dead tuples, autovacuum
 * and autoanalyze runs, and the server's checkpoints. One connection of its own, in the parent
 * process, so the measured clients are not disturbed beyond the queries' cost.
 */
public final class ServerSampler implements AutoCloseable {
  /** The state of one table at one instant. */
  public record TableSample(
      long liveTuples,
      long deadTuples,
      long tableBytes,
      long indexBytes,
      long autovacuums,
      long autoanalyzes,
      long hotUpdates,
      long updates) {}

  /** Everything sampled at one instant, {@code t} seconds after the trial started. */
  public record Sample(double t, Map<String, TableSample> tables, long checkpoints) {}

  private final ConnectionFactory cf;
  private final List<String> tables;
  private final long intervalNanos;
  private final List<Sample> samples = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;
  private String failure;

  /** The sampling connection, for close() to abort when the server stopped answering. */
  private volatile Connection connection;

  public ServerSampler(ConnectionFactory cf, List<String> tables, long intervalNanos) {
    this.cf = cf;
    this.tables = List.copyOf(tables);
    this.intervalNanos = intervalNanos;
    this.thread = new Thread(this::loop, "wg1bench-server-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    FixedRate rate = new FixedRate(intervalNanos, true, () -> running);
    try (Connection c = cf.openOwn()) {
      connection = c;
      String checkpointsSql =
          c.getMetaData().getDatabaseMajorVersion() >= 17
              ? MARKER + " SELECT num_timed + num_requested FROM pg_stat_checkpointer"
              : MARKER + " SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter";
      try (PreparedStatement ps =
              c.prepareStatement(
                  MARKER
                      + " SELECT n_live_tup, n_dead_tup, pg_table_size(relid), pg_indexes_size(relid),"
                      + " autovacuum_count, autoanalyze_count, n_tup_hot_upd, n_tup_upd"
                      + " FROM pg_stat_user_tables WHERE relid = to_regclass(?)");
          Statement st = c.createStatement()) {
        while (rate.await()) {
          // pg_stat_* are cached per transaction: autocommit gives each sample fresh numbers
          Map<String, TableSample> m = new LinkedHashMap<>();
          for (String t : tables) {
            ps.setString(1, t);
            try (ResultSet rs = ps.executeQuery()) {
              if (rs.next()) {
                m.put(
                    t,
                    new TableSample(
                        rs.getLong(1),
                        rs.getLong(2),
                        rs.getLong(3),
                        rs.getLong(4),
                        rs.getLong(5),
                        rs.getLong(6),
                        rs.getLong(7),
                        rs.getLong(8)));
              }
            }
          }
          long checkpoints;
          try (ResultSet rs = st.executeQuery(checkpointsSql)) {
            rs.next();
            checkpoints = rs.getLong(1);
          }
          synchronized (samples) {
            samples.add(new Sample(rate.takenSeconds(), m, checkpoints));
          }
        }
      }
    } catch (SQLException e) {
      failure = ConnectionFactory.oneLine(e);
    }
  }

  /** Stops sampling and returns what was sampled. */
  public List<Sample> finish() {
    close();
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  /** Why sampling stopped early, or null. */
  public String failure() {
    return failure;
  }

  @Override
  public void close() {
    running = false;
    SamplerThreads.stop(thread, () -> connection);
  }
}
