package dev.wg1bench.server.window;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * pg_stat_database (the window's database), pg_stat_wal (PostgreSQL 14+) and pg_stat_io (16+) at a
 * window's two ends, and their changes over it. A view the server lacks is said by name and major.
 */
final class DatabaseStats {
  private static final String DATABASE =
      ServerWindow.MARKER
          + " SELECT xact_commit, xact_rollback, blks_read, blks_hit, tup_returned, tup_fetched,"
          + " tup_inserted, tup_updated, tup_deleted, temp_files, temp_bytes, deadlocks, conflicts"
          + " FROM pg_stat_database WHERE datname = current_database()";
  private static final String WAL =
      ServerWindow.MARKER
          + " SELECT wal_records, wal_fpi, wal_bytes, wal_buffers_full FROM pg_stat_wal";
  private static final String IO =
      ServerWindow.MARKER
          + " SELECT backend_type, object, context, coalesce(reads, 0), coalesce(writes, 0),"
          + " coalesce(extends, 0), coalesce(hits, 0), coalesce(evictions, 0),"
          + " coalesce(fsyncs, 0) FROM pg_stat_io";

  /** The counters at one instant; {@code wal} and {@code io} null where the server lacks them. */
  record Snapshot(long[] database, long[] wal, Map<String, long[]> io) {}

  private final int major;

  DatabaseStats(int major) {
    this.major = major;
  }

  Snapshot snapshot(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      long[] db = longs(st, DATABASE, 13);
      long[] wal = major >= 14 ? longs(st, WAL, 4) : null;
      Map<String, long[]> io = null;
      if (major >= 16) {
        io = new LinkedHashMap<>();
        try (ResultSet rs = st.executeQuery(IO)) {
          while (rs.next()) {
            long[] v = new long[6];
            for (int i = 0; i < 6; i++) {
              v[i] = rs.getLong(4 + i);
            }
            io.put(rs.getString(1) + "\t" + rs.getString(2) + "\t" + rs.getString(3), v);
          }
        }
      }
      return new Snapshot(db, wal, io);
    }
  }

  private static long[] longs(Statement st, String sql, int n) throws SQLException {
    long[] v = new long[n];
    try (ResultSet rs = st.executeQuery(sql)) {
      if (rs.next()) {
        for (int i = 0; i < n; i++) {
          v[i] = rs.getLong(i + 1);
        }
      }
    }
    return v;
  }

  ServerSide.DatabaseFigures delta(Snapshot a, Snapshot b, double seconds) {
    long[] d = minus(b.database(), a.database());
    long[] w = b.wal() == null ? null : minus(b.wal(), a.wal());
    double minutes = seconds / 60;
    return new ServerSide.DatabaseFigures(
        d[0],
        d[1],
        minutes > 0 ? (Double) ((d[0] + d[1]) / minutes) : null,
        d[2],
        d[3],
        d[4],
        d[5],
        d[6],
        d[7],
        d[8],
        d[9],
        d[10],
        d[11],
        d[12],
        w == null ? null : w[0],
        w == null ? null : w[1],
        w == null ? null : w[2],
        w == null ? null : w[3],
        w == null ? "pg_stat_wal is PostgreSQL 14's; this server is " + major : null,
        b.io() == null ? null : io(a.io(), b.io()),
        b.io() == null ? "pg_stat_io is PostgreSQL 16's; this server is " + major : null);
  }

  private static List<ServerSide.IoFigures> io(Map<String, long[]> a, Map<String, long[]> b) {
    List<ServerSide.IoFigures> out = new ArrayList<>();
    b.forEach(
        (key, end) -> {
          long[] d = minus(end, a.getOrDefault(key, new long[end.length]));
          boolean changed = false;
          for (long x : d) {
            changed |= x != 0;
          }
          if (changed) {
            String[] k = key.split("\t", -1);
            out.add(new ServerSide.IoFigures(k[0], k[1], k[2], d[0], d[1], d[2], d[3], d[4], d[5]));
          }
        });
    return out;
  }

  private static long[] minus(long[] b, long[] a) {
    long[] d = new long[b.length];
    for (int i = 0; i < b.length; i++) {
      d[i] = b[i] - a[i];
    }
    return d;
  }
}
