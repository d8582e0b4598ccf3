package dev.wg1bench.server;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.server.delay.DelayedSocketFactory;
import dev.wg1bench.server.wire.WireSocketFactory;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.postgresql.PGProperty;
import org.postgresql.PGStatement;

/**
 * Opens pgjdbc connections to one target with the client settings of a run. Driver knobs are set
 * through {@link PGProperty} constants so a typo fails to compile instead of being ignored.
 */
public final class ConnectionFactory {
  /** Seconds to wait for a TCP connection: an unreachable host fails fast instead of hanging. */
  public static final int CONNECT_TIMEOUT_S = 5;

  /**
   * pgjdbc socketTimeout of client connections outside the benchmark (SSB query runs, experiments)
   * when the user sets none: generous (no sane query waits this long for an answer), but finite, so
   * a server that stops answering without closing the connection fails the query instead of hanging
   * the command. {@code --jdbc-property socketTimeout=N} overrides it (0 = wait forever). Loading
   * and DDL connections keep pgjdbc's default (none).
   */
  public static final int DEFAULT_SOCKET_TIMEOUT_S = 600;

  /**
   * socketTimeout of the benchmark's own client connections when the user sets none: none, as
   * pgjdbc's default. A timeout makes the JDK read every socket in non-blocking mode (a read that
   * finds nothing, a poll, a second read) instead of one blocking read: measurably more client CPU
   * per op. The benchmark's stall watchdog bounds a silent server instead.
   */
  public static final int BENCHMARK_SOCKET_TIMEOUT_S = 0;

  private final TargetSpec target;
  private final ClientSettings settings;
  private final Driver driver = new org.postgresql.Driver();

  /** Names this factory's client connections at their sockets (server.wire), once a factory. */
  private final String wireOwner = "wg1bench-" + OWNERS.incrementAndGet();

  private static final AtomicLong OWNERS = new AtomicLong();

  /** Whose the client connections this factory opens are, to {@code Wire.openPids(owner)}. */
  public String wireOwner() {
    return wireOwner;
  }

  public ConnectionFactory(TargetSpec target, ClientSettings settings) {
    if (target.jdbcUrl() == null) {
      throw new IllegalArgumentException("target " + target.name() + " has no JDBC URL yet");
    }
    this.target = target;
    this.settings = settings;
  }

  public TargetSpec target() {
    return target;
  }

  public ClientSettings settings() {
    return settings;
  }

  /** Driver properties of this target and settings; holds the password, never log it. */
  Properties properties() {
    Properties p = new Properties();
    if (target.user() != null) {
      PGProperty.USER.set(p, target.user());
    }
    if (target.password() != null) {
      PGProperty.PASSWORD.set(p, target.password().reveal());
    }
    PGProperty.APPLICATION_NAME.set(p, "wg1bench");
    PGProperty.CONNECT_TIMEOUT.set(p, CONNECT_TIMEOUT_S);
    PGProperty.LOGIN_TIMEOUT.set(p, CONNECT_TIMEOUT_S * 2);
    PGProperty.PREFER_QUERY_MODE.set(p, settings.queryMode().preferQueryMode());
    PGProperty.PREPARE_THRESHOLD.set(p, settings.prepareThreshold());
    // every knob that declares its pgjdbc property, then --jdbc-property's: one loop, so a new
    // pgjdbc knob is only its declaration (names were checked against PGProperty in the plan)
    settings.driver().pgjdbc().forEach((k, v) -> PGProperty.forName(k).set(p, v));
    return p;
  }

