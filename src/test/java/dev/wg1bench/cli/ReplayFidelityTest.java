package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.server.EmbeddedServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.postgresql.PGConnection;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.NativeQuery;
import org.postgresql.core.Query;
import org.postgresql.core.QueryExecutor;
import org.postgresql.core.ResultHandlerBase;
import org.postgresql.core.SqlCommand;

/**
 * Replay fidelity, statement by statement, in each way a server logs statements: at their start
 * (log_statement = 'all'), at their end with their duration only (log_min_duration_statement = 0),
 * and both mixed (log_statement = 'mod' with durations). One throwaway server per mode captures
 * scripted sessions whose outcome depends on order (a block rolled back then re-done, a duplicate
 * key after another session's insert, a block left open at disconnection, a savepoint, a temporary
 * table), COPY in both directions, multi-statement strings sent as one Query, and extended-protocol
 * statements with values and an error. Each capture is replayed into copies of the database as it
 * was before the clients ran, at --speed max and 1, -M prepared, through a pool of 1 and of 4,
 * behind --rtt and with --fetch-size (rows read through pgjdbc's cursor inside the log's blocks):
 * every statement's outcome must be the log's, and the final rows the capture's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplayFidelityTest {
  /** The replays of each capture: name and extra options. */
  static final Map<String, List<String>> REPLAYS = new LinkedHashMap<>();

  static {
    REPLAYS.put("max", List.of("--speed", "max"));
    REPLAYS.put("speed1", List.of("--speed", "1"));
    REPLAYS.put("prepared", List.of("--speed", "max", "-M", "prepared"));
    REPLAYS.put("pool1", List.of("--speed", "max", "--pool-size", "1"));
    REPLAYS.put("pool4", List.of("--speed", "max", "--pool-size", "4", "-M", "extended"));
    // the network as a knob: behind the delay line every statement keeps its outcome and pays it
    REPLAYS.put("rtt", List.of("--speed", "max", "--rtt", "5ms"));
    // rows read through a cursor, two at a time, inside the log's blocks
    REPLAYS.put("fetch", List.of("--speed", "max", "-M", "extended", "--fetch-size", "2"));
  }

  @TempDir static Path dir;
  private final Map<String, Mode> modes = new LinkedHashMap<>();

  /** One logging mode's server, its capture and the capture's final rows. */
  private record Mode(EmbeddedPostgres pg, Path log, List<Integer> rows, List<Integer> copied) {}

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (String mode : new String[] {"start", "duration", "mod"}) {
      for (String replay : REPLAYS.keySet()) {
        out.add(Arguments.of(mode, replay));
      }
    }
    return out.stream();
  }

  @BeforeAll
  void capture() throws Exception {
    for (String mode : new String[] {"start", "duration", "mod"}) {
      modes.put(mode, capture(mode));
    }
  }

  @AfterAll
  void stop() throws Exception {
    for (Mode m : modes.values()) {
      m.pg().close();
    }
  }

  private Mode capture(String mode) throws Exception {
    EmbeddedPostgres.Builder b = EmbeddedPostgres.builder();
    EmbeddedServer.STOCK_SETTINGS.forEach(b::setServerConfig);
    Map<String, String> logging = new LinkedHashMap<>();
    logging.put("logging_collector", "on");
    logging.put("log_destination", "csvlog");
    logging.put("log_directory", "log");
    logging.put("log_filename", "capture.log");
    logging.put("log_connections", "on");
    logging.put("log_disconnections", "on");
    logging.put("log_parameter_max_length_on_error", "-1");
    switch (mode) {
      case "start" -> logging.put("log_statement", "all");
      case "duration" -> logging.put("log_min_duration_statement", "0");
      default -> {
        logging.put("log_statement", "mod");
        logging.put("log_min_duration_statement", "0");
      }
    }
    logging.forEach(b::setServerConfig);
    Path data = Files.createTempDirectory("wg1bench-fidelity-" + mode + "-");
    b.setDataDirectory(data).setCleanDataDirectory(true);
    b.setPGStartupWait(java.time.Duration.ofSeconds(60));
    EmbeddedPostgres pg = b.start();
    try (Connection c = connect(pg, "postgres", "wg1bench-setup", "simple");
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE app");
    }
    try (Connection c = connect(pg, "app", "wg1bench-setup", "simple");
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (x int PRIMARY KEY)");
      st.execute("CREATE TABLE t_copy (x int)");
    }
    try (Connection c = connect(pg, "postgres", "wg1bench-setup", "simple");
        Statement st = c.createStatement()) {
      for (String r : REPLAYS.keySet()) {
        st.execute("CREATE DATABASE app_" + r + " TEMPLATE app");
      }
    }
    int sessions = clients(pg);
    Path live = data.resolve("log").resolve("capture.csv");
    // the logging collector writes asynchronously
    ReplayCaptureTest.awaitLogged(live, sessions);
    Path log = Files.copy(live, dir.resolve(mode + ".csv"));
    return new Mode(pg, log, rows(pg, "app", "t"), rows(pg, "app", "t_copy"));
  }

  private static Connection connect(EmbeddedPostgres pg, String db, String app, String mode)
      throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("ApplicationName", app);
    p.setProperty("preferQueryMode", mode);
    return DriverManager.getConnection("jdbc:postgresql://localhost:" + pg.getPort() + "/" + db, p);
  }

  /** The scripted sessions; returns how many client sessions they opened. */
  private int clients(EmbeddedPostgres pg) throws Exception {
    AtomicInteger n = new AtomicInteger();
    // the block re-done after a rollback: its rows only exist in the log's order
    try (Connection a = client(pg, "simple", n)) {
      run(a, "BEGIN", "INSERT INTO t VALUES (10)", "ROLLBACK", "INSERT INTO t VALUES (2)");
      run(a, "BEGIN", "INSERT INTO t VALUES (100)", "INSERT INTO t VALUES (200)", "COMMIT");
    }
    // a duplicate key, only after the session above
    try (Connection b = client(pg, "simple", n)) {
      expect(b, "INSERT INTO t VALUES (2)", "23505");
      run(b, "INSERT INTO t VALUES (3)");
    }
    // a block left open at disconnection while two other sessions run: the server rolls it back
    try (Connection c = client(pg, "simple", n)) {
      run(c, "BEGIN", "INSERT INTO t VALUES (30)");
      try (Connection d = client(pg, "simple", n)) {
        run(d, "INSERT INTO t VALUES (4)");
      }
      try (Connection e = client(pg, "simple", n)) {
        run(e, "BEGIN", "INSERT INTO t VALUES (7)", "COMMIT");
      }
    }
    // a savepoint, an error inside it, a temporary table (session state a pool must keep)
    try (Connection f = client(pg, "simple", n)) {
      run(f, "BEGIN", "INSERT INTO t VALUES (700)", "SAVEPOINT s");
      expect(f, "INSERT INTO t VALUES (700)", "23505");
      run(f, "ROLLBACK TO SAVEPOINT s", "INSERT INTO t VALUES (701)", "COMMIT");
      run(f, "CREATE TEMP TABLE tt (x int)", "INSERT INTO tt VALUES (1)");
      run(f, "INSERT INTO t SELECT x + 800 FROM tt");
      expect(f, "SELECT * FROM no_such_table", "42P01");
    }
    // COPY in both directions: FROM STDIN cannot be replayed, TO STDOUT is
    try (Connection g = client(pg, "simple", n)) {
      var copy = g.unwrap(PGConnection.class).getCopyAPI();
      copy.copyIn(
          "COPY t_copy FROM STDIN",
          new ByteArrayInputStream("50\n51\n".getBytes(StandardCharsets.UTF_8)));
      copy.copyOut("COPY t TO STDOUT", new ByteArrayOutputStream());
      run(g, "INSERT INTO t VALUES (60)");
    }
    // multi-statement strings, each one Query message: an implicit transaction
    try (Connection h = client(pg, "simple", n)) {
      oneQuery(h, "INSERT INTO t VALUES (300); INSERT INTO t VALUES (301)", null);
      oneQuery(h, "begin; insert into t values (400); commit;", null);
      // the error rolls back the whole string: 500 is in no final row
      oneQuery(h, "INSERT INTO t VALUES (500); SELECT 1 / 0", "22012");
    }
    // the extended protocol, values bound, one error at execution
    try (Connection i = client(pg, "extended", n);
        PreparedStatement ins = i.prepareStatement("INSERT INTO t VALUES (?)");
        PreparedStatement div = i.prepareStatement("SELECT 1 / ?")) {
      for (int v : new int[] {600, 601}) {
        ins.setInt(1, v);
        ins.executeUpdate();
      }
      div.setInt(1, 0);
      try {
        div.executeQuery();
        throw new AssertionError("1 / 0 succeeded");
      } catch (SQLException e) {
        assertEquals("22012", e.getSQLState());
      }
    }
    return n.get();
  }

  private static Connection client(EmbeddedPostgres pg, String mode, AtomicInteger n)
      throws SQLException {
    n.incrementAndGet();
    return connect(pg, "app", "test-client", mode);
  }

  private static void run(Connection c, String... sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      for (String s : sql) {
        st.execute(s);
      }
    }
  }

  private static void expect(Connection c, String sql, String state) {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      assertEquals(state, e.getSQLState(), sql);
      return;
    }
    throw new AssertionError(sql + " succeeded, expected " + state);
  }

  /**
   * The whole string in one simple-protocol Query message, as psql sends it: pgjdbc's Statement
   * would split it into one message per statement.
   */
  private static void oneQuery(Connection c, String sql, String state) throws SQLException {
    QueryExecutor qe = c.unwrap(BaseConnection.class).getQueryExecutor();
    Query q = qe.wrap(List.of(new NativeQuery(sql, new int[0], true, SqlCommand.BLANK)));
    ResultHandlerBase h =
        new ResultHandlerBase() {
          @Override
          public void handleWarning(java.sql.SQLWarning w) {}
        };
    String got = null;
    try {
      qe.execute(
          q,
          q.createParameterList(),
          h,
          0,
          0,
          QueryExecutor.QUERY_EXECUTE_AS_SIMPLE | QueryExecutor.QUERY_SUPPRESS_BEGIN);
    } catch (SQLException e) {
      got = e.getSQLState();
    }
    assertEquals(state, got, sql);
  }

  private static List<Integer> rows(EmbeddedPostgres pg, String db, String table)
      throws SQLException {
    List<Integer> out = new ArrayList<>();
    try (Connection c = connect(pg, db, "wg1bench-check", "simple");
        Statement st = c.createStatement();
        ResultSet r = st.executeQuery("SELECT x FROM " + table + " ORDER BY x")) {
      while (r.next()) {
        out.add(r.getInt(1));
      }
    }
    return out;
  }

  @Test
  void theCaptureIsWhatTheClientsDid() {
    for (Mode m : modes.values()) {
      assertEquals(
          List.of(2, 3, 4, 7, 60, 100, 200, 300, 301, 400, 600, 601, 700, 701, 801), m.rows());
      assertEquals(List.of(50, 51), m.copied());
    }
  }

  @ParameterizedTest(name = "{0} log, {1} replay")
  @MethodSource("cases")
  void everyStatementHasTheLogsOutcomeAndTheRowsAreTheCaptures(String mode, String replay)
      throws Exception {
    Mode m = modes.get(mode);
    Path out = dir.resolve(mode + "-" + replay + ".json");
    List<String> args = new ArrayList<>();
    args.add("replay");
    args.add(m.log().toString());
    args.add("--target");
    args.add(
        "jdbc:postgresql://localhost:" + m.pg().getPort() + "/app_" + replay + "?user=postgres");
    args.addAll(REPLAYS.get(replay));
    args.addAll(List.of("--progress", "1h", "-o", out.toString()));
    Cli r = Cli.run(args.toArray(String[]::new));
    JsonNode result = Json.MAPPER.readTree(out.toFile());
    JsonNode f = result.get("statementFidelity");
    assertEquals(0, f.get("divergent").asLong(), r.toString());
    assertEquals(0, r.exit, r.toString());
    assertTrue(f.get("compared").asLong() >= 30, f.toString());
    assertEquals(
        1,
        f.get("skipped").get("COPY FROM STDIN (its data is not in the log)").asLong(),
        f.toString());
    assertEquals(f.get("compared").asLong(), f.get("same").asLong());
    assertEquals(m.rows(), rows(m.pg(), "app_" + replay, "t"), "final rows against the capture's");
    assertEquals(List.of(), rows(m.pg(), "app_" + replay, "t_copy"), "COPY FROM STDIN is not sent");
    JsonNode tx = null;
    for (JsonNode line : result.get("fidelity")) {
      if (line.get("what").asText().equals("transactions")) {
        tx = line;
      }
    }
    assertEquals(
        tx.get("log").asLong(), tx.get("replay").asLong(), result.get("fidelity").toString());
    // the replay's own cost, never hidden: per statement sent, and, the target being on this host,
    // a share of this machine's cores. The JVM reads its CPU in clock ticks (10 ms on Linux), so a
    // replay this short may read 0; the per-statement figure is the total over the statements
    JsonNode cpu = result.get("clientCpu");
    double micros = cpu.get("clientCpuMicrosPerOp").asDouble();
    assertTrue(micros >= 0, cpu.toString());
    double share = cpu.get("clientCpuShare").asDouble();
    assertTrue(share >= 0 && share <= 1, cpu.toString());
    assertTrue(r.out.contains("client CPU = "), r.out);
    JsonNode lead = result.get("order").get("connectLeadMs");
    if (replay.startsWith("pool")) {
      assertTrue(
          result.get("pooling").get("rolledBack").asLong() >= 1,
          "the session that ended inside its block was rolled back: " + result.get("pooling"));
      // a pooled connection is taken when its session is due, never ahead
      assertTrue(lead == null || lead.isNull(), result.get("order").toString());
    } else {
      // its own connection opened ahead of its time, the lead the replay measured (ConnectLead)
      assertTrue(lead.asDouble() > 0 && lead.asDouble() <= 200, result.get("order").toString());
    }
    if (replay.equals("rtt")) {
      assertRoundTripPaid(result, 5.0);
    }
    assertTrue(!r.out.contains("Exception") && !r.err.contains("Exception"), r.toString());
  }

  /**
   * --rtt reached the replayed sessions' connections: the result records it, and no statement
   * class's median is under one round trip (each statement waits for its reply; the histogram's
   * three significant digits allow 0.1% below).
   */
  private static void assertRoundTripPaid(JsonNode result, double rttMs) {
    assertEquals(
        "5ms", result.get("settings").get("rtt").asText(), result.get("settings").toString());
    int timed = 0;
    for (JsonNode c : result.get("classes")) {
      JsonNode lat = c.get("replay");
      if (lat != null && !lat.isNull() && lat.get("count").asLong() > 0) {
        timed++;
        double p50 = lat.get("p50Ms").asDouble();
        assertTrue(p50 >= rttMs * 0.999, c.toString());
      }
    }
    assertTrue(timed > 0, result.get("classes").toString());
  }
}
