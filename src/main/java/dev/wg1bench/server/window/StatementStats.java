package dev.wg1bench.server.window;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * pg_stat_statements read at a window's two ends, and what each statement of the window's database
 * did between them. The view's columns differ by version (PostgreSQL 13 split {@code total_time}
 * into execution and planning and added {@code wal_bytes}; 14 added {@code toplevel}), so they are
 * read from the view itself: a figure whose column the server lacks is null, never zero.
 */
final class StatementStats {
  /** One statement's counters at one instant (times in ms). */
  record Row(
      String query,
      long calls,
      double execMs,
      double planMs,
      long rows,
      long sharedHit,
      long sharedRead,
      long sharedDirtied,
      long sharedWritten,
      long tempRead,
      long tempWritten,
      long walBytes) {}

  private static final Row ZERO = new Row(null, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  /**
   * The view's statements at one instant, by their key, the view's dealloc count, and the calls of
   * the statements this role may not read (another role's, without pg_read_all_stats: the view
   * gives their counters but no queryid and no text, so they cannot be told apart).
   */
  record Snapshot(Map<String, Row> rows, long deallocations, long hiddenCalls) {}

  private final boolean planTime;
  private final boolean wal;
  private final boolean toplevel;
  private final boolean info;
  private final String sql;

  private StatementStats(Set<String> columns, boolean info) {
    this.planTime = columns.contains("total_plan_time");
    this.wal = columns.contains("wal_bytes");
    this.toplevel = columns.contains("toplevel");
    this.info = info;
    String exec = columns.contains("total_exec_time") ? "total_exec_time" : "total_time";
    this.sql =
        ServerWindow.MARKER
            + " SELECT userid, queryid, "
            + (toplevel ? "toplevel" : "true")
            + ", query, calls, "
            + exec
            + ", "
            + (planTime ? "total_plan_time" : "0")
            + ", rows, shared_blks_hit, shared_blks_read, shared_blks_dirtied, shared_blks_written,"
            + " temp_blks_read, temp_blks_written, "
            + (wal ? "wal_bytes" : "0")
            + " FROM pg_stat_statements"
            + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
            + " AND position("
            + quoted(ServerWindow.MARKER_TEXT)
            + " in query) = 0";
  }

  private static String quoted(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  /**
   * The view as this server has it, or the one line why it cannot be read: not installed in the
   * database, installed but not preloaded, or not readable by this role.
   */
  static Object open(Connection c) {
    try (Statement st = c.createStatement()) {
      try (ResultSet rs =
          st.executeQuery(
              ServerWindow.MARKER
                  + " SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements'")) {
        if (!rs.next()) {
          return "pg_stat_statements is not installed in this database (CREATE EXTENSION"
              + " pg_stat_statements, with it in shared_preload_libraries)";
        }
      }
      Set<String> columns = new HashSet<>();
      try (ResultSet rs =
          st.executeQuery(ServerWindow.MARKER + " SELECT * FROM pg_stat_statements LIMIT 0")) {
        ResultSetMetaData md = rs.getMetaData();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          columns.add(md.getColumnName(i));
        }
      }
      boolean info;
      try (ResultSet rs =
          st.executeQuery(
              ServerWindow.MARKER + " SELECT to_regclass('pg_stat_statements_info') IS NOT NULL")) {
        info = rs.next() && rs.getBoolean(1);
      }
      return new StatementStats(columns, info);
    } catch (SQLException e) {
      return "pg_stat_statements cannot be read: " + ServerWindow.oneLine(e);
    }
  }

  boolean planTime() {
    return planTime;
  }

  boolean wal() {
    return wal;
  }

  Snapshot snapshot(Connection c) throws SQLException {
    Map<String, Row> rows = new HashMap<>();
    long hidden = 0;
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        rs.getLong(2);
        if (rs.wasNull()) {
          hidden += rs.getLong(5);
          continue;
        }
        String key = rs.getLong(1) + "/" + rs.getLong(2) + "/" + rs.getBoolean(3);
        rows.put(
            key,
            new Row(
                rs.getString(4),
                rs.getLong(5),
                rs.getDouble(6),
                rs.getDouble(7),
                rs.getLong(8),
                rs.getLong(9),
                rs.getLong(10),
                rs.getLong(11),
                rs.getLong(12),
                rs.getLong(13),
                rs.getLong(14),
                rs.getLong(15)));
      }
    }
    long dealloc = 0;
    if (info) {
      try (Statement st = c.createStatement();
          ResultSet rs =
              st.executeQuery(
                  ServerWindow.MARKER + " SELECT dealloc FROM pg_stat_statements_info")) {
        dealloc = rs.next() ? rs.getLong(1) : 0;
      }
    }
    return new Snapshot(rows, dealloc, hidden);
  }

  /**
   * Each statement that ran between {@code a} and {@code b}, by total execution time, most first. A
   * statement absent at {@code a}, or whose calls went down (its entry evicted and made again),
   * counts from zero.
   */
  List<ServerSide.StatementFigures> delta(Snapshot a, Snapshot b) {
    List<ServerSide.StatementFigures> out = new ArrayList<>();
    for (Map.Entry<String, Row> e : b.rows().entrySet()) {
      Row end = e.getValue();
      Row s = a.rows().getOrDefault(e.getKey(), ZERO);
      if (s.calls() > end.calls()) {
        s = ZERO;
      }
      long calls = end.calls() - s.calls();
      if (calls <= 0) {
        continue;
      }
      double exec = end.execMs() - s.execMs();
      double plan = end.planMs() - s.planMs();
      out.add(
          new ServerSide.StatementFigures(
              end.query(),
              calls,
              exec,
              exec / calls,
              planTime ? plan : null,
              planTime ? plan / calls : null,
              end.rows() - s.rows(),
              end.sharedHit() - s.sharedHit(),
              end.sharedRead() - s.sharedRead(),
              end.sharedDirtied() - s.sharedDirtied(),
              end.sharedWritten() - s.sharedWritten(),
              end.tempRead() - s.tempRead(),
              end.tempWritten() - s.tempWritten(),
              wal ? end.walBytes() - s.walBytes() : null));
    }
    out.sort(Comparator.comparingDouble(ServerSide.StatementFigures::totalExecMs).reversed());
    return out;
  }
}
