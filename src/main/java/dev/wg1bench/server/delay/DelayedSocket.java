package dev.wg1bench.server.delay;

import dev.wg1bench.server.ForwardingSocket;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.nio.channels.SocketChannel;

/**
 * A channel's socket whose input is a {@link DelayLine}; everything else is the channel socket's.
 * The socket timeout is kept here and applied by the line, so the pump's own read of the channel
 * never times out (and the channel socket stays in blocking mode: one read per arrival).
 */
final class DelayedSocket extends ForwardingSocket {
  private final long delayNanos;
  private volatile int timeoutMs;
  private DelayLine in;

  DelayedSocket(long delayNanos) throws IOException {
    super(SocketChannel.open().socket());
    this.delayNanos = delayNanos;
  }

  @Override
  public synchronized InputStream getInputStream() throws IOException {
    if (in == null) {
      in = new DelayLine(inner().getInputStream(), delayNanos, this);
    }
    return in;
  }

  @Override
  public void setSoTimeout(int timeout) throws SocketException {
    if (timeout < 0) {
      throw new IllegalArgumentException("timeout < 0");
    }
    checkOpen();
    timeoutMs = timeout;
  }

  @Override
  public int getSoTimeout() throws SocketException {
    checkOpen();
    return timeoutMs;
  }

  private void checkOpen() throws SocketException {
    if (inner().isClosed()) {
      throw new SocketException("Socket is closed");
    }
  }

  @Override
  public String toString() {
    return "delayed " + inner();
  }
}
