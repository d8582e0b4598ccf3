package dev.wg1bench.server.wire;

import dev.wg1bench.server.UnconnectedSocketFactory;
import java.io.IOException;
import java.net.Socket;
import java.util.Properties;
import javax.net.SocketFactory;
import org.postgresql.Driver;
import org.postgresql.PGProperty;
import org.postgresql.util.ObjectFactory;

/**
 * pgjdbc's {@code socketFactory} that counts what each connection carries ({@link WireCounts},
 * found through {@link Wire#of}), around the factory the connection would have used without it: the
 * --rtt delay line, the blocking channel sockets, a user's own {@code socketFactory}, or the JDK's
 * default. {@link #install} moves that factory's name to {@link #INNER}; its {@code
 * socketFactoryArg} stays where it was, and it is made as pgjdbc makes one (its constructor taking
 * the connection's properties, else its argument, else none), so it cannot tell the difference.
 */
public final class WireSocketFactory extends UnconnectedSocketFactory {
  /** The connection property naming the factory whose sockets are counted. */
  public static final String INNER = "wg1bench.wire.innerSocketFactory";

  /**
   * The connection property naming whose connections these are ({@link WireCounts#owner}): the
   * factory of one run's clients, so a window samples that run's sessions only, never another run's
   * in the same JVM (--forks 0, parallel tests) or a connection a run left to the collector.
   */
  public static final String OWNER = "wg1bench.wire.owner";

  private final SocketFactory inner;
  private final String owner;

  /** What pgjdbc calls, with the connection's properties. */
  @SuppressWarnings("deprecation")
  public WireSocketFactory(Properties info) throws Exception {
    this.owner = info.getProperty(OWNER);
    String name = info.getProperty(INNER);
    this.inner =
        name == null
            ? SocketFactory.getDefault()
            : ObjectFactory.instantiate(
                SocketFactory.class,
                name,
                info,
                true,
                PGProperty.SOCKET_FACTORY_ARG.getOrDefault(info));
  }

  /**
   * Makes {@code p}'s connections count their sockets, around the factory {@code p} names (after
   * any other setting of {@code socketFactory}: the delay line's first). Returns null, or where it
   * cannot, one line saying why: a {@code socketFactory} in {@code jdbcUrl} itself wins over every
   * property, so the counting factory would never be asked (pass it as a property instead).
   */
  public static String install(Properties p, String jdbcUrl) {
    Properties fromUrl = jdbcUrl == null ? null : Driver.parseURL(jdbcUrl, null);
    if (fromUrl != null && fromUrl.getProperty(PGProperty.SOCKET_FACTORY.getName()) != null) {
      return "round trips and bytes not counted: the JDBC URL sets socketFactory, which pgjdbc"
          + " lets no property replace; pass it with --jdbc-property socketFactory=... instead";
    }
    String current = PGProperty.SOCKET_FACTORY.getOrDefault(p);
    if (WireSocketFactory.class.getName().equals(current)) {
      return null;
    }
    if (current == null) {
      p.remove(INNER);
    } else {
      p.setProperty(INNER, current);
    }
    PGProperty.SOCKET_FACTORY.set(p, WireSocketFactory.class.getName());
    return null;
  }

  @Override
  public Socket createSocket() throws IOException {
    return new CountingSocket(inner.createSocket(), owner);
  }
}
