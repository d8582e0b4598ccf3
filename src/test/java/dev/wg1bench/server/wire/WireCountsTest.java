package dev.wg1bench.server.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.server.BlockingSocketFactory;
import dev.wg1bench.server.delay.DelayedSocketFactory;
import dev.wg1bench.support.TestServer;
import java.io.IOException;
import java.net.Socket;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.PGConnection;
import org.postgresql.PGProperty;

/**
 * Round trips, statements and rows of known ops, counted at the socket of a real server's
 * connection, equal what the protocol requires: in the clear, through the --rtt delay line, and
 * around a user's own socket factory.
 */
class WireCountsTest {
  /** A user's own socket factory: pgjdbc's default sockets, each one counted here. */
  public static final class UsersFactory extends dev.wg1bench.server.UnconnectedSocketFactory {
    static final AtomicInteger MADE = new AtomicInteger();

    public UsersFactory() {}

    @Override
    public Socket createSocket() throws IOException {
      MADE.incrementAndGet();
      return new Socket();
    }
  }

  /** Under which factory the counting one is chained. */
  static Properties under(String kind) {
    Properties p = new Properties();
    switch (kind) {
      case "rtt" -> DelayedSocketFactory.install(p, Duration.ofMillis(1));
      case "blocking" -> PGProperty.SOCKET_FACTORY.set(p, BlockingSocketFactory.class.getName());
      case "users" -> PGProperty.SOCKET_FACTORY.set(p, UsersFactory.class.getName());
      default -> {}
    }
    assertNull(WireSocketFactory.install(p, TestServer.url()));
    return p;
  }

  static Connection open(Properties p) throws SQLException {
    return new org.postgresql.Driver().connect(TestServer.url(), p);
  }

  static WireCounts counts(Connection c) {
    WireCounts w = Wire.of(c);
    assertNotNull(w, "the connection's socket counts");
    return w;
  }

