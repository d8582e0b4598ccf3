package dev.wg1bench.server;

import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.Secret;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A server by URL: {@code jdbc:postgresql://...} or libpq's {@code postgresql://...}. */
public final class ExternalTarget implements Target {
  public static final TargetSpec.Kind EXTERNAL = new TargetSpec.Kind("EXTERNAL");

  private static final Pattern JDBC =
      Pattern.compile("jdbc:postgresql://([^/?]*)(?:/([^?]*))?(?:\\?(.*))?");
  private static final Pattern LIBPQ =
      Pattern.compile(
          "postgres(?:ql)?://(?:([^:@/]*)(?::([^@/]*))?@)?([^/?]*)(?:/([^?]*))?(?:\\?(.*))?");

  /** Anything URL-like; a URL of another database is rejected by {@link #parse}. */
  static final TargetKind KIND =
      new TargetKind(
          EXTERNAL,
          url -> url.startsWith("jdbc:") || url.startsWith("postgres"),
          ExternalTarget::parse,
          ExternalTarget::new,
          Set.of());

  private final TargetSpec spec;

  private ExternalTarget(TargetSpec spec) {
    this.spec = spec;
  }

  /** A server at a password-less {@code jdbc:postgresql://} URL. */
  public static TargetSpec spec(String name, String jdbcUrl, String user) {
    return new TargetSpec(name, EXTERNAL, jdbcUrl, user, null, null);
  }

  @Override
  public TargetSpec spec() {
    return spec;
  }

  private static TargetSpec parse(
      String name, String url, String text, Map<String, String> env, Path passwordFile) {
    UrlParts parts = split(url, text);
    String host = parts.host();
    String db = parts.db();
    String query = parts.query();
    String user = parts.user();
    String password = parts.password();
    if (host == null || host.isBlank()) {
      throw new UsageException("--target '" + TargetSpec.redact(text) + "' has no host");
    }
    if (db == null || db.isBlank()) {
      throw new UsageException("--target '" + TargetSpec.redact(text) + "' has no database name");
    }
    checkPorts(text, host);
    List<String> kept = new ArrayList<>();
    if (query != null && !query.isEmpty()) {
      for (String kv : query.split("&")) {
        int eq = kv.indexOf('=');
        String k = eq < 0 ? kv : kv.substring(0, eq);
        String v = eq < 0 ? "" : decode(kv.substring(eq + 1));
        switch (k.toLowerCase(Locale.ROOT)) {
          case "user" -> user = v;
          case "password" -> password = v;
          default -> {
            DriverKnobs.checkUrlProperty(TargetSpec.redact(text), k, v);
            kept.add(kv);
          }
        }
      }
    }
    if (user == null) {
      user = env.get("PGUSER");
    }
    if (password == null) {
      password = env.get("PGPASSWORD");
    }
    if (password == null && passwordFile != null) {
      password = readPasswordFile(passwordFile, host, db, user);
    }
    String clean =
        "jdbc:postgresql://"
            + host
            + "/"
            + db
            + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
    if (name == null) {
      name = host + "/" + db;
    }
    return new TargetSpec(name, EXTERNAL, clean, user, null, Secret.of(password));
  }

  /** A URL's pieces; user and password only from a libpq URL's {@code USER:PASSWORD@}. */
  private record UrlParts(String host, String db, String query, String user, String password) {}

  /** The URL in either form, or a usage error naming the forms a --target may take. */
  private static UrlParts split(String url, String text) {
    Matcher j = JDBC.matcher(url);
    if (j.matches()) {
      return new UrlParts(j.group(1), j.group(2), j.group(3), null, null);
    }
    Matcher l = LIBPQ.matcher(url);
    if (l.matches()) {
      return new UrlParts(
          l.group(3), l.group(4), l.group(5), decode(l.group(1)), decode(l.group(2)));
    }
    throw new UsageException(
        "--target '"
            + TargetSpec.redact(text)
            + "' is not a PostgreSQL URL; expected [NAME=]jdbc:postgresql://HOST[:PORT]/DB,"
            + " [NAME=]postgresql://USER@HOST[:PORT]/DB, embedded or container:IMAGE");
  }

  /** HOST[:PORT][,HOST[:PORT]...]: a port pgjdbc would reject when connecting is a usage error. */
  private static void checkPorts(String text, String hosts) {
    for (String h : hosts.split(",")) {
      int close = h.lastIndexOf(']');
      int colon = h.lastIndexOf(':');
      if (colon < 0 || colon < close || (close < 0 && h.indexOf(':') != colon)) {
        continue; // no port, or a bare IPv6 address
      }
      String port = h.substring(colon + 1);
      boolean ok = port.matches("\\d{1,5}") && Integer.parseInt(port) >= 1;
      if (!ok || Integer.parseInt(port) > 65535) {
        throw new UsageException(
            "--target '"
                + TargetSpec.redact(text)
                + "': port '"
                + port
                + "' is not valid; expected a number from 1 to 65535");
      }
    }
  }

  private static String decode(String s) {
    return s == null ? null : URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  /**
   * A password file holds either one bare password, or lines in ~/.pgpass format
   * (host:port:db:user:password, {@code *} matching anything).
   */
  static String readPasswordFile(Path file, String hostPort, String db, String user) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException ex) {
      throw new UsageException(
          "--password-file " + file + ": cannot read it (" + ex.getMessage() + ")");
    }
    String host =
        hostPort.contains(":") ? hostPort.substring(0, hostPort.lastIndexOf(':')) : hostPort;
    String port =
        hostPort.contains(":") ? hostPort.substring(hostPort.lastIndexOf(':') + 1) : "5432";
    for (String line : lines) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("(?<!\\\\):", 5);
      if (f.length < 5) {
        return line.strip();
      }
      if (m(f[0], host) && m(f[1], port) && m(f[2], db) && (user == null || m(f[3], user))) {
        return f[4].replace("\\:", ":").replace("\\\\", "\\");
      }
    }
    return null;
  }

  private static boolean m(String pattern, String value) {
    return pattern.equals("*") || pattern.equals(value);
  }
}
