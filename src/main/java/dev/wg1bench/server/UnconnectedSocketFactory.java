package dev.wg1bench.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/**
 * A {@code socketFactory} for pgjdbc whose one real method is {@link #createSocket()}: pgjdbc asks
 * for an unconnected socket and connects it itself. The rest of {@link SocketFactory}'s contract is
 * that socket, bound and connected here, so each factory writes only what its sockets are.
 */
public abstract class UnconnectedSocketFactory extends SocketFactory {
  @Override
  public abstract Socket createSocket() throws IOException;

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return createSocket(InetAddress.getByName(host), port);
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
      throws IOException {
    return createSocket(InetAddress.getByName(host), port, localHost, localPort);
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return open(new InetSocketAddress(host, port), null);
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    return open(
        new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
  }

  /** A socket connected to {@code to}, bound first to {@code local} unless that is null. */
  private Socket open(InetSocketAddress to, InetSocketAddress local) throws IOException {
    Socket s = createSocket();
    if (local != null) {
      s.bind(local);
    }
    s.connect(to);
    return s;
  }
}
