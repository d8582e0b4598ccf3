package dev.wg1bench.support;

import dev.wg1bench.load.PgbenchLoader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Reads what a workload did to the pgbench tables. */
public final class PgbenchData {
  private PgbenchData() {}

  /**
   * The pgbench tables at scale 1 as init leaves them (forced: the tests own this database). When
   * they are there at scale 1 already, what a workload changes is undone instead (history emptied,
   * balances zeroed, fillers blanked): the same values for the data checks in a few milliseconds,
   * where a new init took a second or two for each of the suite's many resets.
   */
  public static void reset() throws SQLException {
    try (Connection c = TestServer.connect()) {
      if (!restore(c)) {
        PgbenchLoader.init(c, 1, 100, true, null);
      }
    }
  }

  private static boolean restore(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      try (ResultSet rs =
          st.executeQuery(
              "SELECT (SELECT count(*) FROM pgbench_branches) = 1"
                  + " AND (SELECT count(*) FROM pgbench_tellers) = 10"
                  + " AND (SELECT count(*) FROM pgbench_accounts) = 100000"
                  + " AND (SELECT count(*) FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid"
                  + "      WHERE i.indisprimary AND t.relname IN ('pgbench_branches',"
                  + "      'pgbench_tellers', 'pgbench_accounts')) = 3")) {
        if (!rs.next() || !rs.getBoolean(1)) {
          return false;
        }
      }
      st.execute("TRUNCATE pgbench_history");
      st.execute(
          "UPDATE pgbench_accounts SET abalance = 0, filler = ''"
              + " WHERE abalance <> 0 OR filler <> ''");
      st.execute("UPDATE pgbench_tellers SET tbalance = 0 WHERE tbalance <> 0");
      st.execute("UPDATE pgbench_branches SET bbalance = 0 WHERE bbalance <> 0");
      return true;
    } catch (SQLException e) {
      if ("42P01".equals(e.getSQLState())) {
        return false; // no tables yet
      }
      throw e;
    }
  }

  public static long scalar(String sql) throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  public static long historyRows() throws SQLException {
    return scalar("SELECT count(*) FROM pgbench_history");
  }

  /** Accounts whose filler the update workloads rewrote (init leaves it blank). */
  public static long changedAccounts() throws SQLException {
    return scalar("SELECT count(*) FROM pgbench_accounts WHERE filler <> ''");
  }
}
