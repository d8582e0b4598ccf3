package dev.wg1bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.support.Docker;
import dev.wg1bench.support.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * PgBouncer's port taken between its choice and the container's bind (by an outgoing connection's
 * local port, as in a CI run): the start takes another port, and gives up with PgBouncer's own line
 * only after {@link PgBouncerTarget#PORT_ATTEMPTS} ports. Skipped without Docker.
 */
@EnabledIf(value = "dockerAnswers", disabledReason = "no Docker engine answers")
class PgBouncerPortTest {
  static boolean dockerAnswers() {
    return Docker.available();
  }

  @Test
  void aPortTakenBeforeTheBindIsLeftForAnother() throws Exception {
    try (Socket taken = connectionOnAPickedPort()) {
      int port = taken.getLocalPort();
      List<Integer> asked = new ArrayList<>();
      IntSupplier ports = () -> next(asked, asked.isEmpty() ? port : pick());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (PgBouncerTarget t = target(ports)) {
        t.start(4, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals(2, asked.size(), "ports asked: " + asked);
        assertNotEquals(port, asked.get(1));
        try (Connection c = new ConnectionFactory(t.spec(), ClientSettings.defaults()).openPlain();
            Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT 1")) {
          assertTrue(rs.next());
        }
        assertTrue(
            t.spec().jdbcUrl().contains(":" + asked.get(1) + "/"),
            "the clients' URL names the port PgBouncer listens on: " + t.spec().jdbcUrl());
      }
    }
  }

  @Test
  void everyPortTakenIsOneLineNamingIt() throws Exception {
    try (Socket taken = connectionOnAPickedPort()) {
      int port = taken.getLocalPort();
      List<Integer> asked = new ArrayList<>();
      try (PgBouncerTarget t = target(() -> next(asked, port))) {
        RunFailure e =
            assertThrows(
                RunFailure.class,
                () -> t.start(4, new PrintStream(new ByteArrayOutputStream(), true)));
        assertEquals(PgBouncerTarget.PORT_ATTEMPTS, asked.size());
        assertTrue(
            e.getMessage().contains("PgBouncer did not start")
                && e.getMessage().contains("127.0.0.1:" + port)
                && e.getMessage().contains("Address already in use")
                && !e.getMessage().contains("\n"),
            e.getMessage());
      }
    }
  }

  private static int next(List<Integer> asked, int port) {
    asked.add(port);
    return port;
  }

  private static int pick() {
    try {
      return ListenPort.pick();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** PgBouncer in transaction mode in front of the test server, on the ports given. */
  private static PgBouncerTarget target(IntSupplier ports) {
    TargetSpec server = TestServer.target();
    TargetSpec wanted = server.withProvision(server.provided().withVia("pgbouncer:transaction"));
    return new PgBouncerTarget(wanted, Targets.of(server), ports);
  }

  /** A connection to the test server whose local port is one {@link ListenPort} chose. */
  private static Socket connectionOnAPickedPort() throws IOException {
    URI server = URI.create(TestServer.target().jdbcUrl().substring("jdbc:".length()));
    Socket s = new Socket();
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), ListenPort.pick()));
    s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getPort()));
    return s;
  }
}
