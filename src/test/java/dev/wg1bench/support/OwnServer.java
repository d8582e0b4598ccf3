package dev.wg1bench.support;

import dev.wg1bench.load.PgbenchLoader;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.EmbeddedServer;
import dev.wg1bench.server.EmbeddedTarget;
import dev.wg1bench.server.ExternalTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * An embedded server a test owns and may stop, restart or reconfigure (the shared {@link
 * TestServer} must stay up for the other tests). Stopping and starting go through the server's own
 * pg_ctl, in a user namespace when running as root, as zonky runs it.
 */
public final class OwnServer implements AutoCloseable {
  private final EmbeddedServer server;

  private OwnServer(EmbeddedServer server) {
    this.server = server;
  }

  /** A fresh embedded server with the pgbench tables at scale 1. */
  public static OwnServer start(int clients) throws SQLException {
    OwnServer s = new OwnServer(EmbeddedServer.start(EmbeddedTarget.spec(null), clients));
    try (Connection c = s.connect()) {
      PgbenchLoader.init(c, 1, 100, true, null);
    }
    return s;
  }

  public Path data() {
    return server.dataDirectory();
  }

  /** As a --target URL. */
  public String url() {
    return server.target().jdbcUrl() + "?user=postgres";
  }

  /** The same server, database {@code db}, as a --target URL. */
  public String url(String db) {
    return server.target().jdbcUrl().replaceAll("/postgres$", "/" + db) + "?user=postgres";
  }

  public Connection connect() throws SQLException {
    return new ConnectionFactory(server.target(), ClientSettings.defaults()).openPlain();
  }

  public Connection connect(String db) throws SQLException {
    TargetSpec t = server.target();
    TargetSpec other =
        new TargetSpec(
            t.name(),
            ExternalTarget.EXTERNAL,
            t.jdbcUrl().replaceAll("/postgres$", "/" + db),
            t.user(),
            null,
            null);
    return new ConnectionFactory(other, ClientSettings.defaults()).openPlain();
  }

  public void execute(String sql) throws SQLException {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  /** pg_ctl stop -m fast: clients are disconnected, new connections refused. */
  public void stop() throws IOException, InterruptedException {
    pgCtl("stop", "-m", "fast", "-w", "-t", "60");
  }

  /** Starts it again with the options it was started with (postmaster.opts). */
  public void start() throws IOException, InterruptedException {
    pgCtl("start", "-w", "-t", "60", "-l", data().resolve("restart.log").toString(), "-o", opts);
  }

  private String opts;

  /** Reads the start options before a stop, so {@link #start()} can use them. */
  public OwnServer rememberOptions() throws IOException {
    String line = Files.readString(data().resolve("postmaster.opts")).strip();
    // /path/postgres "-D" "/data" "-p" "1234" "-c" "x=y" ... : keep what follows -D DIR
    List<String> args = new ArrayList<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"([^\"]*)\"").matcher(line);
    while (m.find()) {
      args.add(m.group(1));
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).equals("-D")) {
        i++;
        continue;
      }
      b.append(b.length() == 0 ? "" : " ").append('"').append(args.get(i)).append('"');
    }
    opts = b.toString();
    return this;
  }

  private void pgCtl(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    if ("root".equals(System.getProperty("user.name"))) {
      cmd.add("unshare");
      cmd.add("-U");
    }
    cmd.add(binary("pg_ctl").toString());
    cmd.add("-D");
    cmd.add(data().toString());
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!p.waitFor(90, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException("pg_ctl " + String.join(" ", args) + " failed");
    }
  }

  /**
   * zonky extracts the binaries under java.io.tmpdir/embedded-pg/PG-HASH/bin; several majors may be
   * there, so the one of this data directory (PG_VERSION) is chosen.
   */
  private Path binary(String name) throws IOException {
    String major = Files.readString(data().resolve("PG_VERSION")).strip();
    Path root = Path.of(System.getProperty("java.io.tmpdir"), "embedded-pg");
    try (Stream<Path> dirs = Files.list(root)) {
      for (Path d : dirs.toList()) {
        Path bin = d.resolve("bin").resolve(name);
        if (Files.isExecutable(bin) && major.equals(majorOf(bin))) {
          return bin;
        }
      }
    }
    throw new IOException("no " + name + " of PostgreSQL " + major + " under " + root);
  }

  private static String majorOf(Path bin) throws IOException {
    Process p = new ProcessBuilder(bin.toString(), "--version").redirectErrorStream(true).start();
    String v =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\) (\\d+)").matcher(v);
    return m.find() ? m.group(1) : "";
  }

  @Override
  public void close() {
    server.close();
  }
}
