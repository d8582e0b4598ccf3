package dev.wg1bench.server;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * {@code --via pgbouncer:MODE[,NAME=VALUE...]}: a PgBouncer container in front of another target.
 * Clients (and so every measured op) go through it; admin work (loading, CHECKPOINT, sampling) goes
 * to the server directly, as an application's migrations usually do. PgBouncer runs with its own
 * defaults except what it needs to listen here and to accept pgjdbc, and what the option names; the
 * settings it actually ran with are read back from its admin console ({@code SHOW CONFIG}) and
 * recorded.
 *
 * <p>The container shares the host's network, so it reaches any target the run reaches (a container
 * target's published port, the embedded server, a local server) at the same address: Linux engines
 * only.
 */
public final class PgBouncerTarget implements Target {
  /**
   * Debian trixie's pgbouncer package (1.24): built by ci/images.sh without a registry, else from
   * the Dockerfile in the jar the first time it is needed.
   */
  public static final String IMAGE = "wg1bench/pgbouncer:trixie";

  private static final Pattern VIA =
      Pattern.compile("pgbouncer:(session|transaction|statement)((?:,[a-z_]+=[^,]*)*)");

  /** Set here because the container could not work otherwise; not for --via to change. */
  private static final List<String> OURS =
      List.of(
          "listen_addr",
          "listen_port",
          "auth_type",
          "auth_file",
          "auth_hba_file",
          "admin_users",
          "logfile",
          "pidfile",
          "unix_socket_dir");

  /** Settings the result records, as PgBouncer's SHOW CONFIG reports them. */
  private static final List<String> RECORDED =
      List.of(
          "pool_mode",
          "default_pool_size",
          "max_client_conn",
          "max_db_connections",
          "max_prepared_statements",
          "server_reset_query",
          "ignore_startup_parameters");

  private static final Pattern JDBC =
      Pattern.compile("jdbc:postgresql://([^/?:,]+)(?::(\\d+))?/([^?]*)(\\?.*)?");

  private final TargetSpec wanted;
  private final Target server;
  private GenericContainer<?> container;
  private TargetSpec started;
  private final IntSupplier ports;
  private int listen;
  private String consoleUser;

  /** How long {@link #beforeClients} waits for the tool's sessions to leave PgBouncer. */
  private static final long SETTLE_MS = 10_000;

  PgBouncerTarget(TargetSpec wanted, Target server) {
    this(wanted, server, PgBouncerTarget::freePort);
  }

  /** With the ports to listen on given: a test hands it one already taken first. */
  PgBouncerTarget(TargetSpec wanted, Target server, IntSupplier ports) {
    this.wanted = wanted;
    this.server = server;
    this.ports = ports;
  }

  /** The {@code --via} text if it is valid, else a usage error naming what is. */
  public static String checkVia(String text) {
    Matcher m = VIA.matcher(text.trim());
    if (!m.matches()) {
      throw new UsageException(
          "--via '"
              + text
              + "' is not a pooler; expected pgbouncer:session, pgbouncer:transaction or"
              + " pgbouncer:statement, optionally followed by ,NAME=VALUE pgbouncer.ini settings");
    }
    Map<String, String> given = settings(text.trim());
    given.remove("pool_mode");
    for (String key : given.keySet()) {
      if (OURS.contains(key) || key.equals("pool_mode")) {
        throw new UsageException(
            "--via '" + text + "': " + key + " is set by wg1bench (the pool mode is after ':')");
      }
    }
    return text.trim();
  }

  private static Map<String, String> settings(String via) {
    Matcher m = VIA.matcher(via);
    m.matches();
    Map<String, String> out = new LinkedHashMap<>();
    out.put("pool_mode", m.group(1));
    for (String kv : m.group(2).split(",")) {
      if (!kv.isEmpty()) {
        out.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
      }
    }
    return out;
  }

  @Override
  public TargetSpec spec() {
    return started != null ? started : wanted;
  }

  @Override
  public boolean fresh() {
    return server.fresh();
  }

  @Override
  public void validate(RunPlan plan) {
    server.validate(plan);
  }

  /** Admin work bypasses the pooler. */
  @Override
  public ConnectionFactory admin() {
    return server.admin();
  }

