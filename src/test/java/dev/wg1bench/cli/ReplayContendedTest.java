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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A contended OLTP log: clients running pgbench's TPC-B-like transaction at once on a scale-1
 * database, so every transaction updates the one branch row and statements queue on its lock, as in
 * most applications' hot rows. The replay's order between sessions must not stall on a lock cycle
 * the capture did not have: at --speed max and 1, every statement has the log's outcome, the final
 * rows (history rows, the deltas, every balance) are the capture's, no wait is broken by the
 * watchdog, and no wait is let go on a lock cycle (the capture's server has fsync on, as the
 * embedded one's stock settings, so commits hold their locks through a WAL flush).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplayContendedTest {
  private static final int CLIENTS = 4;
  private static final int TRANSACTIONS = 60;

  @TempDir static Path dir;
  private EmbeddedPostgres pg;
  private Path log;
  private List<Long> captured;

  @BeforeAll
  void capture() throws Exception {
    Path data = Files.createTempDirectory("wg1bench-contended-");
    pg = CapturingServer.start(data, Map.of());
    CapturingServer.pgbenchApp(pg, "max", "1", "virtual");
    clients();
    captured = rows("app");
    Path live = CapturingServer.log(data);
    // the logging collector writes asynchronously
    ReplayCaptureTest.awaitLogged(live, CLIENTS);
    log = Files.copy(live, dir.resolve("contended.csv"));
  }

  @AfterAll
  void stop() throws Exception {
    if (pg != null) {
      pg.close();
    }
  }

  /** The clients, started together: each runs its transactions back to back, literals inline. */
  private void clients() throws Exception {
    assertEquals(
        List.of(),
        CapturingServer.clients(pg, "app", CLIENTS, TRANSACTIONS, ReplayContendedTest::transaction),
        "the clients' own errors");
  }

  /** pgbench's tpcb-like script, as pgbench sends it with -M simple. */
  private static void transaction(Statement st, Random random) throws SQLException {
    int aid = 1 + random.nextInt(100_000);
    int tid = 1 + random.nextInt(10);
    int delta = random.nextInt(10_001) - 5_000;
    st.execute("BEGIN");
    st.execute(
        "UPDATE pgbench_accounts SET abalance = abalance + " + delta + " WHERE aid = " + aid);
    st.execute("SELECT abalance FROM pgbench_accounts WHERE aid = " + aid);
    st.execute("UPDATE pgbench_tellers SET tbalance = tbalance + " + delta + " WHERE tid = " + tid);
    st.execute("UPDATE pgbench_branches SET bbalance = bbalance + " + delta + " WHERE bid = 1");
    st.execute(
        "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ("
            + tid
            + ", 1, "
            + aid
            + ", "
            + delta
            + ", CURRENT_TIMESTAMP)");
    st.execute("END");
  }

  private Connection connect(String db, String app) throws SQLException {
    return CapturingServer.connect(pg, db, app);
  }

  /** What the transactions leave: history rows, the sum of deltas, each table's balances. */
  private List<Long> rows(String db) throws SQLException {
    List<Long> out = new ArrayList<>();
    try (Connection c = connect(db, "wg1bench");
        Statement st = c.createStatement();
        ResultSet r =
            st.executeQuery(
                "SELECT (SELECT count(*) FROM pgbench_history),"
                    + " (SELECT coalesce(sum(delta), 0) FROM pgbench_history),"
                    + " (SELECT sum(abalance) FROM pgbench_accounts),"
                    + " (SELECT sum(tbalance) FROM pgbench_tellers),"
                    + " (SELECT sum(bbalance) FROM pgbench_branches)")) {
      r.next();
      for (int i = 1; i <= 5; i++) {
        out.add(r.getLong(i));
      }
    }
    return out;
  }

  @Test
  void theCaptureIsWhatTheClientsDid() {
    long tx = (long) CLIENTS * TRANSACTIONS;
    assertEquals(tx, captured.get(0), "history rows");
    long deltas = captured.get(1);
    assertEquals(List.of(tx, deltas, deltas, deltas, deltas), captured);
  }

  @ParameterizedTest(name = "--speed {0}")
  @ValueSource(strings = {"max", "1"})
  void theReplayKeepsEveryOutcomeAndTheRowsAndBreaksNoWait(String speed) throws Exception {
    replay(speed, "--speed", speed);
  }

  /**
   * Replays the log into database app_NAME with these options and checks what a replay guarantees;
   * returns the result.
   */
  JsonNode replay(String name, String... options) throws Exception {
    String db = "app_" + name;
    Path out = dir.resolve("contended-" + name + ".json");
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            "replay",
            log.toString(),
            "--database",
            "app",
            "--target",
            "jdbc:postgresql://localhost:" + pg.getPort() + "/" + db + "?user=postgres"));
    args.addAll(List.of(options));
    args.addAll(List.of("--progress", "1h", "-o", out.toString()));
    Cli r = Cli.run(args.toArray(String[]::new));
    assertEquals(0, r.exit, r.toString());
    JsonNode result = Json.MAPPER.readTree(out.toFile());
    JsonNode f = result.get("statementFidelity");
    long logged = 0;
    for (JsonNode line : result.get("fidelity")) {
      if (line.get("what").asText().equals("statements")) {
        logged = line.get("log").asLong();
      }
    }
    // the transactions' 7 statements each, and the driver's own at each connection
    assertTrue(logged >= (long) CLIENTS * TRANSACTIONS * 7, result.get("fidelity").toString());
    long statements = logged;
    assertEquals(statements, f.get("compared").asLong(), f.toString());
    assertEquals(statements, f.get("same").asLong(), f.toString());
    assertEquals(0, f.get("divergent").asLong(), f.toString());
    assertEquals(captured, rows(db), "final rows against the capture's");
    JsonNode order = result.get("order");
    assertEquals(0, order.get("broken").size(), "waits broken by the watchdog: " + order);
    // pgbench_history has no key, foreign key, trigger or sequence: its INSERTs keep no place
    assertEquals(
        (long) CLIENTS * TRANSACTIONS, order.get("plainInserts").asLong(), order.toString());
    // the capture's server flushes its WAL at every commit (fsync on), so a COMMIT holds its row
    // locks for a while: no lock cycle the capture did not have, and none seen that was not one
    assertEquals(0, order.get("lockCycles").asLong(), "waits let go on a lock cycle: " + order);
    // every wait is counted and timed, those held for a lock's grant and those let go on a lock
    // cycle among them
    assertTrue(order.get("waits").asLong() >= order.get("lockCycles").asLong(), order.toString());
    assertTrue(
        order.get("waits").asLong() >= order.get("lockGrantWaits").asLong(), order.toString());
    // with none broken and none let go, every wait ended when another session's mark let it pass:
    // one hand-off each
    assertEquals(order.get("waits").asLong(), order.get("handOffs").asLong(), order.toString());
    assertTrue(
        order.get("waitedSeconds").asDouble() >= order.get("lockGrantSeconds").asDouble(),
        order.toString());
    // the waits let go on a cycle are timed as a part of all waits; seconds are rounded to the
    // millisecond, so a few short ones (a cycle seen as a wait began) may sum to 0.000
    double cycleSeconds = order.get("lockCycleSeconds").asDouble();
    assertTrue(
        cycleSeconds >= 0 && cycleSeconds <= order.get("waitedSeconds").asDouble() + 0.001,
        order.toString());
    // without a pool each connection was opened ahead by a lead the replay measured, never over
    // its bound (ConnectLead); with one, none was
    JsonNode lead = order.get("connectLeadMs");
    if (List.of(options).contains("--pool-size")) {
      assertTrue(lead == null || lead.isNull(), order.toString());
    } else {
      assertTrue(lead.asDouble() > 0 && lead.asDouble() <= 200, order.toString());
    }
    return result;
  }
}
