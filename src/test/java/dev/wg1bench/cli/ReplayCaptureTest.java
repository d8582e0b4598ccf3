package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.load.PgbenchLoader;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.replay.capture.Capture;
import dev.wg1bench.replay.capture.CaptureBuilder;
import dev.wg1bench.replay.capture.Selection;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.ExternalTarget;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live capture: an embedded server of its own logs in csvlog and jsonlog with log_statement=all;
 * a real client (pgbench's tpcb-like when pgbench is on PATH, and JDBC sessions with a multi-line
 * statement, bind values and errors) runs on one database; each log is replayed into a copy of that
 * database made before the client ran, and the replay is reconciled with the log and the client.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplayCaptureTest {
  private static final int PGBENCH_CLIENTS = 2;
  private static final int PGBENCH_TX = 25;
  private static final int JDBC_INSERTS = 10;

  @TempDir static Path dir;
  private EmbeddedPostgres pg;
  private Path csv;
  private Path json;

  /** Rows the client added to pgbench_history, by its own count. */
  private long historyRows;

  private boolean pgbenchRan;

  @BeforeAll
  void capture() throws Exception {
    Path data = Files.createTempDirectory("wg1bench-capture-");
    pg =
        CapturingServer.start(
            data,
            Map.of("log_destination", "csvlog,jsonlog", "log_parameter_max_length_on_error", "-1"));
    try (Connection c = admin("postgres");
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE app");
    }
    try (Connection c = admin("app")) {
      PgbenchLoader.init(c, 1, 100, true, null);
    }
    try (Connection c = admin("postgres");
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE app_copy TEMPLATE app");
      st.execute("CREATE DATABASE app_copy2 TEMPLATE app");
    }
    int sessions = 2;
    long pgbenchRows = pgbench();
    if (pgbenchRan) {
      sessions += PGBENCH_CLIENTS;
    }
    historyRows = pgbenchRows + jdbcClient();
    Path csvLive = CapturingServer.log(data);
    Path jsonLive = data.resolve("log").resolve("capture.json");
    awaitLogged(csvLive, sessions);
    awaitLogged(jsonLive, sessions);
    // the capture as it stands now: the replays below are logged by the same server
    csv = Files.copy(csvLive, dir.resolve("capture.csv"));
    json = Files.copy(jsonLive, dir.resolve("capture.json"));
  }

  @AfterAll
  void stop() throws Exception {
    if (pg != null) {
      pg.close();
    }
  }

  /** wg1bench's own admin connections: application_name wg1bench, left out of the replay. */
  private Connection admin(String db) throws SQLException {
    TargetSpec t =
        new TargetSpec(
            "capture",
            ExternalTarget.EXTERNAL,
            "jdbc:postgresql://localhost:" + pg.getPort() + "/" + db,
            "postgres",
            null,
            null);
    return new ConnectionFactory(t, ClientSettings.defaults()).openPlain();
  }

  private String url(String db) {
    return "jdbc:postgresql://localhost:" + pg.getPort() + "/" + db + "?user=postgres";
  }

  /** pgbench -n -c 2 -t 25 on app; its count of transactions, or 0 when pgbench is not here. */
  private long pgbench() throws Exception {
    String pgbench = onPath("pgbench");
    if (pgbench == null) {
      return 0;
    }
    Process p =
        new ProcessBuilder(
                pgbench,
                "-n",
                "-c",
                Integer.toString(PGBENCH_CLIENTS),
                "-t",
                Integer.toString(PGBENCH_TX),
                "-h",
                "localhost",
                "-p",
                Integer.toString(pg.getPort()),
                "-U",
                "postgres",
                "app")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "pgbench did not end");
    assertEquals(0, p.exitValue(), out);
    Matcher m = Pattern.compile("actually processed: (\\d+)").matcher(out);
    assertTrue(m.find(), out);
    pgbenchRan = true;
    return Long.parseLong(m.group(1));
  }

  static String onPath(String tool) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      File f = new File(d, tool);
      if (f.canExecute()) {
        return f.getPath();
      }
    }
    return null;
  }

  /**
   * Two JDBC sessions: simple statements (multi-line, a failed block rolled back), then bind values
   * (a quote, a NULL) and an error in the extended protocol. Returns the history rows it added.
   */
  private long jdbcClient() throws SQLException {
    Properties props = new Properties();
    props.setProperty("ApplicationName", "test-client");
    long rows = 0;
    try (Connection c = DriverManager.getConnection(url("app"), props);
        Statement st = c.createStatement()) {
      st.execute("SELECT count(*)\n  FROM pgbench_accounts\n WHERE aid < 100");
      st.execute("BEGIN");
      st.execute("UPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = 1");
      expectError(() -> st.execute("SELECT * FROM no_such_table"), "42P01");
      st.execute("ROLLBACK");
      rows +=
          st.executeUpdate(
              "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime, filler)"
                  + " VALUES (1, 1, 1, -5, now(), 'it''s')");
    }
    props.setProperty("preferQueryMode", "extended");
    try (Connection c = DriverManager.getConnection(url("app"), props);
        PreparedStatement ins =
            c.prepareStatement(
                "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime, filler)"
                    + " VALUES (?, ?, ?, ?, now(), ?)");
        PreparedStatement div = c.prepareStatement("SELECT 1 / ?")) {
      for (int i = 0; i < JDBC_INSERTS; i++) {
        ins.setInt(1, 1 + i % 10);
        ins.setInt(2, 1);
        ins.setInt(3, 1 + i);
        ins.setInt(4, i - 5);
        ins.setString(5, i % 2 == 0 ? "o'brien" : null);
        rows += ins.executeUpdate();
      }
      div.setInt(1, 0);
      expectError(div::executeQuery, "22012");
    }
    return rows;
  }

  private interface Sql {
    Object run() throws SQLException;
  }

  private static void expectError(Sql s, String state) {
    try {
      s.run();
    } catch (SQLException e) {
      assertEquals(state, e.getSQLState());
      return;
    }
    throw new AssertionError("expected SQLSTATE " + state);
  }

  /** The logging collector writes asynchronously: waits until every client session has ended. */
  static void awaitLogged(Path log, int sessions) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    Capture c = null;
    while (System.nanoTime() < deadline) {
      if (Files.exists(log)) {
        c = new CaptureBuilder(null, null, Selection.all()).read(log).build();
        if (c.sessions().size() >= sessions && c.sessionsWithoutEnd() == 0) {
          return;
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        log
            + " did not show "
            + sessions
            + " ended sessions: "
            + (c == null ? "none" : c.sessions()));
  }

  private long history(String db) throws SQLException {
    try (Connection c = admin(db);
        Statement st = c.createStatement();
        ResultSet r = st.executeQuery("SELECT count(*) FROM pgbench_history")) {
      r.next();
      return r.getLong(1);
    }
  }

  private static JsonNode fidelity(JsonNode result, String what) {
    for (JsonNode f : result.get("fidelity")) {
      if (f.get("what").asText().equals(what)) {
        return f;
      }
    }
    throw new AssertionError("no fidelity line " + what);
  }

  private void assertReconciled(JsonNode r, String db) throws SQLException {
    var states = r.get("errorsBySqlState").fields();
    while (states.hasNext()) {
      var e = states.next();
      assertEquals(
          e.getValue().get("log").asLong(),
          e.getValue().get("replay").asLong(),
          "errors " + e.getKey() + ", log against replay: " + r.get("errorsBySqlState"));
    }
    for (String what : new String[] {"sessions", "statements", "transactions", "errors"}) {
      JsonNode f = fidelity(r, what);
      assertEquals(
          f.get("log").asLong(), f.get("replay").asLong(), what + ": " + r.get("fidelity"));
    }
    assertTrue(fidelity(r, "statements").get("log").asLong() > 10);
    JsonNode errors = r.get("errorsBySqlState");
    for (String state : new String[] {"42P01", "22012"}) {
      assertNotNull(errors.get(state), "errors: " + errors);
      assertEquals(1, errors.get(state).get("log").asLong(), state);
      assertEquals(1, errors.get(state).get("replay").asLong(), state);
    }
    assertEquals(0, r.get("capture").get("skippedLines").asLong(), r.get("capture").toString());
    assertTrue(
        r.get("capture").get("leftOut").get("wg1bench's own sessions").asLong() > 0,
        "the test's own admin sessions are left out: " + r.get("capture").get("leftOut"));
    assertEquals(historyRows, history("app"), "the client's own count against the server's");
    assertEquals(historyRows, history(db), "rows the replay added to pgbench_history");
  }

  @Test
  void csvlogReplaysIntoACopyWithTheClientsCounts() throws Exception {
    Path out = dir.resolve("csv.json");
    Cli r =
        Cli.run(
            "replay",
            csv.toString(),
            "--target",
            url("app_copy"),
            "--speed",
            "max",
            "-o",
            out.toString());
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("fidelity"), r.out);
    JsonNode result = Json.MAPPER.readTree(out.toFile());
    assertEquals("replay", result.get("kind").asText());
    assertTrue(result.get("lag").isNull(), "no schedule at --speed max");
    assertReconciled(result, "app_copy");
    boolean multiLine = false;
    for (JsonNode c : result.get("classes")) {
      multiLine |=
          c.get("text").asText().equals("SELECT count(*) FROM pgbench_accounts WHERE aid < $1");
      if (pgbenchRan && c.get("text").asText().startsWith("UPDATE pgbench_accounts")) {
        assertNotNull(c.get("log").get("meanMs"), "the log's own durations beside the replay's");
      }
    }
    assertTrue(multiLine, "the multi-line statement is one class: " + result.get("classes"));
  }

  @Test
  void jsonlogReplaysThroughAPoolWithPreparedStatements() throws Exception {
    Path out = dir.resolve("json.json");
    Cli r =
        Cli.run(
            "replay",
            json.toString(),
            "--target",
            url("app_copy2"),
            "--speed",
            "1000",
            "--pool-size",
            "2",
            "--query-mode",
            "prepared",
            "-o",
            out.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode result = Json.MAPPER.readTree(out.toFile());
    assertEquals("prepared", result.get("settings").get("queryMode").asText());
    assertEquals("2", result.get("settings").get("poolSize").asText());
    assertFalse(result.get("lag").isNull(), "a schedule was followed, so lag was measured");
    assertReconciled(result, "app_copy2");
  }
}
