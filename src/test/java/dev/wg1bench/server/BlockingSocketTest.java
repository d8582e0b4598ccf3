package dev.wg1bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.server.wire.WireSocketFactory;
import dev.wg1bench.support.TestServer;
import java.net.Socket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.postgresql.PGProperty;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.PGStream;
import org.postgresql.core.QueryExecutorBase;

/**
 * The benchmark's client connections read each answer with one blocking read on a platform thread:
 * their socket is a channel's, back in blocking mode after pgjdbc's timed connect and SSL request,
 * and it carries queries as any other. A read timeout (the user's socketTimeout, or the default of
 * connections outside the benchmark) and a user's own socketFactory keep pgjdbc's plain socket.
 */
class BlockingSocketTest {
  private static ConnectionFactory factory(Map<String, String> properties) {
    return new ConnectionFactory(
        TestServer.target(),
        new ClientSettings(
            QueryMode.PREPARED, null, Map.of(), new DriverKnobs(null, null, properties, Map.of())));
  }

  /** The socket under pgjdbc's stream (its field: pgjdbc exposes the stream to no caller). */
  private static Socket socket(Connection c) throws Exception {
    QueryExecutorBase qe = (QueryExecutorBase) c.unwrap(BaseConnection.class).getQueryExecutor();
    java.lang.reflect.Field f = QueryExecutorBase.class.getDeclaredField("pgStream");
    f.setAccessible(true);
    Socket s = ((PGStream) f.get(qe)).getSocket();
    // the per-op accounting's counting socket (and --rtt's delay line) forward to the socket the
    // chosen factory made: that one is read
    while (s instanceof ForwardingSocket) {
      s = ((ForwardingSocket) s).inner();
    }
    return s;
  }

  @Test
  void benchmarkClientsReadABlockingChannelSocket() throws Exception {
    try (Connection c = factory(Map.of()).openBenchmarkClient()) {
      Socket s = socket(c);
      assertNotNull(s.getChannel(), "a channel's socket");
      assertTrue(s.getChannel().isBlocking(), "in blocking mode after the timed connect");
      assertEquals(0, s.getSoTimeout());
      for (int i = 1; i <= 3; i++) {
        try (Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT " + i)) {
          assertTrue(rs.next());
          assertEquals(i, rs.getInt(1));
        }
      }
      assertTrue(s.getChannel().isBlocking());
    }
  }

  @Test
  void timedReadsAndTheUsersFactoryKeepPgjdbcsSocket() throws Exception {
    try (Connection c = factory(Map.of("socketTimeout", "30")).openBenchmarkClient()) {
      assertNull(socket(c).getChannel());
    }
    try (Connection c = factory(Map.of()).openClient()) {
      // outside the benchmark reads are bounded by DEFAULT_SOCKET_TIMEOUT_S
      assertNull(socket(c).getChannel());
    }
    // only named here, never instantiated: the properties are what pgjdbc would be given
    // (the counting socket of the per-op accounting is pgjdbc's factory, the chosen one its inner)
    String own = "com.example.TheirSocketFactory";
    Properties theirs = factory(Map.of("socketFactory", own)).clientProperties(0);
    assertEquals(WireSocketFactory.class.getName(), PGProperty.SOCKET_FACTORY.getOrDefault(theirs));
    assertEquals(own, theirs.getProperty(WireSocketFactory.INNER));
    Properties ours = factory(Map.of()).clientProperties(0);
    assertEquals(WireSocketFactory.class.getName(), PGProperty.SOCKET_FACTORY.getOrDefault(ours));
    assertEquals(BlockingSocketFactory.class.getName(), ours.getProperty(WireSocketFactory.INNER));
  }
}
