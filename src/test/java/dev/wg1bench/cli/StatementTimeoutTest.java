package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --statement-timeout sweeps, sets statement_timeout per session and counts its cancels apart. */
class StatementTimeoutTest {
  @TempDir Path tmp;

  @Test
  void aSweepCountsTimeoutsByKindInOnePointAndNoneInTheOther() throws Exception {
    // every op sleeps 20 ms: a 1 ms statement_timeout cancels each one, none cancels nothing
    Path script = tmp.resolve("sleep.sql");
    Files.writeString(script, "SELECT pg_sleep(0.02);\n");
    Path json = tmp.resolve("r.json");
    Cli r =
        Cli.run(
            "--script",
            script.toString(),
            "--target",
            "t=" + TestServer.url(),
            "--statement-timeout",
            "1ms,0",
            "--clients",
            "2",
            "--forks",
            "0",
            // a number of ops, not a window a loaded machine could leave without one
            "-t",
            "10",
            "--repeat",
            "1",
            "--order",
            "sequential",
            "--output",
            json.toString());
    // ops failed in one point: the run completed with failures
    assertEquals(Main.COMPLETED_WITH_FAILURES, r.exit, r.toString());
    JsonNode run = new ObjectMapper().readTree(json.toFile());
    Map<String, JsonNode> byTimeout = new HashMap<>();
    for (JsonNode t : run.get("trials")) {
      byTimeout.put(t.get("point").get("statementTimeout").asText(), t);
    }
    assertEquals(2, byTimeout.size(), byTimeout.keySet().toString());
    JsonNode on = byTimeout.get("1ms");
    JsonNode off = byTimeout.get("0");
    assertTrue(on.get("measurement").get("failures").get("timeout").asLong() > 0, on.toString());
    assertEquals(
        on.get("measurement").get("failedOps").asLong(),
        on.get("measurement").get("failures").get("timeout").asLong(),
        "every failure of the 1 ms point is a timeout");
    assertEquals(0, on.get("measurement").get("ops").asLong(), "no 20 ms sleep fits in 1 ms");
    assertEquals(0, off.get("measurement").get("failures").size(), off.toString());
    assertTrue(off.get("measurement").get("ops").asLong() > 0, off.toString());
    // the server applied it to the clients' sessions
    assertEquals("1ms", on.get("client").get("sessionSettings").get("statement_timeout").asText());
    assertEquals("0", off.get("client").get("sessionSettings").get("statement_timeout").asText());
    assertTrue(r.out.contains("statementTimeout=1ms") && r.out.contains("(timeout "), r.out);
  }

  @Test
  void itExcludesSetStatementTimeout() {
    Cli r =
        Cli.run(
            "--workload",
            "select_only",
            "--target",
            "t=" + TestServer.url(),
            "--statement-timeout",
            "1s",
            "--set",
            "statement_timeout=2s");
    assertEquals(2, r.exit, r.toString());
    assertEquals(
        "wg1bench: --statement-timeout and --set statement_timeout exclude each other; give one"
            + " of them\n",
        r.err);
  }
}