  @Override
  public void start(int connections, PrintStream out) {
    String via = wanted.provided().via();
    String who = "target " + wanted.name() + " via " + via;
    // before the server: a missing engine or image fails without starting anything
    Containers.requireEngine(who);
    Containers.requireBuilt(IMAGE, "pgbouncer", List.of("Dockerfile", "entrypoint.sh"), who, out);
    server.start(connections, out);
    TargetSpec direct = server.spec();
    Matcher url = JDBC.matcher(direct.jdbcUrl() == null ? "" : direct.jdbcUrl());
    if (!url.matches()) {
      throw new UsageException(
          "--via: target " + wanted.name() + " has no single host:port PgBouncer can connect to");
    }
    String host = url.group(1).equals("localhost") ? "127.0.0.1" : url.group(1);
    String port = url.group(2) == null ? "5432" : url.group(2);
    String db = url.group(3);
    String params = url.group(4) == null ? "" : url.group(4);
    String user = direct.user() != null ? direct.user() : System.getProperty("user.name");
    String password = direct.password() == null ? null : direct.password().reveal();
    long t0 = System.nanoTime();
    GenericContainer<?> c = startOnAFreePort(who, host, port, connections, via, user, password);
    container = c;
    Runtime.getRuntime().addShutdownHook(new Thread(c::stop, "wg1bench-pgbouncer-stop"));
    String clientUrl = "jdbc:postgresql://127.0.0.1:" + listen + "/" + db + params;
    consoleUser = user;
    Map<String, String> info = readBack(listen, user);
    started =
        direct
            .at(clientUrl, user, direct.password())
            .withProvision(
                direct
                    .provided()
                    .withVia(via)
                    .withPooler(info)
                    .withServer(direct.jdbcUrl())
                    .withServerSettings(direct.provided().serverSettings()));
    out.printf(
        "target %s: PgBouncer %s in front (%s) in %.1f s at %s%n",
        wanted.name(),
        info.getOrDefault("version", "?"),
        describe(info),
        (System.nanoTime() - t0) / 1e9,
        clientUrl);
  }

  /**
   * The container on a port of {@link #ports}, {@link #listen} set to it: another port when another
   * listener took the one chosen before PgBouncer bound it, {@link #PORT_ATTEMPTS} in all.
   */
  private GenericContainer<?> startOnAFreePort(
      String who,
      String host,
      String port,
      int connections,
      String via,
      String user,
      String password) {
    String userlist = quote(user) + " " + quote(password == null ? "" : password) + "\n";
    String hba =
        "host pgbouncer "
            + user
            + " 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 "
            + (password == null ? "trust" : "scram-sha-256")
            + "\n";
    for (int attempt = 1; ; attempt++) {
      listen = ports.getAsInt();
      String conf = conf(host, port, ini(connections, via, user));
      try {
        return startContainer(who, conf, userlist, hba);
      } catch (PortTaken e) {
        if (attempt == PORT_ATTEMPTS) {
          throw new RunFailure(e.getMessage(), e);
        }
      }
    }
  }

  /** The [pgbouncer] section: the tool's settings first, then the user's from --via. */
  private Map<String, String> ini(int connections, String via, String user) {
    Map<String, String> ini = new LinkedHashMap<>();
    ini.put("listen_addr", "127.0.0.1");
    ini.put("listen_port", Integer.toString(listen));
    ini.put("unix_socket_dir", "");
    // clients as the server would authenticate them; the admin console (read back below) by trust,
    // from this host only
    ini.put("auth_type", "hba");
    ini.put("auth_hba_file", "/etc/pgbouncer/hba.conf");
    ini.put("auth_file", "/etc/pgbouncer/userlist.txt");
    ini.put("admin_users", user);
    // the stock 100 would refuse clients of a larger run before they measure anything
    ini.put("max_client_conn", Integer.toString(Math.max(100, connections + 10)));
    // pgjdbc sends extra_float_digits at start-up, which PgBouncer refuses unless told to ignore it
    // (its documentation's advice for JDBC)
    ini.put("ignore_startup_parameters", "extra_float_digits");
    ini.putAll(settings(via));
    return ini;
  }

  /** pgbouncer.ini: every database forwarded to the server's host and port. */
  private static String conf(String host, String port, Map<String, String> ini) {
    StringBuilder conf =
        new StringBuilder("[databases]\n* = host=" + host + " port=" + port + "\n[pgbouncer]\n");
    ini.forEach((k, v) -> conf.append(k).append(" = ").append(v).append('\n'));
    return conf.toString();
  }

  /**
   * The container started with the three files, ready at PgBouncer's "process up"; one that does
   * not come up is stopped, and PgBouncer's own line (its FATAL, else its last) is the failure's
   * reason; a port another listener took first is {@link PortTaken}.
   */
  private static GenericContainer<?> startContainer(
      String who, String conf, String userlist, String hba) {
    ContainerStartLog log =
        new ContainerStartLog(Pattern.compile("process up"), Pattern.compile(" FATAL "));
    @SuppressWarnings("resource") // closed in close()
    GenericContainer<?> c =
        new GenericContainer<>(DockerImageName.parse(IMAGE))
            .withNetworkMode("host")
            .withCopyToContainer(Transferable.of(conf), "/etc/pgbouncer/pgbouncer.ini")
            .withCopyToContainer(Transferable.of(userlist, 0644), "/etc/pgbouncer/userlist.txt")
            .withCopyToContainer(Transferable.of(hba), "/etc/pgbouncer/hba.conf")
            .withLogConsumer(log)
            .waitingFor(log)
            .withStartupTimeout(Duration.ofSeconds(60));
    try {
      c.start();
    } catch (RuntimeException e) {
      c.stop();
      String inUse = lineWith(log.lines(), "Address already in use");
      if (inUse != null) {
        throw new PortTaken(who + ": PgBouncer did not start: " + inUse, e);
      }
      String why = log.failure();
      throw new RunFailure(
          who
              + ": PgBouncer did not start: "
              + (why != null ? why : ConnectionFactory.oneLine(Containers.rootCause(e))),
          e);
    }
    return c;
  }

