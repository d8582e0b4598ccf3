package dev.wg1bench.server;

import java.io.IOException;
import java.net.Socket;
import java.nio.channels.SocketChannel;

/**
 * pgjdbc's {@code socketFactory} for the benchmark's client connections: sockets of a {@link
 * SocketChannel}, so that a platform thread reads each answer with one blocking read.
 *
 * <p>Why: pgjdbc connects with a timeout (connectTimeout) and reads the server's answer to its SSL
 * request with one (sslResponseTimeout, unless sslmode=disable). A plain {@link Socket} switches to
 * non-blocking mode at its first timed operation and never switches back, so every later read of a
 * platform thread became a read that found nothing, a poll and a second read: at 64 select_only
 * clients the poll alone was 17% of the client's CPU samples. A channel's socket goes back to
 * blocking mode after each timed operation. On a virtual thread both kinds are read through the
 * JDK's poller, so nothing changes there.
 *
 * <p>A channel is closed when a thread blocked on it is interrupted, where a plain socket is not.
 * Nothing interrupts a client in an op but JMH's iteration timeout (30 min): its op then fails as a
 * connection failure and the client reconnects, as after the stall watchdog's abort.
 */
public final class BlockingSocketFactory extends UnconnectedSocketFactory {
  /** pgjdbc instantiates the factory by its class name, with no argument. */
  public BlockingSocketFactory() {}

  @Override
  public Socket createSocket() throws IOException {
    return SocketChannel.open().socket();
  }
}
