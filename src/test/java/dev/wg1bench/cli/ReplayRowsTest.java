package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A log whose transactions spread over rows, as pgbench's simple-update script: each updates one
 * account among a few dozen, reads it back and inserts a history row, so most pairs of transactions
 * share no row and some do. The order between sessions then waits only for the transactions that
 * share a row ({@code order.rowOrdered}), and that must lose nothing: each update multiplies the
 * balance before adding, so a row whose updates ran in another order than the capture's ends with
 * another balance. Every outcome, every balance and the history are the capture's, at --speed max
 * and 1, with no wait broken and none let go on a lock cycle.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplayRowsTest {
  private static final int CLIENTS = 4;
  private static final int TRANSACTIONS = 80;
  private static final int ACCOUNTS = 40;

  @TempDir static Path dir;
  private EmbeddedPostgres pg;
  private Path log;
  private List<Long> captured;
  private List<Long> capturedFk;

  @BeforeAll
  void capture() throws Exception {
    Path data = Files.createTempDirectory("wg1bench-rows-");
    pg = CapturingServer.start(data, Map.of());
    CapturingServer.pgbenchApp(pg, "max", "1");
    foreignKeys();
    clients("app");
    clients("fk");
    captured = rows("app");
    capturedFk = rows("fk");
    Path live = CapturingServer.log(data);
    ReplayCaptureTest.awaitLogged(live, 2 * CLIENTS);
    log = Files.copy(live, dir.resolve("rows.csv"));
  }

  @AfterAll
  void stop() throws Exception {
    if (pg != null) {
      pg.close();
    }
  }

  /**
   * A second database, fk, as {@code pgbench -i --foreign-keys} leaves it: each history row
   * references its account, teller and branch, each account its branch. Its history INSERT reads
   * those rows (a foreign key's check) and writes none, so two transactions of other accounts still
   * share no row they write.
   */
  private void foreignKeys() throws SQLException {
    try (Connection c = CapturingServer.connect(pg, "postgres", "wg1bench");
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE fk TEMPLATE app");
    }
    try (Connection c = CapturingServer.connect(pg, "fk", "wg1bench");
        Statement st = c.createStatement()) {
      st.execute("ALTER TABLE pgbench_tellers ADD FOREIGN KEY (bid) REFERENCES pgbench_branches");
      st.execute("ALTER TABLE pgbench_accounts ADD FOREIGN KEY (bid) REFERENCES pgbench_branches");
      st.execute("ALTER TABLE pgbench_history ADD FOREIGN KEY (bid) REFERENCES pgbench_branches");
      st.execute("ALTER TABLE pgbench_history ADD FOREIGN KEY (tid) REFERENCES pgbench_tellers");
      st.execute("ALTER TABLE pgbench_history ADD FOREIGN KEY (aid) REFERENCES pgbench_accounts");
    }
    try (Connection c = CapturingServer.connect(pg, "postgres", "wg1bench");
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE fk_max TEMPLATE fk");
      st.execute("CREATE DATABASE fk_1 TEMPLATE fk");
    }
  }

  private void clients(String db) throws Exception {
    assertEquals(
        List.of(),
        CapturingServer.clients(pg, db, CLIENTS, TRANSACTIONS, ReplayRowsTest::transaction),
        "the clients' own errors");
  }

  /** pgbench's simple-update script, its balance made order-sensitive. */
  private static void transaction(Statement st, Random random) throws SQLException {
    int aid = 1 + random.nextInt(ACCOUNTS);
    int delta = 1 + random.nextInt(100);
    st.execute("BEGIN");
    st.execute(
        "UPDATE pgbench_accounts SET abalance = (abalance * 7 + "
            + delta
            + ") % 1000003 WHERE aid = "
            + aid);
    st.execute("SELECT abalance FROM pgbench_accounts WHERE aid = " + aid);
    st.execute(
        "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, "
            + aid
            + ", "
            + delta
            + ", CURRENT_TIMESTAMP)");
    st.execute("END");
  }

  /** History rows, the sum of deltas, and each account's balance. */
  private List<Long> rows(String db) throws SQLException {
    List<Long> out = new ArrayList<>();
    try (Connection c = CapturingServer.connect(pg, db, "wg1bench");
        Statement st = c.createStatement();
        ResultSet r =
            st.executeQuery(
                "SELECT (SELECT count(*) FROM pgbench_history) UNION ALL"
                    + " SELECT (SELECT coalesce(sum(delta), 0) FROM pgbench_history) UNION ALL"
                    + " (SELECT abalance FROM pgbench_accounts WHERE aid <= "
                    + ACCOUNTS
                    + " ORDER BY aid)")) {
      while (r.next()) {
        out.add(r.getLong(1));
      }
    }
    return out;
  }

  @ParameterizedTest(name = "--speed {0}")
  @ValueSource(strings = {"max", "1"})
  void rowsSharedKeepTheirOrderAndTheRestGoes(String speed) throws Exception {
    replay("app", speed, captured);
  }

  /** The same log on tables with foreign keys: the rows they reference are read, not written. */
  @ParameterizedTest(name = "--speed {0}")
  @ValueSource(strings = {"max", "1"})
  void rowsAForeignKeyReadsDoNotOrderTheirReaders(String speed) throws Exception {
    replay("fk", speed, capturedFk);
  }

  private void replay(String app, String speed, List<Long> captured) throws Exception {
    assertEquals((long) CLIENTS * TRANSACTIONS, captured.get(0), "history rows captured");
    String db = app + "_" + speed;
    Path out = dir.resolve("rows-" + db + ".json");
    Cli r =
        Cli.run(
            "replay",
            log.toString(),
            "--database",
            app,
            "--target",
            "jdbc:postgresql://localhost:" + pg.getPort() + "/" + db + "?user=postgres",
            "--speed",
            speed,
            "--progress",
            "1h",
            "-o",
            out.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode result = Json.MAPPER.readTree(out.toFile());
    JsonNode f = result.get("statementFidelity");
    assertEquals(0, f.get("divergent").asLong(), f.toString());
    assertEquals(f.get("compared").asLong(), f.get("same").asLong(), f.toString());
    assertEquals(captured, rows(db), "history and every balance against the capture's");
    JsonNode order = result.get("order");
    // most statements' waits stop short of other sessions' (3,400 of 1,600 statements' waits on
    // these logs); a rule that let a foreign key's read meet every reader lowers a dozen
    assertTrue(
        order.get("rowOrdered").asLong() >= (long) CLIENTS * TRANSACTIONS,
        "waits lowered to shared rows: " + order);
    assertEquals(0, order.get("broken").size(), "waits broken by the watchdog: " + order);
    assertEquals(0, order.get("lockCycles").asLong(), "waits let go on a lock cycle: " + order);
    assertTrue(r.out.contains("share a row"), r.out);
  }
}
