package dev.wg1bench.jmh;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.Secret;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How a trial's password reaches its JMH forks without touching the disk: the parent listens on a
 * Unix-domain socket in the trial's owner-only directory and hands the password to each fork that
 * connects, at most once per fork the trial runs. The socket file holds nothing; once the trial
 * ends (or the parent dies, by any signal, SIGKILL included) nobody serves it any more. A
 * properties file with the password in it was left behind by a SIGTERM or SIGKILL mid-run.
 *
 * <p>JMH starts its forks itself and keeps their standard input, so an inherited pipe is not to be
 * had; a socket in a directory only this user can enter is the one-shot channel instead.
 */
final class SecretChannel implements AutoCloseable {
  /** The socket's name in the trial directory. */
  static final String NAME = "secret.sock";

  private static final Map<Path, SecretChannel> OPEN = new ConcurrentHashMap<>();

  private final Path socket;
  private final ServerSocketChannel server;
  private final Thread serving;

  private SecretChannel(Path socket, ServerSocketChannel server, Thread serving) {
    this.socket = socket;
    this.server = server;
    this.serving = serving;
  }

  /**
   * Listens in {@code dir} (created owner-only, as {@link Files#createTempDirectory} does) and
   * serves {@code secret} to at most {@code serves} connections.
   */
  static Path open(Path dir, Secret secret, int serves) {
    Path socket = dir.resolve(NAME);
    try {
      ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      server.bind(UnixDomainSocketAddress.of(socket));
      byte[] clear = secret.reveal().getBytes(StandardCharsets.UTF_8);
      Thread t = new Thread(() -> serve(server, clear, serves), "wg1bench-secret");
      t.setDaemon(true);
      SecretChannel c = new SecretChannel(socket, server, t);
      OPEN.put(socket, c);
      t.start();
      return socket;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the channel for the password in " + dir, e);
    }
  }

  private static void serve(ServerSocketChannel server, byte[] clear, int serves) {
    try (server) {
      for (int i = 0; i < serves; i++) {
        try (SocketChannel c = server.accept()) {
          ByteBuffer b = ByteBuffer.wrap(clear);
          while (b.hasRemaining()) {
            c.write(b);
          }
        }
      }
    } catch (IOException e) {
      // closed at the trial's end (or the fork went away mid-read): nothing more to serve
    } finally {
      Arrays.fill(clear, (byte) 0);
    }
  }

  /** The password from the channel at {@code socket}: the fork's side, once. */
  static Secret fetch(Path socket) {
    try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
      ByteBuffer b = ByteBuffer.allocate(4096);
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      while (c.read(b) >= 0) {
        b.flip();
        all.write(b.array(), 0, b.limit());
        b.clear();
      }
      return Secret.of(all.toString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new RunFailure(
          "could not receive the target's password from wg1bench (" + e.getMessage() + ")", e);
    }
  }

  /** Stops serving the channel in {@code dir}, if one is open there, and removes its socket. */
  static void closeIn(Path dir) {
    SecretChannel c = OPEN.remove(dir.resolve(NAME));
    if (c != null) {
      c.close();
    }
  }

  @Override
  public void close() {
    try {
      server.close();
      serving.join(1_000);
      Files.deleteIfExists(socket);
    } catch (IOException e) {
      // the trial directory is removed next, socket and all
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