  /** socketTimeout of client connections: the user's, else {@code fallback}. */
  public static int socketTimeoutSeconds(DriverKnobs d, int fallback) {
    String v = d.properties().get(PGProperty.SOCKET_TIMEOUT.getName());
    if (v == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  /** Driver properties of client connections with the socket timeout of their kind. */
  Properties clientProperties(int fallbackTimeoutS) {
    Properties p = properties();
    int timeout = socketTimeoutSeconds(settings.driver(), fallbackTimeoutS);
    PGProperty.SOCKET_TIMEOUT.set(p, timeout);
    if (!settings.driver().rtt().isZero()) {
      // --rtt: the clients' connections read through the delay line (its own reads never time
      // out: it keeps the socket timeout and applies it to the driver's reads)
      DelayedSocketFactory.install(p, settings.driver().rtt());
    } else if (timeout == 0 && PGProperty.SOCKET_FACTORY.getOrDefault(p) == null) {
      // untimed reads: one blocking read per answer, not the non-blocking read, poll and read a
      // plain socket is left with by pgjdbc's timed connect (see BlockingSocketFactory); with a
      // timeout a channel's socket would switch modes around every read instead
      PGProperty.SOCKET_FACTORY.set(p, BlockingSocketFactory.class.getName());
    }
    // last: it counts through whichever factory the lines above chose (see wireNotCounted)
    WireSocketFactory.install(p, target.jdbcUrl());
    p.setProperty(WireSocketFactory.OWNER, wireOwner);
    return p;
  }

  /**
   * Why the clients' connections cannot count their round trips, bytes and statements at their
   * sockets ({@link WireSocketFactory}), in one line; null when they do.
   */
  public String wireNotCounted() {
    if (fromApplicationPool()) {
      return "round trips and bytes not counted: connections come from the application's"
          + " DataSource, whose driver settings are its own";
    }
    return WireSocketFactory.install(new Properties(), target.jdbcUrl());
  }

  /**
   * True when connections come from an application's own pool: one held for the tool's own use
   * (sampling counters) is then taken from the application's clients.
   */
  public boolean fromApplicationPool() {
    return DataSourceTarget.lookup(target) != null;
  }

  /**
   * A raw connection with only the driver properties applied (for DDL, loading, metadata, the
   * window's counters), whose statements are never server-prepared, whatever the run's query mode.
   * Behind a transaction-mode pooler without statement tracking, a statement the tool named S_1 on
   * some server connection (the window's counter query, under -M prepared) stays there, and a
   * client whose own S_1 is a BEGIN then got the tool's row back: pgjdbc threw an
   * IllegalStateException in the middle of the client's op.
   */
  public Connection openPlain() throws SQLException {
    return openPlain(driver);
  }

  /**
   * A connection as {@link #openPlain()}, through a copy of pgjdbc of the tool's own ({@link
   * OwnDriver}): for the tool's reads in the JVM whose clients are measured, so its queries never
   * reshape the JIT's compiled code of the clients' driver.
   */
  public Connection openOwn() throws SQLException {
    return openPlain(OwnDriver.get());
  }

  private Connection openPlain(Driver via) throws SQLException {
    Properties p = properties();
    PGProperty.PREPARE_THRESHOLD.set(p, 0);
    Properties immune = (Properties) p.clone();
    String options = PGProperty.OPTIONS.getOrDefault(p);
    PGProperty.OPTIONS.set(
        immune, (options == null || options.isBlank() ? "" : options + " ") + OWN_OPTIONS);
    try {
      return open(immune, via);
    } catch (SQLException e) {
      if (!String.valueOf(e.getMessage()).contains("unsupported startup parameter")) {
        throw e;
      }
      // a pooler that passes no startup options (PgBouncer without "options" in its
      // ignore_startup_parameters): the tool's own queries then run under the database's timeout
      return open(p, via);
    }
  }

  /**
   * The startup options of the tool's own connections: no statement timeout. A database or role
   * with {@code statement_timeout} set (ALTER DATABASE ... SET statement_timeout = '2ms') otherwise
   * cancelled the tool's reads of the server's version and settings, its set-up, counters and
   * checks ("connecting failed: ERROR: canceling statement due to statement timeout", when the
   * connection had worked). A startup option, not a SET: it holds from the session's first
   * statement, and a SET could itself be cancelled. The clients' connections never get it: they
   * keep the database's setting, which is the user's.
   */
  static final String OWN_OPTIONS = "-c statement_timeout=0";

  private Connection open(Properties props) throws SQLException {
    return open(props, driver);
  }

  private Connection open(Properties props, Driver via) throws SQLException {
    DataSource app = DataSourceTarget.lookup(target);
    if (app != null) {
      // the application's own pool: its driver settings are the application's, not ours
      Connection c = app.getConnection();
      c.setAutoCommit(true);
      return c;
    }
    Connection c = via.connect(target.jdbcUrl(), props);
    if (c == null) {
      throw new SQLException("pgjdbc does not accept the URL " + target.jdbcUrl());
    }
    return c;
  }

  /**
   * A client connection: autocommit, the run's isolation level and session settings, and the
   * bounded {@link #DEFAULT_SOCKET_TIMEOUT_S} unless the user set one.
   */
  public Connection openClient() throws SQLException {
    return openClient(DEFAULT_SOCKET_TIMEOUT_S, false).connection();
  }

  /**
   * A client connection as {@link #openClient()}, where a --set the server rejects (an unknown
   * parameter, a bad value, one that cannot be set now) is the user's mistake: a usage error that
   * names it, exit 2. Any other failure is the SQLException, for the caller to report.
   */
  public Connection openClientCheckingSettings() throws SQLException {
    try {
      return openClient();
    } catch (SQLException e) {
      String state = e.getSQLState() == null ? "" : e.getSQLState();
      // 42xxx: unknown parameter or no permission; 22023: invalid value; 55P02: cannot be
      // changed now (a server-start or reload-only parameter)
      if (state.startsWith("42") || state.equals("22023") || state.equals("55P02")) {
        throw new UsageException("--set: " + oneLine(e));
      }
      throw e;
    }
  }

  /**
   * A client connection of the benchmark: as {@link #openClient()}, with no socket timeout unless
   * the user set one (the benchmark's watchdog bounds a silent server).
   */
  public Connection openBenchmarkClient() throws SQLException {
    return openClient(BENCHMARK_SOCKET_TIMEOUT_S, false).connection();
  }

  /**
   * A client connection and what the tool read of its session: the TLS in use ({@code null} unless
   * {@code probe}) and the values the server took for the session settings.
   */
  public record Opened(Connection connection, String ssl, Map<String, String> settings) {}

  /**
   * As {@link #openBenchmarkClient()}; with {@code probe}, the session's TLS is read too, before
   * the user's settings apply: under the user's statement_timeout or lock_timeout the tool's own
   * query could be cancelled and pass for the user's failure.
   */
  public Opened openBenchmarkClient(boolean probe) throws SQLException {
    return openClient(BENCHMARK_SOCKET_TIMEOUT_S, probe);
  }

  private Opened openClient(int fallbackTimeoutS, boolean probe) throws SQLException {
    Connection c = open(clientProperties(fallbackTimeoutS));
    try {
      if (settings.isolation() != null) {
        c.setTransactionIsolation(settings.isolation().jdbcLevel());
      }
      String ssl = probe ? ServerInfo.sslInUse(c) : null;
      return new Opened(c, ssl, applySettings(c, settings.sessionSettings()));
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /**
   * A HikariCP pool of {@code size} connections set up like {@link #openBenchmarkClient()}: the way
   * an application server shares few connections among many request threads.
   */
  public HikariDataSource pool(int size) {
    return pool(size, hc -> {});
  }

  /** As {@link #pool(int)}, with settings of the caller's own (a replay's eviction rule). */
  public HikariDataSource pool(int size, Consumer<HikariConfig> more) {
    HikariConfig hc = new HikariConfig();
    hc.setPoolName("wg1bench-" + target.name());
    DataSource app = DataSourceTarget.lookup(target);
    if (app != null) {
      hc.setDataSource(app);
    } else {
      hc.setJdbcUrl(target.jdbcUrl());
      hc.setDataSourceProperties(clientProperties(BENCHMARK_SOCKET_TIMEOUT_S));
    }
    hc.setMaximumPoolSize(size);
    hc.setMinimumIdle(size);
    hc.setAutoCommit(true);
    // a client waits for a connection as long as an op may take, rather than failing the op
    hc.setConnectionTimeout(Duration.ofMinutes(5).toMillis());
    hc.setInitializationFailTimeout(CONNECT_TIMEOUT_S * 1000L);
    if (settings.isolation() != null) {
      hc.setTransactionIsolation("TRANSACTION_" + settings.isolation().name());
    }
    if (!settings.sessionSettings().isEmpty()) {
      hc.setConnectionInitSql(initSql(settings.sessionSettings()));
    }
    more.accept(hc);
    return new HikariDataSource(hc);
  }

  /**
   * Applies the session settings to a client connection again: a pooled one reset with DISCARD ALL
   * (which resets every setting) before it serves another session.
   */
  public void applySessionSettings(Connection c) throws SQLException {
    applySettings(c, settings.sessionSettings());
  }

  /** set_config calls as one statement with quoted literals (HikariCP takes SQL text here). */
  static String initSql(Map<String, String> settings) {
    StringBuilder b = new StringBuilder("SELECT ");
    String sep = "";
    for (Map.Entry<String, String> e : settings.entrySet()) {
      b.append(sep)
          .append("set_config(")
          .append(literal(e.getKey()))
          .append(", ")
          .append(literal(e.getValue()))
          .append(", false)");
      sep = ", ";
    }
    return b.toString();
  }

  private static String literal(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  /**
   * The tool's own statements on a client's session are never server-prepared, whatever the run's
   * query mode: under {@code -M prepared} (prepareThreshold 1) pgjdbc names them S_1, S_2...; a
   * transaction-mode pooler without statement tracking hands the next client the same server
   * connection, whose own first statement is S_1 too: "prepared statement S_1 already exists"
   * (42P05) failed clients' set-up on some runs and not others, by which server connection each
   * client's first statement met.
   */
  public static <T extends Statement> T unnamed(T st) throws SQLException {
    if (st.isWrapperFor(PGStatement.class)) {
      st.unwrap(PGStatement.class).setPrepareThreshold(0);
    }
    return st;
  }

  /**
   * Applies the session settings in one statement and returns the values the server took (what
   * set_config returns, as current_setting would read them). One statement, because a setting such
   * as statement_timeout takes effect from the next statement on: a second statement of the tool's,
   * to read the values back, would already run under the user's timeout.
   */
  static Map<String, String> applySettings(Connection c, Map<String, String> settings)
      throws SQLException {
    Map<String, String> applied = new LinkedHashMap<>();
    if (settings.isEmpty()) {
      return applied;
    }
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < settings.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append("set_config(?, ?, false)");
    }
    try (PreparedStatement ps = unnamed(c.prepareStatement(sql.toString()))) {
      int i = 1;
      for (Map.Entry<String, String> e : settings.entrySet()) {
        ps.setString(i++, e.getKey());
        ps.setString(i++, e.getValue());
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        int col = 1;
        for (String name : settings.keySet()) {
          applied.put(name, rs.getString(col++));
        }
      }
    }
    return applied;
  }

  /** Connection errors as one line naming the target, for the console. */
  public RunFailure failure(String doing, SQLException e) {
    return new RunFailure(
        "target "
            + target.name()
            + " ("
            + target.jdbcUrl()
            + "): "
            + doing
            + " failed: "
            + oneLine(e)
            + cause(e));
  }

  /** What pgjdbc's generic "The connection attempt failed." leaves out. */
  private static String cause(SQLException e) {
    Throwable c = e.getCause();
    if (c instanceof UnknownHostException) {
      return " (unknown host " + c.getMessage() + ")";
    }
    if (c instanceof SocketTimeoutException) {
      return " (timed out)";
    }
    return "";
  }

  public static String oneLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
