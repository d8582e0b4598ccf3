package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import dev.wg1bench.json.Json;
import dev.wg1bench.support.TestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A pgjdbc knob declared once (--fetch-size, on {@code stored(...).pgjdbc(...)}) reaches every
 * client connection, in this JVM and in a forked one, as the server itself sees it: with a fetch
 * size, pgjdbc reads a query's rows through a named portal that stays open, suspended, until its
 * rows are read, and the server lists it in pg_cursors; without one, it reads every row at once and
 * leaves none open.
 */
class DeclaredKnobTest {
  @TempDir Path dir;

  /**
   * Each op opens a query of 100 rows in a transaction, reads one row, and writes down how many of
   * its session's portals the server lists for that query while the rest are unread.
   */
  public static class PortalProbe implements JdbcWorkload {
    static final String TABLE = "declared_knob_probe";

    @Override
    public void setUp(DataSource ds) throws SQLException {
      try (Connection c = ds.getConnection();
          Statement st = c.createStatement()) {
        st.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (open_portals int)");
      }
    }

    @Override
    public void op(Op op) throws SQLException {
      Connection c = op.connection();
      c.setAutoCommit(false);
      try (Statement st = c.createStatement();
          ResultSet rows =
              st.executeQuery("SELECT g AS probe_rows FROM generate_series(1, 100) g");
          PreparedStatement seen =
              c.prepareStatement(
                  "INSERT INTO "
                      + TABLE
                      + " SELECT count(*) FROM pg_cursors WHERE statement LIKE '%AS probe_rows%'"
                      + " AND NOT statement LIKE '%pg_cursors%'")) {
        rows.next();
        seen.executeUpdate();
        c.commit();
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  @ParameterizedTest(name = "--fetch-size {0}, --forks {1}")
  @CsvSource({"10, 0, 1", "10, 1, 1", "0, 1, 0"})
  void theServerSeesTheFetchSizeOnEveryConnection(int fetchSize, int forks, int portals)
      throws Exception {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS " + PortalProbe.TABLE);
    }
    Path json = dir.resolve("r.json");
    List<String> args =
        new ArrayList<>(
            List.of(
                "--workload-class",
                PortalProbe.class.getName(),
                "-c",
                "2",
                "-T",
                "300ms",
                "--warmup",
                "0",
                "--iterations",
                "1",
                "--forks",
                String.valueOf(forks),
                // the simple protocol has no portals: pgjdbc then reads every row whatever the size
                "-M",
                "extended",
                "--target",
                TestServer.url(),
                "-o",
                json.toString()));
    if (fetchSize > 0) {
      args.addAll(List.of("--fetch-size", String.valueOf(fetchSize)));
    }
    Cli r = Cli.run(args.toArray(String[]::new));
    assertEquals(0, r.exit, r.toString());
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement();
        ResultSet seen =
            st.executeQuery(
                "SELECT count(*), min(open_portals), max(open_portals) FROM "
                    + PortalProbe.TABLE)) {
      seen.next();
      assertTrue(seen.getLong(1) > 0, "no op ran: " + r);
      assertEquals(portals, seen.getInt(2), "fewest open portals an op saw");
      assertEquals(portals, seen.getInt(3), "most open portals an op saw");
    }
    JsonNode client = Json.MAPPER.readTree(json.toFile()).get("trials").get(0).get("client");
    assertEquals(fetchSize, client.get("fetchSize").asInt(), client.toString());
  }
}
