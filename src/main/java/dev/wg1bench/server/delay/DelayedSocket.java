package dev.wg1bench.server.delay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketImpl;
import java.net.SocketOption;
import java.nio.channels.SocketChannel;
import java.util.Set;

/**
 * A channel's socket whose input is a {@link DelayLine}; everything else is the channel socket's.
 * The socket timeout is kept here and applied by the line, so the pump's own read of the channel
 * never times out (and the channel socket stays in blocking mode: one read per arrival).
 */
final class DelayedSocket extends Socket {
  private final Socket s;
  private final long delayNanos;
  private volatile int timeoutMs;
  private DelayLine in;

  DelayedSocket(long delayNanos) throws IOException {
    super((SocketImpl) null);
    this.s = SocketChannel.open().socket();
    this.delayNanos = delayNanos;
  }

  @Override
  public synchronized InputStream getInputStream() throws IOException {
    if (in == null) {
      in = new DelayLine(s.getInputStream(), delayNanos, this);
    }
    return in;
  }

  @Override
  public OutputStream getOutputStream() throws IOException {
    return s.getOutputStream();
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
    if (s.isClosed()) {
      throw new SocketException("Socket is closed");
    }
  }

  @Override
  public void connect(SocketAddress endpoint) throws IOException {
    s.connect(endpoint);
  }

  @Override
  public void connect(SocketAddress endpoint, int timeout) throws IOException {
    s.connect(endpoint, timeout);
  }

  @Override
  public void bind(SocketAddress bindpoint) throws IOException {
    s.bind(bindpoint);
  }

  @Override
  public InetAddress getInetAddress() {
    return s.getInetAddress();
  }

  @Override
  public InetAddress getLocalAddress() {
    return s.getLocalAddress();
  }

  @Override
  public int getPort() {
    return s.getPort();
  }

  @Override
  public int getLocalPort() {
    return s.getLocalPort();
  }

  @Override
  public SocketAddress getRemoteSocketAddress() {
    return s.getRemoteSocketAddress();
  }

  @Override
  public SocketAddress getLocalSocketAddress() {
    return s.getLocalSocketAddress();
  }

  /** None: the line is what reads the channel, a caller must read through the line. */
  @Override
  public SocketChannel getChannel() {
    return null;
  }

  @Override
  public void setTcpNoDelay(boolean on) throws SocketException {
    s.setTcpNoDelay(on);
  }

  @Override
  public boolean getTcpNoDelay() throws SocketException {
    return s.getTcpNoDelay();
  }

  @Override
  public void setSoLinger(boolean on, int linger) throws SocketException {
    s.setSoLinger(on, linger);
  }

  @Override
  public int getSoLinger() throws SocketException {
    return s.getSoLinger();
  }

  @Override
  public void sendUrgentData(int data) throws IOException {
    s.sendUrgentData(data);
  }

  @Override
  public void setOOBInline(boolean on) throws SocketException {
    s.setOOBInline(on);
  }

  @Override
  public boolean getOOBInline() throws SocketException {
    return s.getOOBInline();
  }

  @Override
  public void setSendBufferSize(int size) throws SocketException {
    s.setSendBufferSize(size);
  }

  @Override
  public int getSendBufferSize() throws SocketException {
    return s.getSendBufferSize();
  }

  @Override
  public void setReceiveBufferSize(int size) throws SocketException {
    s.setReceiveBufferSize(size);
  }

  @Override
  public int getReceiveBufferSize() throws SocketException {
    return s.getReceiveBufferSize();
  }

  @Override
  public void setKeepAlive(boolean on) throws SocketException {
    s.setKeepAlive(on);
  }

  @Override
  public boolean getKeepAlive() throws SocketException {
    return s.getKeepAlive();
  }

  @Override
  public void setTrafficClass(int tc) throws SocketException {
    s.setTrafficClass(tc);
  }

  @Override
  public int getTrafficClass() throws SocketException {
    return s.getTrafficClass();
  }

  @Override
  public void setReuseAddress(boolean on) throws SocketException {
    s.setReuseAddress(on);
  }

  @Override
  public boolean getReuseAddress() throws SocketException {
    return s.getReuseAddress();
  }

  @Override
  public void close() throws IOException {
    s.close();
  }

  @Override
  public void shutdownInput() throws IOException {
    s.shutdownInput();
  }

  @Override
  public void shutdownOutput() throws IOException {
    s.shutdownOutput();
  }

  @Override
  public String toString() {
    return "delayed " + s;
  }

  @Override
  public boolean isConnected() {
    return s.isConnected();
  }

  @Override
  public boolean isBound() {
    return s.isBound();
  }

  @Override
  public boolean isClosed() {
    return s.isClosed();
  }

  @Override
  public boolean isInputShutdown() {
    return s.isInputShutdown();
  }

  @Override
  public boolean isOutputShutdown() {
    return s.isOutputShutdown();
  }

  @Override
  public void setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
    s.setPerformancePreferences(connectionTime, latency, bandwidth);
  }

  @Override
  public <T> Socket setOption(SocketOption<T> name, T value) throws IOException {
    s.setOption(name, value);
    return this;
  }

  @Override
  public <T> T getOption(SocketOption<T> name) throws IOException {
    return s.getOption(name);
  }

  @Override
  public Set<SocketOption<?>> supportedOptions() {
    return s.supportedOptions();
  }
}
