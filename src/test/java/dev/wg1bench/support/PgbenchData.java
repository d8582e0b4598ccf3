package dev.wg1bench.support;

import dev.wg1bench.load.PgbenchLoader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Reads what a workload did to the pgbench tables. */
public final class PgbenchData {
  private PgbenchData() {}

  /** Fresh tables at scale 1 (forced: the tests own this database). */
  public static void reset() throws SQLException {
    try (Connection c = TestServer.connect()) {
      PgbenchLoader.init(c, 1, 100, true, null);
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