  /**
   * PgBouncer counts a client against {@code max_client_conn} from its accept until its event loop
   * has freed it: client.c compares {@code get_active_client_count()}, every client object held,
   * with the limit when a startup packet arrives. Waits, under a deadline, until that figure (SHOW
   * LISTS' used_clients) is the console's own session alone, so that the tool's sessions that
   * prepared the trial (data, checks) no longer take the clients' places. SHOW CLIENTS, which this
   * waited on before, does not list a client being freed. A console refused for {@code
   * max_client_conn} is waited out the same way.
   */
  @Override
  public void beforeClients(PrintStream out) {
    if (container == null) {
      return;
    }
    long deadline = System.nanoTime() + SETTLE_MS * 1_000_000;
    long used = -1;
    while (true) {
      try {
        used = usedClients();
        if (used <= 1) {
          return;
        }
      } catch (IOException e) {
        // the console's own connection counts against max_client_conn too: refused while the
        // tool's sessions are still counted, it is the wait's reason, not a broken pooler
        if (!String.valueOf(e.getMessage()).contains("no more connections allowed")) {
          // the clients' own connects will say what is wrong
          return;
        }
      }
      if (System.nanoTime() > deadline) {
        // the clients meet the pooler as it is, and any refusal is counted; said, so that a
        // refusal the user's limit should have admitted is not a mystery
        out.println(
            "target "
                + wanted.name()
                + ": after "
                + SETTLE_MS / 1000
                + " s PgBouncer still "
                + (used > 1
                    ? "counted " + (used - 1) + " client session(s) besides its console's"
                    : "refused its console (max_client_conn)")
                + "; the clients connect now");
        return;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** SHOW LISTS' used_clients: the client objects PgBouncer counts, this console's included. */
  private long usedClients() throws IOException {
    for (List<String> row : PgBouncerConsole.query(listen, consoleUser, "SHOW LISTS")) {
      if (row.size() > 1 && "used_clients".equals(row.get(0))) {
        return Long.parseLong(row.get(1));
      }
    }
    throw new IOException("SHOW LISTS has no used_clients row");
  }

  private static String describe(Map<String, String> info) {
    StringBuilder b = new StringBuilder();
    for (String k : RECORDED) {
      if (info.containsKey(k)) {
        b.append(b.length() == 0 ? "" : ", ").append(k).append('=').append(info.get(k));
      }
    }
    return b.toString();
  }

  /**
   * Version and effective settings, from PgBouncer's admin console. Tried again for a few seconds:
   * on a loaded machine the console's first answer after "process up" was once an error
   * ("incomplete pkt") and the next one was fine.
   */
  private static Map<String, String> readBack(int port, String user) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (true) {
      try {
        return readBackOnce(port, user);
      } catch (RunFailure e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RunFailure("interrupted while PgBouncer started", e);
      }
    }
  }

  private static Map<String, String> readBackOnce(int port, String user) {
    Map<String, String> out = new LinkedHashMap<>();
    try {
      List<List<String>> version = PgBouncerConsole.query(port, user, "SHOW VERSION");
      out.put("version", version.get(0).get(0).replaceFirst("(?i)^pgbouncer\\s*", ""));
      Map<String, String> all = new LinkedHashMap<>();
      for (List<String> row : PgBouncerConsole.query(port, user, "SHOW CONFIG")) {
        all.put(row.get(0).toLowerCase(Locale.ROOT), row.get(1));
      }
      for (String k : RECORDED) {
        if (all.containsKey(k)) {
          out.put(k, all.get(k));
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new RunFailure(
          "PgBouncer's admin console did not answer: " + ConnectionFactory.oneLine(e), e);
    }
    return out;
  }

  private static String quote(String s) {
    return '"' + s.replace("\"", "\"\"") + '"';
  }

  private static int freePort() {
    try {
      return ListenPort.pick();
    } catch (IOException e) {
      throw new RunFailure("no free local port for PgBouncer: " + e.getMessage(), e);
    }
  }

  /** Starts tried, each on a port of its own, when the port chosen was taken before the bind. */
  static final int PORT_ATTEMPTS = 3;

  /** The first of the lines that holds {@code text}, stripped, or null. */
  private static String lineWith(List<String> lines, String text) {
    for (String line : lines) {
      if (line.contains(text)) {
        return line.strip();
      }
    }
    return null;
  }

  /** PgBouncer could not bind its port: another listener took it after it was chosen. */
  private static final class PortTaken extends RuntimeException {
    PortTaken(String message, Throwable cause) {
      super(message, cause);
    }
  }

  @Override
  public void close() {
    try {
      if (container != null) {
        container.stop();
        container = null;
      }
    } finally {
      server.close();
    }
  }
}
