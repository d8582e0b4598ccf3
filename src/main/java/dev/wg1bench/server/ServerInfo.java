package dev.wg1bench.server;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a result must say about the server: version and the settings that move benchmark numbers.
 *
 * @param version server_version, e.g. "15.20 (Debian 15.20-0+deb12u1)"
 * @param versionNum server_version_num, e.g. 150020
 * @param settings the relevant settings as current_setting() shows them (with units)
 * @param ssl whether the connection that read this is encrypted (pg_stat_ssl), and how
 */
public record ServerInfo(
    String version,
    int versionNum,
    String versionString,
    Map<String, String> settings,
    String ssl) {

  /** Settings that change throughput or latency of the workloads here. */
  public static final List<String> RELEVANT =
      List.of(
          "shared_buffers",
          "synchronous_commit",
          "fsync",
          "full_page_writes",
          "wal_level",
          "wal_buffers",
          "max_wal_size",
          "checkpoint_timeout",
          "max_connections",
          "ssl",
          "huge_pages",
          "work_mem",
          "effective_cache_size",
          "default_transaction_isolation",
          "max_parallel_workers_per_gather",
          "jit",
          "autovacuum",
          "commit_delay");

  public static ServerInfo read(Connection c) throws SQLException {
    String version;
    String full;
    int num;
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT current_setting('server_version'), current_setting('server_version_num')::int, version()")) {
      rs.next();
      version = rs.getString(1);
      num = rs.getInt(2);
      full = rs.getString(3);
    }
    Map<String, String> settings = new LinkedHashMap<>();
    Array names = c.createArrayOf("text", RELEVANT.toArray());
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT name, current_setting(name) FROM pg_settings WHERE name = ANY(?)")) {
      ps.setArray(1, names);
      try (ResultSet rs = ps.executeQuery()) {
        Map<String, String> got = new LinkedHashMap<>();
        while (rs.next()) {
          got.put(rs.getString(1), rs.getString(2));
        }
        for (String n : RELEVANT) {
          if (got.containsKey(n)) {
            settings.put(n, got.get(n));
          }
        }
      }
    }
    return new ServerInfo(version, num, full, settings, sslInUse(c));
  }

  /** "off", or e.g. "TLSv1.3 TLS_AES_256_GCM_SHA384", as this connection negotiated it. */
  public static String sslInUse(Connection c) throws SQLException {
    try (Statement st = ConnectionFactory.unnamed(c.createStatement());
        ResultSet rs =
            st.executeQuery(
                "SELECT ssl, version, cipher FROM pg_stat_ssl WHERE pid = pg_backend_pid()")) {
      if (rs.next() && rs.getBoolean(1)) {
        return rs.getString(2) + " " + rs.getString(3);
      }
      return "off";
    }
  }

  /** Current values of the given settings on this connection (to record what --set did). */
  public static Map<String, String> current(Connection c, Iterable<String> names)
      throws SQLException {
    Map<String, String> out = new LinkedHashMap<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT current_setting(?)")) {
      for (String n : names) {
        ps.setString(1, n);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          out.put(n, rs.getString(1));
        }
      }
    }
    return out;
  }
}
