package dev.wg1bench.cli;

import static dev.wg1bench.replay.capture.HandMadeLogs.csv;
import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which of a replayed session's texts become named statements on the server, read from the
 * session's own {@code pg_prepared_statements} by its last statement: under {@code -M prepared} the
 * texts the log shows it sending more than once (a plain statement's anew at each send, as pgjdbc
 * does: it caches only a PreparedStatement's) and none it sends once; with {@code
 * --prepare-threshold 1} given, pgjdbc's own rule for every text.
 */
class ReplayPreparedNamesTest {
  @TempDir Path dir;

  private static final String TABLE = "prepared_seen";

  @BeforeEach
  void table() throws SQLException {
    sql("DROP TABLE IF EXISTS " + TABLE, "CREATE TABLE " + TABLE + " (statement text)");
  }

  @AfterEach
  void dropTable() throws SQLException {
    sql("DROP TABLE IF EXISTS " + TABLE);
  }

  @Test
  void underThePreparedModeOnlyTheTextsThatRecurAreNamed() throws Exception {
    replay("-M", "prepared");
    assertEquals(List.of("SELECT $1::int", "SELECT 1", "SELECT 1", "SELECT 1"), seen());
  }

  @Test
  void aThresholdTheUserGivesNamesEveryText() throws Exception {
    replay("-M", "prepared", "--prepare-threshold", "1");
    assertEquals(
        List.of(
            "INSERT INTO " + TABLE + " SELECT statement FROM pg_prepared_statements",
            "SELECT $1::int",
            "SELECT $1::int + 1",
            "SELECT 1",
            "SELECT 1",
            "SELECT 1",
            "SELECT 2",
            "SELECT 3"),
        seen());
  }

  @Test
  void theExtendedModeNamesNone() throws Exception {
    replay("-M", "extended");
    assertEquals(List.of(), seen());
  }

  /**
   * A text sent again after a setting that decides how it parses: each send is parsed under the
   * session's settings of its moment, so the second fails as in the log (a named statement bound
   * again would keep the first parse and run).
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"simple", "extended", "prepared"})
  void aTextSentAgainParsesUnderTheSettingsOfItsMoment(String mode) throws Exception {
    String text = "SELECT U&'d\\0061t' AS x";
    String log =
        log("1.a", "00.000", "connection authorized: user=alice database=app")
            + log("1.a", "00.010", "statement: " + text)
            + log("1.a", "00.020", "statement: SET standard_conforming_strings = off")
            + log("1.a", "00.030", "statement: " + text)
            + csv(
                "00.031",
                "1.a",
                "ERROR",
                "0A000",
                "unsafe use of string constant with Unicode escapes",
                null,
                text,
                "psql",
                "client backend")
            + log("1.a", "00.900", "disconnection: session time: 0:00:00.900");
    JsonNode f = replayed(log, "-M", mode);
    assertEquals(3, f.path("same").asLong(), f.toString());
  }

  /** One session: two texts sent three and two times, three sent once, then the names read. */
  private void replay(String... options) throws Exception {
    StringBuilder b = new StringBuilder();
    b.append(log("1.a", "00.000", "connection authorized: user=alice database=app"));
    int ms = 0;
    for (String text : new String[] {"SELECT 1", "SELECT 2", "SELECT 1", "SELECT 3", "SELECT 1"}) {
      b.append(log("1.a", String.format("00.%03d", ms += 10), "statement: " + text));
    }
    for (String[] v : new String[][] {{"", "1"}, {" + 1", "2"}, {"", "3"}}) {
      b.append(
          csv(
              String.format("00.%03d", ms += 10),
              "1.a",
              "LOG",
              "00000",
              "execute <unnamed>: SELECT $1::int" + v[0],
              "parameters: $1 = '" + v[1] + "'",
              null,
              "psql",
              "client backend"));
    }
    b.append(
        log(
            "1.a",
            String.format("00.%03d", ms += 10),
            "statement: INSERT INTO " + TABLE + " SELECT statement FROM pg_prepared_statements"));
    b.append(log("1.a", "00.900", "disconnection: session time: 0:00:00.900"));
    JsonNode f = replayed(b.toString(), options);
    assertEquals(9, f.path("same").asLong(), f.toString());
  }

  /** The log replayed at --speed max: exit 0, nothing diverged; its statementFidelity. */
  private JsonNode replayed(String log, String... options) throws Exception {
    Path csv = Files.writeString(dir.resolve("log.csv"), log);
    Path out = dir.resolve("r.json");
    List<String> args =
        new ArrayList<>(
            List.of("replay", csv.toString(), "--target", TestServer.url(), "--speed", "max"));
    args.addAll(List.of(options));
    args.addAll(List.of("-o", out.toString()));
    Cli r = Cli.run(args.toArray(String[]::new));
    assertEquals(0, r.exit, r.toString());
    JsonNode f = Json.MAPPER.readTree(out.toFile()).path("statementFidelity");
    assertEquals(0, f.path("divergent").asLong(), f.toString());
    return f;
  }

  private static List<String> seen() throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = TestServer.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT statement FROM " + TABLE + " ORDER BY statement COLLATE \"C\"")) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  private static void sql(String... statements) throws SQLException {
    try (Connection c = TestServer.connect();
        Statement s = c.createStatement()) {
      for (String x : statements) {
        s.execute(x);
      }
    }
  }
}
