package dev.wg1bench.server.delay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The line on a bare socket, against a local peer the test drives: nothing is readable before its
 * time, bytes keep their order, and the end of the stream, a reset and a read timeout reach the
 * reader as they would through a plain socket.
 */
class DelayLineTest {
  static final long DELAY = TimeUnit.MILLISECONDS.toNanos(50);

  /** A connected pair: the delayed client socket and the peer's end. */
  private record Pair(Socket client, Socket peer, ServerSocket server) implements AutoCloseable {
    @Override
    public void close() throws IOException {
      client.close();
      peer.close();
      server.close();
    }
  }

  private static Pair pair(Socket client) throws IOException {
    ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
    return new Pair(client, server.accept(), server);
  }

  private static Pair delayed() throws IOException {
    return pair(new DelayedSocketFactory(DELAY).createSocket());
  }

  @Test
  void nothingIsReadableBeforeItsTimeAndOrderIsKept() throws Exception {
    try (Pair p = delayed()) {
      InputStream in = p.client().getInputStream();
      OutputStream out = p.peer().getOutputStream();
      byte[] sent = new byte[300_000];
      for (int i = 0; i < sent.length; i++) {
        sent[i] = (byte) (i * 31 + i / 256);
      }
      long written = System.nanoTime();
      CompletableFuture<Void> writer =
          CompletableFuture.runAsync(
              () -> {
                try {
                  out.write(sent, 0, 1);
                  out.write(sent, 1, sent.length - 1);
                  out.flush();
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      assertEquals(0, in.available(), "nothing readable at once");
      int first = in.read();
      assertTrue(System.nanoTime() - written >= DELAY, "the first byte waited the delay");
      assertEquals(sent[0] & 0xff, first);
      byte[] got = in.readNBytes(sent.length - 1);
      writer.get(1, TimeUnit.MINUTES);
      assertArrayEquals(java.util.Arrays.copyOfRange(sent, 1, sent.length), got);
    }
  }

  @Test
  void endOfStreamComesAfterTheBytesBeforeIt() throws Exception {
    try (Pair p = delayed()) {
      long written = System.nanoTime();
      p.peer().getOutputStream().write(new byte[] {1, 2, 3});
      p.peer().close();
      InputStream in = p.client().getInputStream();
      assertArrayEquals(new byte[] {1, 2, 3}, in.readNBytes(3));
      assertEquals(-1, in.read(), "EOF as a plain socket reads it");
      assertTrue(System.nanoTime() - written >= DELAY);
    }
  }

  /** A reset is the plain socket's exception, of the same class, after the bytes before it. */
  @Test
  void aResetFailsTheReadAsOnAPlainSocket() throws Exception {
    Class<? extends IOException> plain = resetSeenBy(new Socket());
    Class<? extends IOException> line = resetSeenBy(new DelayedSocketFactory(DELAY).createSocket());
    assertEquals(plain, line);
  }

  private static Class<? extends IOException> resetSeenBy(Socket client) throws Exception {
    try (Pair p = pair(client)) {
      InputStream in = p.client().getInputStream();
      // data the client never reads, then a close: the peer's kernel answers with a reset
      p.client().getOutputStream().write(new byte[] {9});
      p.peer().getOutputStream().write(new byte[] {7});
      p.peer().setSoLinger(true, 0);
      p.peer().close();
      IOException e = assertThrows(IOException.class, () -> drain(in));
      return e.getClass();
    }
  }

  private static void drain(InputStream in) throws IOException {
    while (in.read() >= 0) {
      // the byte before the reset, if it was read before the reset arrived
    }
    throw new java.io.EOFException("end of stream instead of a reset");
  }

  @Test
  void aReadTimeoutLeavesTheBytesForTheNextRead() throws Exception {
    try (Pair p = delayed()) {
      p.client().setSoTimeout(1);
      InputStream in = p.client().getInputStream();
      p.peer().getOutputStream().write(42);
      assertThrows(SocketTimeoutException.class, in::read);
      p.client().setSoTimeout(0);
      assertEquals(42, in.read());
    }
  }

  @Test
  void aClosedSocketFailsTheRead() throws Exception {
    try (Pair p = delayed()) {
      InputStream in = p.client().getInputStream();
      p.client().close();
      assertThrows(java.net.SocketException.class, in::read);
    }
  }
}
