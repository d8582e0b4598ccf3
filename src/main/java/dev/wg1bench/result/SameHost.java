package dev.wg1bench.result;

import dev.wg1bench.plan.TargetSpec;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a target's server runs on the client's machine (embedded, loopback, or one of this host's
 * own addresses): then client and server compete for the same cores, and the client's share of them
 * bounds the result.
 */
public final class SameHost {
  private static final Pattern HOST =
      Pattern.compile("jdbc:postgresql://(\\[[^\\]]*\\]|[^:/?,]*)[^/?]*(?:[/?].*)?");

  private SameHost() {}

  public static boolean of(TargetSpec t) {
    // Asked of the started target, whatever its kind: an embedded server or a local container
    // has a loopback URL by then, a remote server does not.
    if (t.jdbcUrl() == null) {
      return false;
    }
    Matcher m = HOST.matcher(t.jdbcUrl());
    if (!m.matches()) {
      return false;
    }
    String host = m.group(1).replace("[", "").replace("]", "");
    if (host.isEmpty()) {
      // pgjdbc's default host
      return true;
    }
    try {
      InetAddress a = InetAddress.getByName(host);
      return a.isLoopbackAddress()
          || a.isAnyLocalAddress()
          || NetworkInterface.getByInetAddress(a) != null;
    } catch (UnknownHostException | SocketException e) {
      return false;
    }
  }
}