  @ParameterizedTest
  @ValueSource(strings = {"default", "rtt", "blocking", "users"})
  void knownOpsTakeTheRoundTripsTheProtocolRequires(String kind) throws Exception {
    int usersBefore = UsersFactory.MADE.get();
    try (Connection c = open(under(kind));
        Statement st = c.createStatement()) {
      WireCounts w = counts(c);
      assertEquals(c.unwrap(PGConnection.class).getBackendPID(), w.backendPid());
      // sslmode=prefer: an SSLRequest answered 'N', the StartupMessage answered up to Ready, and
      // pgjdbc's one statement of its own (SET extra_float_digits = 3)
      assertEquals(3, w.startup().roundTrips(), "start-up round trips");
      assertEquals(1, w.startup().statements(), "start-up statements");
      assertEquals(w.startup().roundTrips(), w.roundTrips(), "nothing since");
      st.execute("CREATE TEMP TABLE t (id int PRIMARY KEY, v text)");
      st.execute("INSERT INTO t SELECT g, 'v' || g FROM generate_series(1, 10) g");
      WireMark m = new WireMark();

      m.take(w);
      try (ResultSet rs = st.executeQuery("SELECT 1")) {
        assertTrue(rs.next());
      }
      assertOp(m, 1, 1, 1, "one query");

      m.take(w);
      try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
        for (int i = 1; i <= 10; i++) {
          ps.setInt(1, i);
          try (ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
          }
        }
      }
      assertOp(m, 10, 10, 10, "ten single-row lookups");

      m.take(w);
      try (ResultSet rs =
          st.executeQuery("SELECT v FROM t WHERE id = ANY('{1,2,3,4,5,6,7,8,9,10}')")) {
        while (rs.next()) {}
      }
      assertOp(m, 1, 1, 10, "one = ANY query");
      assertEquals(10, m.commandRows(), "SELECT 10");
      assertTrue(m.bytesSent() > 0 && m.bytesReceived() > 0);
      if (kind.equals("users")) {
        assertEquals(
            usersBefore + 1, UsersFactory.MADE.get(), "the user's factory made the socket");
      }
    }
  }

  private static void assertOp(WireMark m, long roundTrips, long statements, long rows, String op) {
    assertEquals(roundTrips, m.roundTrips(), op + ": round trips");
    assertEquals(statements, m.statements(), op + ": statements");
    assertEquals(rows, m.rows(), op + ": rows");
    assertEquals(0, m.errors(), op + ": errors");
  }

  /**
   * A 100-row JDBC batch is one round trip: pgjdbc writes every Bind/Execute and one Sync, then
   * reads. Rewritten (reWriteBatchedInserts), the rows go as multi-row INSERTs of 64, 32 and 4.
   */
  @ParameterizedTest
  @ValueSource(strings = {"false", "true"})
  void aHundredRowBatchIsOneRoundTrip(String rewrite) throws Exception {
    for (String kind : new String[] {"default", "rtt"}) {
      Properties p = under(kind);
      PGProperty.REWRITE_BATCHED_INSERTS.set(p, rewrite);
      try (Connection c = open(p);
          Statement st = c.createStatement()) {
        WireCounts w = counts(c);
        st.execute("CREATE TEMP TABLE b (i int)");
        WireMark m = new WireMark();
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO b VALUES (?)")) {
          for (int i = 0; i < 100; i++) {
            ps.setInt(1, i);
            ps.addBatch();
          }
          m.take(w);
          ps.executeBatch();
        }
        assertEquals(1, m.roundTrips(), kind + ": round trips");
        assertEquals(rewrite.equals("true") ? 3 : 100, m.statements(), kind + ": statements");
        assertEquals(100, m.commandRows(), kind + ": rows inserted");
        assertEquals(0, m.rows(), kind + ": rows returned");
      }
    }
  }

  /**
   * Three statements in a transaction with autocommit off: pgjdbc sends BEGIN in the same write as
   * the first statement, so the transaction is four round trips (three statements and the COMMIT)
   * and five statements (BEGIN, the three, COMMIT).
   */
  @ParameterizedTest
  @ValueSource(strings = {"default", "rtt"})
  void aThreeStatementTransactionPiggybacksItsBegin(String kind) throws Exception {
    try (Connection c = open(under(kind))) {
      WireCounts w = counts(c);
      try (Statement st = c.createStatement()) {
        st.execute("CREATE TEMP TABLE a (id int PRIMARY KEY, n int)");
        st.execute("INSERT INTO a VALUES (1, 0)");
      }
      WireMark m = new WireMark();
      m.take(w);
      c.setAutoCommit(false);
      try (PreparedStatement up = c.prepareStatement("UPDATE a SET n = n + 1 WHERE id = 1");
          PreparedStatement sel = c.prepareStatement("SELECT n FROM a WHERE id = 1");
          PreparedStatement ins = c.prepareStatement("INSERT INTO a VALUES (2, 0)")) {
        up.executeUpdate();
        try (ResultSet rs = sel.executeQuery()) {
          assertTrue(rs.next());
        }
        ins.executeUpdate();
      }
      c.commit();
      assertEquals(4, m.roundTrips(), "round trips");
      assertEquals(5, m.statements(), "statements");
      assertEquals(1, m.rows(), "rows returned");
    }
  }

  @Test
  void anErrorIsCountedAndNotAsAStatement() throws Exception {
    try (Connection c = open(under("default"));
        Statement st = c.createStatement()) {
      WireMark m = new WireMark();
      m.take(counts(c));
      try {
        st.execute("SELECT * FROM no_such_table_here");
      } catch (SQLException expected) {
        // 42P01
      }
      assertEquals(1, m.roundTrips());
      assertEquals(0, m.statements());
      assertEquals(1, m.errors());
    }
  }

  @Test
  void aClosedConnectionLeavesTheRegistry() throws Exception {
    int pid;
    try (Connection c = open(under("default"))) {
      pid = c.unwrap(PGConnection.class).getBackendPID();
      assertTrue(Wire.openPids().contains(pid));
    }
    assertFalse(Wire.openPids().contains(pid));
  }

  /**
   * Under TLS the protocol's process id is not readable: the connection is found by its client port
   * instead, asked of the server once (here the pid's key is taken away to stand for it).
   */
  @Test
  void aConnectionWhosePidIsUnknownIsFoundByItsClientPort() throws Exception {
    try (Connection c = open(under("default"))) {
      WireCounts w = counts(c);
      assertTrue(Wire.BY_PID.remove(w.backendPid(), w));
      long before = w.roundTrips();
      assertSame(w, Wire.of(c));
      assertEquals(before + 1, w.roundTrips(), "one round trip to ask the port");
    }
  }

  /** Through a pool's proxy: HikariCP's connections are pgjdbc's, found the same way. */
  @Test
  void aPooledConnectionIsFoundThroughThePoolsProxy() throws Exception {
    com.zaxxer.hikari.HikariConfig hc = new com.zaxxer.hikari.HikariConfig();
    hc.setJdbcUrl(TestServer.url());
    hc.setDataSourceProperties(under("rtt"));
    hc.setMaximumPoolSize(1);
    try (com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(hc)) {
      WireCounts first;
      try (Connection c = pool.getConnection()) {
        first = counts(c);
      }
      try (Connection c = pool.getConnection();
          Statement st = c.createStatement()) {
        assertSame(first, counts(c), "the pool's one connection");
        WireMark m = new WireMark();
        m.take(first);
        st.executeQuery("SELECT 1").close();
        assertEquals(1, m.roundTrips());
        assertEquals(1, m.statements());
      }
    }
  }

  @Test
  void aConnectionOpenedWithoutTheFactoryHasNoCounts() throws Exception {
    try (Connection c = open(new Properties())) {
      assertNull(Wire.of(c));
    }
  }

  @Test
  void aSocketFactoryInTheUrlIsOneLineWhyNot() {
    Properties p = new Properties();
    String why =
        WireSocketFactory.install(
            p, TestServer.url("socketFactory=" + UsersFactory.class.getName()));
    assertNotNull(why);
    assertTrue(why.contains("socketFactory") && !why.contains("\n"), why);
    assertNull(PGProperty.SOCKET_FACTORY.getOrDefault(p), "nothing installed");
  }
}
