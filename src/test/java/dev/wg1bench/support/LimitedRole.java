package dev.wg1bench.support;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A login role of the test server that may hold only so many connections ({@code CONNECTION
 * LIMIT}): the server refuses the next one with 53300 "too many connections for role", as a server
 * at max_connections refuses a client, deterministically and without restarting anything. Dropped
 * on close.
 */
public final class LimitedRole implements AutoCloseable {
  private final String name;

  /** Creates (or re-creates) role {@code name} with at most {@code limit} connections. */
  public LimitedRole(String name, int limit) throws SQLException {
    this.name = name;
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      drop(st, name);
      st.execute("CREATE ROLE " + name + " LOGIN CONNECTION LIMIT " + limit);
      // it reads what the parent looks at before a run (pgbench_branches, if other tests made it)
      st.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + name);
    }
  }

  public String name() {
    return name;
  }

  /** The test server's URL with this role as its user (and no password: the server trusts it). */
  public String url() {
    String url = TestServer.url().replaceAll("([?&])user=[^&]*", "$1user=" + name);
    return url.replaceAll("([?&])password=[^&]*", "$1password=x");
  }

  @Override
  public void close() throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      drop(st, name);
    }
  }

  private static void drop(Statement st, String role) throws SQLException {
    try (ResultSet rs = st.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = '" + role + "'")) {
      if (!rs.next()) {
        return;
      }
    }
    st.execute("DROP OWNED BY " + role);
    st.execute("DROP ROLE " + role);
  }
}
