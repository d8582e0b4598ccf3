package dev.wg1bench.server.delay;

import dev.wg1bench.server.UnconnectedSocketFactory;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.Properties;
import org.postgresql.PGProperty;

/**
 * pgjdbc's {@code socketFactory} for --rtt: every socket it makes delays what the server sends by
 * the round-trip time (a {@link DelayLine} on its input). pgjdbc instantiates the class by name for
 * each connection, with the connection's properties; the delay is its {@code socketFactoryArg}, in
 * nanoseconds.
 *
 * <p>Why the whole round trip on the read side, rather than half each way: what the client sees is
 * the same (a reply is readable RTT after its request was sent, a pipelined stream flows with one
 * RTT of latency), and so is what the server sees (the gap between a reply and the next request is
 * the RTT plus the client's time). The only difference, the server seeing every request RTT/2
 * sooner, is invisible to both. A delay on the write side would need a writer thread per socket
 * too, since the driver's write must return at once for its pipelining to work.
 */
public final class DelayedSocketFactory extends UnconnectedSocketFactory {
  private final long delayNanos;

  /** What pgjdbc calls: the connection's properties, the delay in {@code socketFactoryArg}. */
  public DelayedSocketFactory(Properties info) {
    this(delay(info));
  }

  public DelayedSocketFactory(long delayNanos) {
    if (delayNanos < 0) {
      throw new IllegalArgumentException("delay < 0: " + delayNanos);
    }
    this.delayNanos = delayNanos;
  }

  @SuppressWarnings("deprecation")
  private static long delay(Properties info) {
    String arg = PGProperty.SOCKET_FACTORY_ARG.getOrDefault(info);
    if (arg == null) {
      throw new IllegalArgumentException("socketFactoryArg (the delay in nanoseconds) is not set");
    }
    return Long.parseLong(arg.strip());
  }

  /** The property pgjdbc hands this factory: the delay in nanoseconds. */
  @SuppressWarnings("deprecation")
  public static void install(Properties p, Duration rtt) {
    PGProperty.SOCKET_FACTORY.set(p, DelayedSocketFactory.class.getName());
    PGProperty.SOCKET_FACTORY_ARG.set(p, Long.toString(rtt.toNanos()));
  }

  /**
   * Reads the driver's connections of this JVM had to wait on the line (see {@link
   * DelayLine#waits()}): a figure for tests and the record, not part of a result.
   */
  public static long waits() {
    return DelayLine.waits();
  }

  @Override
  public Socket createSocket() throws IOException {
    return new DelayedSocket(delayNanos);
  }
}
