package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * --fetch-size, a pgjdbc knob declared once, reaches a replay's connections as the server sees it:
 * a query inside a block the log's BEGIN opened is read through a named portal (pgjdbc opens its
 * cursor inside a transaction block, whether autocommit is off or the block was begun by a
 * statement), and the query writes down how many named portals its session has open while it runs.
 * Without the option, and outside a block, there are none.
 */
class ReplayFetchSizeTest {
  @TempDir Path dir;

  private static final String TABLE = "replay_fetch_portals";

  private static String line(int n, String message) {
    return "2024-05-01 12:00:00."
        + (100 + n)
        + " UTC,\"alice\",\"app\",1,,1.a,"
        + n
        + ",,,,0,LOG,00000,\""
        + message.replace("\"", "\"\"")
        + "\",,,,,,,,,\"psql\",\"client backend\",,0\n";
  }

  private static String probe(String where) {
    return "statement: WITH seen AS (INSERT INTO "
        + TABLE
        + " SELECT '"
        + where
        + "', count(*) FILTER (WHERE name <> '') FROM pg_cursors RETURNING 1)"
        + " SELECT g FROM generate_series(1, 10) g";
  }

  @ParameterizedTest(name = "options [{0}]")
  @CsvSource({"'--fetch-size,3', 1", "'', 0"})
  void aQueryInsideTheLogsBlockIsReadThroughACursor(String options, int inBlock) throws Exception {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS " + TABLE);
      st.execute("CREATE TABLE " + TABLE + " (at text, named_portals int)");
    }
    Path log =
        Files.writeString(
            dir.resolve("fetch.csv"),
            line(1, probe("outside"))
                + line(2, "statement: BEGIN")
                + line(3, probe("inside"))
                + line(4, "statement: COMMIT")
                + line(5, probe("after")));
    List<String> args =
        new ArrayList<>(
            List.of(
                "replay",
                log.toString(),
                "--target",
                TestServer.url(),
                "-M",
                "extended",
                "--speed",
                "max",
                "-o",
                dir.resolve("r.json").toString()));
    if (options != null && !options.isEmpty()) {
      args.addAll(List.of(options.split(",")));
    }
    Cli r = Cli.run(args.toArray(String[]::new));
    assertEquals(0, r.exit, r.toString());
    assertEquals(List.of("outside 0", "inside " + inBlock, "after 0"), seen());
  }

  private static List<String> seen() throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement();
        ResultSet r =
            st.executeQuery("SELECT at, named_portals FROM " + TABLE + " ORDER BY ctid")) {
      while (r.next()) {
        out.add(r.getString(1) + " " + r.getInt(2));
      }
    }
    return out;
  }
}
