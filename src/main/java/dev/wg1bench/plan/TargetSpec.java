package dev.wg1bench.plan;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a run goes: an external server by JDBC URL, or the embedded server. The URL kept here has
 * no password in it; the password, when there is one, is a {@link Secret} that never serializes.
 *
 * @param name label shown in reports ({@code NAME=URL}, or derived from host/port/db)
 * @param kind external or embedded
 * @param jdbcUrl {@code jdbc:postgresql://...} without password (null for embedded)
 * @param user role name, or null to let pgjdbc use its default
 * @param embeddedVersion PostgreSQL major version wanted for an embedded target, or null for the
 *     bundled one
 */
public record TargetSpec(
    String name,
    Kind kind,
    String jdbcUrl,
    String user,
    String embeddedVersion,
    @JsonIgnore Secret password) {

  public enum Kind {
    EXTERNAL,
    EMBEDDED,
    /**
     * An application's own javax.sql.DataSource, by its id in {@code DataSources} (in-process runs
     * only).
     */
    DATASOURCE
  }

  /** A DataSource registered under {@code id}; its URL is whatever the DataSource connects to. */
  public static TargetSpec dataSource(String name, String id) {
    return new TargetSpec(name, Kind.DATASOURCE, "datasource:" + id, null, null, null);
  }

  private static final Pattern NAMED = Pattern.compile("([A-Za-z0-9_.\\-]+)=(.*)", Pattern.DOTALL);
  private static final Pattern LIBPQ =
      Pattern.compile(
          "postgres(?:ql)?://(?:([^:@/]*)(?::([^@/]*))?@)?([^/?]*)(?:/([^?]*))?(?:\\?(.*))?");
  private static final Pattern EMBEDDED = Pattern.compile("embedded(?::(\\d+))?");

  public static TargetSpec embedded(String version) {
    String name = version == null ? "embedded" : "embedded:" + version;
    return new TargetSpec(name, Kind.EMBEDDED, null, "postgres", version, null);
  }

  public TargetSpec withPassword(Secret pw) {
    return new TargetSpec(name, kind, jdbcUrl, user, embeddedVersion, pw);
  }

  /**
   * Parses {@code --target} text: {@code [NAME=]URL} where URL is {@code jdbc:postgresql://...},
   * {@code postgresql://user:pw@host:port/db} or {@code embedded[:MAJOR]}. Credentials come from
   * the URL, else PGUSER/PGPASSWORD, else the password file.
   */
  public static TargetSpec parse(String text, Map<String, String> env, Path passwordFile) {
    String name = null;
    String url = text.trim();
    if (!looksLikeUrl(url)) {
      Matcher n = NAMED.matcher(url);
      if (n.matches()) {
        name = n.group(1);
        url = n.group(2).trim();
      }
    }
    Matcher e = EMBEDDED.matcher(url);
    if (e.matches()) {
      TargetSpec t = embedded(e.group(1));
      return name == null ? t : new TargetSpec(name, t.kind, null, t.user, t.embeddedVersion, null);
    }
    String host;
    String port;
    String db;
    String query;
    String user = null;
    String password = null;
    Matcher j = Pattern.compile("jdbc:postgresql://([^/?]*)(?:/([^?]*))?(?:\\?(.*))?").matcher(url);
    Matcher l = LIBPQ.matcher(url);
    if (j.matches()) {
      host = j.group(1);
      db = j.group(2);
      query = j.group(3);
    } else if (l.matches()) {
      user = decode(l.group(1));
      password = decode(l.group(2));
      host = l.group(3);
      db = l.group(4);
      query = l.group(5);
    } else {
      throw new UsageException(
          "--target '"
              + redact(text)
              + "' is not a PostgreSQL URL; expected [NAME=]jdbc:postgresql://HOST[:PORT]/DB,"
              + " [NAME=]postgresql://USER@HOST[:PORT]/DB or embedded");
    }
    if (host == null || host.isBlank()) {
      throw new UsageException("--target '" + redact(text) + "' has no host");
    }
    if (db == null || db.isBlank()) {
      throw new UsageException("--target '" + redact(text) + "' has no database name");
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
          default -> kept.add(kv);
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
    return new TargetSpec(name, Kind.EXTERNAL, clean, user, null, Secret.of(password));
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
                + redact(text)
                + "': port '"
                + port
                + "' is not valid; expected a number from 1 to 65535");
      }
    }
  }

  private static boolean looksLikeUrl(String s) {
    return s.startsWith("jdbc:") || s.startsWith("postgres") || EMBEDDED.matcher(s).matches();
  }

  private static String decode(String s) {
    return s == null ? null : URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  /** Removes anything that could be a password from text echoed in an error message. */
  public static String redact(String text) {
    return text.replaceAll("(?i)(password=)[^&]*", "$1****")
        .replaceAll("(://[^:/@]*:)[^@/]*@", "$1****@");
  }

  /**
   * A password file holds either one bare password, or lines in ~/.pgpass format
   * (host:port:db:user:password, {@code *} matching anything).
   */
  static String readPasswordFile(Path file, String hostPort, String db, String user) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (java.io.IOException ex) {
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

  @Override
  public String toString() {
    return name + (jdbcUrl == null ? "" : " (" + jdbcUrl + ")");
  }
}
