package dev.wg1bench.server;

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
 * A socket that hands every call to another one, for the {@code socketFactory}s that change one
 * thing about a socket (what its input is, what it counts) and keep the rest: a subclass overrides
 * only that. {@code Socket} is a class, not an interface, so the forwarding is written out once
 * here, not in each.
 */
public abstract class ForwardingSocket extends Socket {
  private final Socket s;

  /** Forwards to {@code inner}, unconnected or connected. */
  protected ForwardingSocket(Socket inner) throws IOException {
    super((SocketImpl) null);
    this.s = inner;
  }

  /** The socket every call goes to. */
  protected final Socket inner() {
    return s;
  }

  @Override
  public InputStream getInputStream() throws IOException {
    return s.getInputStream();
  }

  @Override
  public OutputStream getOutputStream() throws IOException {
    return s.getOutputStream();
  }

  @Override
  public void setSoTimeout(int timeout) throws SocketException {
    s.setSoTimeout(timeout);
  }

  @Override
  public int getSoTimeout() throws SocketException {
    return s.getSoTimeout();
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

  /**
   * None: a caller that read or wrote the channel would go round what the subclass changes (pgjdbc
   * never asks).
   */
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
    return s.toString();
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
