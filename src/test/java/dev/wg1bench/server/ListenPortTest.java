package dev.wg1bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.support.TestServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ListenPortTest {
  @Test
  void theEphemeralRangeIsReadAsLinuxWritesIt() {
    assertEquals(32768, ListenPort.ephemeralStart("32768\t60999\n"));
    assertEquals(49152, ListenPort.ephemeralStart("49152 65535"));
    // another system or a line it cannot read: Linux's default
    assertEquals(ListenPort.DEFAULT_START, ListenPort.ephemeralStart(""));
    assertEquals(ListenPort.DEFAULT_START, ListenPort.ephemeralStart("many"));
    assertEquals(ListenPort.DEFAULT_START, ListenPort.ephemeralStart("0 10"));
  }

  @Test
  void aPortPickedIsFreeAndNoConnectionsLocalPort() throws Exception {
    Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    int start =
        Files.isReadable(range)
            ? ListenPort.ephemeralStart(Files.readString(range))
            : ListenPort.DEFAULT_START;
    for (int i = 0; i < 20; i++) {
      int port = ListenPort.pick();
      assertTrue(ListenPort.free(port), "picked " + port);
      if (start - ListenPort.LOWEST >= 1_000) {
        // below the range the kernel takes outgoing connections' local ports from
        assertTrue(port >= ListenPort.LOWEST && port < start, port + " of [10000, " + start + ")");
      }
    }
  }

  /**
   * What PgBouncer met in CI: a port free when chosen, then the local port of an outgoing
   * connection; a listener cannot bind it while that connection lives, SO_REUSEADDR or not.
   */
  @Test
  void aConnectionsLocalPortIsNotFree() throws Exception {
    URI server = URI.create(TestServer.target().jdbcUrl().substring("jdbc:".length()));
    int port = ListenPort.pick();
    try (Socket s = new Socket()) {
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getPort()));
      assertFalse(ListenPort.free(port));
    }
  }
}
