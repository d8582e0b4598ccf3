package dev.wg1bench.server.delay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.support.TestServer;
import java.io.ByteArrayOutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * pgjdbc connections through the line: each exchange waits at least the round-trip time, a
 * pipelined batch waits about once where single statements wait once each, results and COPY come
 * through unchanged, and a terminated session fails as it does without the line.
 */
class DelayedConnectionsTest {
  static final Duration RTT = Duration.ofMillis(50);

  static Connection open(Duration rtt) throws SQLException {
    Properties p = new Properties();
    if (!rtt.isZero()) {
      DelayedSocketFactory.install(p, rtt);
    }
    return new org.postgresql.Driver().connect(TestServer.url(), p);
  }

  @Test
  void connectingAndEachRoundTripTakeAtLeastTheRtt() throws Exception {
    long start = System.nanoTime();
    try (Connection c = open(RTT)) {
      assertTrue(System.nanoTime() - start >= RTT.toNanos(), "start-up pays its round trip");
      try (Statement st = c.createStatement()) {
        for (int i = 0; i < 3; i++) {
          long t = System.nanoTime();
          try (ResultSet rs = st.executeQuery("SELECT 1")) {
            assertTrue(rs.next());
          }
          assertTrue(System.nanoTime() - t >= RTT.toNanos(), "a SELECT 1 waits the RTT");
        }
      }
    }
  }

  /**
   * Single statements take a round trip each (a lower bound on time); the same rows as a JDBC batch
   * go out pipelined: its reads wait on the line a few times in all, not once a row (a count: on a
   * slow machine the batch only finds more of its replies due already).
   */
  @Test
  void aBatchIsPipelinedWhereSingleStatementsAreNot() throws Exception {
    int n = 20;
    try (Connection c = open(RTT);
        Statement st = c.createStatement()) {
      st.execute("CREATE TEMP TABLE t (i int)");
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)")) {
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
          ps.setInt(1, i);
          ps.executeUpdate();
        }
        assertTrue(System.nanoTime() - start >= n * RTT.toNanos(), "a round trip each");
        long before = DelayedSocketFactory.waits();
        for (int i = 0; i < n; i++) {
          ps.setInt(1, i);
          ps.addBatch();
        }
        ps.executeBatch();
        long batch = DelayedSocketFactory.waits() - before;
        assertTrue(batch >= 1 && batch * 4 <= n, "a few waits, not one a row: " + batch);
      }
      try (ResultSet rs = st.executeQuery("SELECT count(*), sum(i) FROM t")) {
        rs.next();
        assertEquals(2L * n, rs.getLong(1));
        assertEquals(2L * n * (n - 1) / 2, rs.getLong(2));
      }
    }
  }

  @Test
  void largeResultsAndCopyComeThroughUnchanged() throws Exception {
    String rows = "SELECT g, md5(g::text) FROM generate_series(1, 50000) g";
    try (Connection plain = open(Duration.ZERO);
        Connection delayed = open(Duration.ofMillis(1))) {
      assertEquals(digest(plain, rows), digest(delayed, rows));
      assertArrayEquals(copyOut(plain, rows), copyOut(delayed, rows));
      // fetched 100 rows a round trip
      delayed.setAutoCommit(false);
      assertEquals(digest(plain, rows), digest(delayed, rows, 100));
    }
  }

  private static String digest(Connection c, String sql) throws SQLException {
    return digest(c, sql, 0);
  }

  private static String digest(Connection c, String sql, int fetchSize) throws SQLException {
    StringBuilder b = new StringBuilder();
    long sum = 0;
    int count = 0;
    try (Statement st = c.createStatement()) {
      st.setFetchSize(fetchSize);
      try (ResultSet rs = st.executeQuery(sql)) {
        while (rs.next()) {
          sum = sum * 31 + rs.getInt(1) + rs.getString(2).hashCode();
          count++;
        }
      }
    }
    return b.append(count).append('/').append(sum).toString();
  }

  private static byte[] copyOut(Connection c, String sql) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    c.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY (" + sql + ") TO STDOUT", out);
    return out.toByteArray();
  }

  /** A session the server ends fails the next statement with the server's SQLSTATE, as plain. */
  @Test
  void aTerminatedSessionFailsAsWithoutTheLine() throws Exception {
    assertEquals(terminatedState(Duration.ZERO), terminatedState(Duration.ofMillis(5)));
  }

  private static String terminatedState(Duration rtt) throws Exception {
    try (Connection victim = open(rtt);
        Connection admin = open(Duration.ZERO)) {
      int pid = victim.unwrap(PGConnection.class).getBackendPID();
      try (Statement st = admin.createStatement()) {
        st.execute("SELECT pg_terminate_backend(" + pid + ")");
      }
      SQLException e =
          assertThrows(
              SQLException.class,
              () -> {
                for (int i = 0; i < 100; i++) {
                  try (Statement st = victim.createStatement()) {
                    st.execute("SELECT 1");
                  }
                  Thread.sleep(10);
                }
              });
      assertTrue(victim.isClosed() || e.getSQLState() != null, e.toString());
      return e.getSQLState();
    }
  }
}
