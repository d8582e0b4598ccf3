package dev.wg1bench.cli;

import static dev.wg1bench.replay.capture.HandMadeLogs.csv;
import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A log whose client read its transactions' ids and pasted them into later statements, as
 * PostgreSQL's own xid test does with psql's {@code \gset}: the capture's ids are a million ahead
 * of the replay's server, so sent as logged they would be "in the future" (22023). The replay reads
 * its own id of each such transaction and sends the statements with it: every outcome is the log's,
 * and the statuses the statements wrote are those of the replay's own committed, rolled back and
 * running transactions, whichever lines of the log showed the ids and however the values went.
 */
class ReplayPastedIdsTest {
  @TempDir Path dir;

  private static final String TABLE = "pasted_xid_seen";

  @BeforeEach
  void table() throws SQLException {
    try (Connection c = TestServer.connect();
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + TABLE);
      s.execute("CREATE TABLE " + TABLE + " (what text, status text)");
    }
  }

  @AfterEach
  void dropTable() throws SQLException {
    try (Connection c = TestServer.connect();
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + TABLE);
    }
  }

  @ParameterizedTest(name = "-M {0}, durations logged: {1}")
  @CsvSource({"simple,false", "prepared,false", "simple,true", "prepared,true"})
  void theReplaysOwnIdsGoWhereTheCapturesWerePasted(String mode, boolean durations)
      throws Exception {
    long c = currentXid() + 1_000_000;
    try (Connection conn = TestServer.connect();
        Statement s = conn.createStatement()) {
      SQLException e =
          assertThrows(
              SQLException.class, () -> s.execute("SELECT pg_xact_status('" + c + "'::xid8)"));
      assertEquals("22023", e.getSQLState(), "the capture's id is ahead of this server");
    }
    JsonNode p = replayed(session(c, durations), mode);
    assertEquals(3, p.path("ids").asInt(), p.toString());
    assertEquals(3, p.path("read").asLong(), p.toString());
    assertEquals(4, p.path("statementsTranslated").asLong(), p.toString());
    assertEquals(0, p.path("tempSchemaStatements").asLong(), p.toString());
    assertEquals(0, p.path("statementsAsLogged").asLong(), p.toString());
    assertEquals(
        List.of(
            "committed=committed",
            "rolledback=aborted",
            "inprogress=in progress",
            "txid=committed"),
        seen());
  }

  /**
   * A session that names its own temporary schema by the number it had in the capture (as
   * create_index's {@code REINDEX SCHEMA CONCURRENTLY :temp_schema_name} does): a number this
   * server gives no session here, so sent as logged the schema would not exist (3F000).
   */
  @ParameterizedTest(name = "-M {0}")
  @ValueSource(strings = {"simple", "prepared"})
  void aSessionsTemporarySchemaIsItsOwnInTheReplay(String mode) throws Exception {
    String schema = "pg_temp_" + 99_999;
    String session =
        log("1.a", "00.000", "connection authorized: user=alice database=app")
            + log("1.a", "00.010", "statement: CREATE TEMP TABLE pasted_tmp (a int)")
            + log("1.a", "00.020", "statement: INSERT INTO " + schema + ".pasted_tmp VALUES (1)")
            + log(
                "1.a",
                "00.030",
                "statement: INSERT INTO "
                    + TABLE
                    + " SELECT 'temp', count(*)::text FROM "
                    + schema
                    + ".pasted_tmp")
            + log("1.a", "00.040", "disconnection: session time: 0:00:00.040");
    JsonNode p = replayed(session, mode);
    assertEquals(2, p.path("tempSchemaStatements").asLong(), p.toString());
    assertEquals(0, p.path("ids").asInt(), p.toString());
    assertEquals(0, p.path("statementsAsLogged").asLong(), p.toString());
    assertEquals(List.of("temp=1"), seen());
  }

  /**
   * The log replayed at --speed max under {@code mode}: it exits 0 with no statement diverged;
   * returns the result's {@code statementFidelity.pastedIds}.
   */
  private JsonNode replayed(String log, String mode) throws Exception {
    Path csv = Files.writeString(dir.resolve("log.csv"), log);
    Path out = dir.resolve("r.json");
    Cli r =
        Cli.run(
            "replay",
            csv.toString(),
            "--target",
            TestServer.url(),
            "-M",
            mode,
            "--speed",
            "max",
            "-o",
            out.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode f = Json.MAPPER.readTree(out.toFile()).path("statementFidelity");
    assertEquals(0, f.path("divergent").asLong(), f.toString());
    return f.path("pastedIds");
  }

  /**
   * One session: a committed, a rolled back and a running transaction, each reading its id, then
   * their statuses asked with the capture's ids written in (the last as a bound value).
   */
  private static String session(long c, boolean durations) {
    Lines l = new Lines(durations);
    l.add("statement: BEGIN", 0, 0);
    l.add("statement: SELECT pg_current_xact_id() AS committed", 0, c);
    l.add("statement: COMMIT", c, 0);
    l.add("statement: BEGIN", 0, 0);
    l.add("statement: SELECT pg_current_xact_id() AS rolledback", 0, c + 1);
    l.add("statement: ROLLBACK", c + 1, 0);
    l.add("statement: BEGIN", 0, 0);
    l.add("statement: SELECT pg_current_xact_id() AS inprogress", 0, c + 2);
    for (String[] w :
        new String[][] {{"committed", "" + c}, {"rolledback", "" + (c + 1)}, {"inprogress", ""}}) {
      String id = w[1].isEmpty() ? "" + (c + 2) : w[1];
      l.add(
          "statement: INSERT INTO "
              + TABLE
              + " SELECT '"
              + w[0]
              + "', pg_xact_status("
              + id
              + "::text::xid8)",
          c + 2,
          c + 2);
    }
    l.values(
        "execute <unnamed>: INSERT INTO " + TABLE + " SELECT 'txid', txid_status($1)",
        "parameters: $1 = '" + c + "'",
        c + 2);
    l.add("statement: COMMIT", c + 2, 0);
    return log("1.a", "00.000", "connection authorized: user=alice database=app")
        + l.b
        + log("1.a", "00.900", "disconnection: session time: 0:00:00.900");
  }

  /** A session's lines every 10 ms, with their durations (and the ids they show) when asked. */
  private static final class Lines {
    final StringBuilder b = new StringBuilder();
    final boolean durations;
    int ms = 10;

    Lines(boolean durations) {
      this.durations = durations;
    }

    /** A statement whose start shows {@code atStart} and whose end, when logged, {@code atEnd}. */
    void add(String message, long atStart, long atEnd) {
      b.append(log("1.a", at(), message, atStart));
      end(atEnd);
    }

    void values(String message, String detail, long xid) {
      b.append(
          csv(at(), "1.a", "LOG", "00000", message, detail, null, "psql", "client backend", xid));
      end(xid);
    }

    private void end(long xid) {
      if (durations) {
        b.append(log("1.a", at(), "duration: 0.100 ms", xid));
      }
    }

    private String at() {
      ms += 10;
      return String.format("00.%03d", ms);
    }
  }

  private static List<String> seen() throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = TestServer.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT what, status FROM " + TABLE + " ORDER BY ctid")) {
      while (rs.next()) {
        out.add(rs.getString(1) + "=" + rs.getString(2));
      }
    }
    return out;
  }

  private static long currentXid() throws SQLException {
    try (Connection c = TestServer.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT txid_current()")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
