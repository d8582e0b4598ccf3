package dev.wg1bench.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A loopback port for a server the tool starts itself (PgBouncer): free when chosen, and outside
 * the kernel's ephemeral range wherever there is room below it.
 *
 * <p>Why not {@code new ServerSocket(0)}: that port is an ephemeral one, the range the kernel also
 * hands out as the local port of every outgoing connection. Between its close and PgBouncer's own
 * bind (a container's start, seconds on a busy machine) any connection made on this host may take
 * it, and PgBouncer then stops with "cannot listen on 127.0.0.1:N: bind(): Address already in use".
 * A run of every advise claim in CI, beside three other test JVMs opening connections all the
 * while, lost a claim that way. A port below the range is never a connection's local port; another
 * listener may still take it, so the start that meets a port in use asks for another ({@link
 * PgBouncerTarget}).
 */
final class ListenPort {
  /** The lowest port chosen: above the well-known and most registered services' ports. */
  static final int LOWEST = 10_000;

  /** Where Linux says its ephemeral range starts. */
  private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

  /** How many random ports below the range are tried before falling back to an ephemeral one. */
  private static final int TRIES = 64;

  private ListenPort() {}

  /** A port free on the loopback address now, below the ephemeral range when there is room. */
  static int pick() throws IOException {
    int below = ephemeralStart(readRange());
    if (below - LOWEST >= 1_000) {
      for (int i = 0; i < TRIES; i++) {
        int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
        if (free(port)) {
          return port;
        }
      }
    }
    // no room below the range, or none of it free: the kernel's own choice, as before
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /**
   * The first port of the ephemeral range from the text of {@code ip_local_port_range} ("32768
   * 60999"), or Linux's default start where it cannot be read (another system, a bad line).
   */
  static int ephemeralStart(String range) {
    try {
      int start = Integer.parseInt(range.strip().split("\\s+")[0]);
      return start > 0 && start < 65_536 ? start : DEFAULT_START;
    } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
      return DEFAULT_START;
    }
  }

  /** Linux's default start of the ephemeral range. */
  static final int DEFAULT_START = 32_768;

  private static String readRange() {
    try {
      return Files.readString(RANGE);
    } catch (IOException | SecurityException e) {
      return "";
    }
  }

  /** Whether a listener can bind the port on the loopback address now. */
  static boolean free(int port) {
    try (ServerSocket s = new ServerSocket()) {
      // as PgBouncer binds: SO_REUSEADDR set, so a port whose last connection is in TIME_WAIT
      // counts as free, and one held by a live socket does not
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
