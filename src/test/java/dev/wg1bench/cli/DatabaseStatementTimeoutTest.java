package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database whose statement_timeout is 1 ms (ALTER DATABASE ... SET, issue 56): the tool's own
 * queries (its reads of the server, set-up, counters, --check) are immune and the run completes,
 * while the clients' connections keep the database's setting, which is the user's; a transaction a
 * timeout aborted is rolled back before the connection runs another op (no 25P02).
 */
class DatabaseStatementTimeoutTest {
  private static final String DB = "wg1_stmt_timeout_1ms";

  @TempDir Path tmp;

  @BeforeAll
  static void database() throws Exception {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + DB);
      st.execute("CREATE DATABASE " + DB);
      st.execute("ALTER DATABASE " + DB + " SET statement_timeout = '1ms'");
    }
  }

  private static String url() {
    String u = TestServer.url();
    int q = u.indexOf('?');
    String base = q < 0 ? u : u.substring(0, q);
    return base.substring(0, base.lastIndexOf('/') + 1) + DB + (q < 0 ? "" : u.substring(q));
  }

  private Cli run(String... more) {
    List<String> args = new ArrayList<>(List.of("--target", url(), "--warmup", "0"));
    args.addAll(List.of(more));
    return Cli.run(args.toArray(String[]::new));
  }

  @Test
  void theToolsOwnQueriesAreImmuneAndTheClientsKeepTheTimeout() throws Exception {
    Cli init = Cli.run("init", "--scale", "1", "--target", url());
    assertEquals(0, init.exit, init.toString());
    Path json = tmp.resolve("tpcb.json");
    Cli r = run("--workload", "tpcb", "-c", "2", "-t", "20", "--check", "-o", json.toString());
    // some of tpcb's statements may be cancelled at 1 ms: exit 3 then, never 1
    assertTrue(r.exit == 0 || r.exit == Main.COMPLETED_WITH_FAILURES, r.toString());
    assertFalse(r.err.contains("connecting failed"), r.toString());
    assertTrue(r.out.contains("check: ok"), r.toString());
    // a 20 ms sleep never fits in the clients' 1 ms: every op is cancelled
    Path sleep = tmp.resolve("sleep.sql");
    Files.writeString(sleep, "SELECT pg_sleep(0.02);\n");
    Path sj = tmp.resolve("sleep.json");
    Cli s = run("--script", sleep.toString(), "-c", "2", "-t", "5", "-o", sj.toString());
    assertEquals(Main.COMPLETED_WITH_FAILURES, s.exit, s.toString());
    JsonNode m = Json.MAPPER.readTree(sj.toFile()).get("trials").get(0).get("measurement");
    assertEquals(0, m.get("ops").asLong(), m.toString());
    assertTrue(m.get("failures").get("timeout").asLong() > 0, s.out + m);
  }

  @Test
  void aTransactionATimeoutAbortedIsRolledBackBeforeTheNextOp() throws Exception {
    Path tx = tmp.resolve("tx.sql");
    Files.writeString(tx, "BEGIN;\nSELECT 1;\nSELECT pg_sleep(0.002);\nSELECT 1;\nEND;\n");
    for (String mode : List.of("simple", "extended", "prepared")) {
      Path json = tmp.resolve(mode + ".json");
      Cli r =
          run(
              "--script",
              tx.toString(),
              "-M",
              mode,
              "-c",
              "2",
              "-t",
              "100",
              "--forks",
              "0",
              "-o",
              json.toString());
      assertEquals(Main.COMPLETED_WITH_FAILURES, r.exit, r.toString());
      JsonNode trial = Json.MAPPER.readTree(json.toFile()).get("trials").get(0);
      for (JsonNode e : trial.get("errors")) {
        assertFalse(
            "25P02".equals(e.get("sqlState").asText()),
            mode + ": an aborted transaction was reused: " + e);
      }
      assertTrue(
          trial.get("measurement").get("failures").get("timeout").asLong() > 0, r.toString());
    }
  }
}
