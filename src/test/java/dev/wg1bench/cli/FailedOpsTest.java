package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ops that fail are counted by kind and shown; the run goes on unless told to stop. */
class FailedOpsTest {
  @TempDir Path tmp;

  /**
   * Every fourth op divides by zero: 22012 is counted as "other", successful ops still measured.
   */
  private Path script() throws Exception {
    Path f = tmp.resolve("sometimes.sql");
    Files.writeString(
        f,
        "\\set n random(0, 3)\n"
            + "BEGIN;\n"
            + "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, 1, 1, now());\n"
            + "SELECT 1 / :n;\n"
            + "END;\n");
    return f;
  }

  private Cli run(Path json, String duration, String... extra) throws Exception {
    String[] base = {
      "--script",
      script().toString(),
      "--target",
      TestServer.url(),
      "--clients",
      "2",
      "--duration",
      duration,
      "--iterations",
      "3",
      "--warmup",
      "0",
      "--output",
      json.toString()
    };
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return Cli.run(args);
  }

  @Test
  void failuresAreCountedAndTheRunGoesOn() throws Exception {
    PgbenchData.reset();
    Path json = tmp.resolve("r.json");
    Cli r = run(json, "900ms", "--forks", "0");
    assertEquals(Main.COMPLETED_WITH_FAILURES, r.exit, r.toString());
    JsonNode t = new ObjectMapper().readTree(json.toFile()).get("trials").get(0);
    JsonNode m = t.get("measurement");
    long ok = m.get("ops").asLong();
    long failed = m.get("failedOps").asLong();
    assertTrue(ok > 0 && failed > 0, r.out);
    double share = (double) failed / (ok + failed);
    assertTrue(share > 0.1 && share < 0.4, "about a quarter should fail, got " + share);
    assertEquals(failed, m.get("failures").get("other").asLong());
    JsonNode e = t.get("errors").get(0);
    assertEquals("22012", e.get("sqlState").asText());
    assertTrue(e.get("firstMessage").asText().contains("division by zero"));
    assertTrue(r.out.contains("failures by kind: other"), r.out);
    // failed transactions were rolled back: only successful ops left a row
    assertEquals(m.get("totalOps").asLong(), PgbenchData.historyRows());
  }

  @Test
  void exitOnErrorStopsTheRunAndStillWritesTheResult() throws Exception {
    PgbenchData.reset();
    Path json = tmp.resolve("r.json");
    Cli r = run(json, "20s", "--exit-on-error", "--forks", "1");
    assertEquals(1, r.exit, r.toString());
    JsonNode m = new ObjectMapper().readTree(json.toFile()).get("trials").get(0).get("measurement");
    // the run's own record: it measured less than the 20 s asked for
    assertTrue(m.get("measuredSeconds").asDouble() < 20, "should stop at the first failure: " + m);
    assertTrue(m.get("stoppedBy").asText().contains("division by zero"), m.toString());
    assertTrue(r.out.contains("STOPPED EARLY"), r.out);
  }

  /**
   * A named statement whose meaning changed under the driver, as a transaction-mode pooler without
   * statement tracking does to pgjdbc: the script itself replaces pgjdbc's S_1 (its SET, known to
   * return no rows) with a SELECT, so the next op's S_1 answers with a row and pgjdbc throws an
   * IllegalStateException. That op fails as kind other, the client gets a new connection, and the
   * run goes on; the exception once ended the whole run with "no measurements".
   */
  @Test
  void aDriverExceptionFailsTheOpAndTheClientGoesOnOnANewConnection() throws Exception {
    Path f = tmp.resolve("renamed.sql");
    Files.writeString(
        f,
        "SET application_name = 'renamed';\nDEALLOCATE \"S_1\";\nPREPARE \"S_1\" AS SELECT 1;\n");
    Path json = tmp.resolve("renamed.json");
    Cli r =
        Cli.run(
            "--script",
            f.toString(),
            "--query-mode",
            "prepared",
            "--target",
            TestServer.url(),
            "--clients",
            "2",
            "--duration",
            "600ms",
            "--iterations",
            "2",
            "--warmup",
            "0",
            "--forks",
            "0",
            "--output",
            json.toString());
    assertEquals(Main.COMPLETED_WITH_FAILURES, r.exit, r.toString());
    JsonNode t = new ObjectMapper().readTree(json.toFile()).get("trials").get(0);
    JsonNode m = t.get("measurement");
    long ok = m.get("totalOps").asLong();
    long failed = m.get("totalFailedOps").asLong();
    // each connection runs the script once cleanly, then fails on the renamed S_1 and is replaced:
    // per client, ops alternate from a success, so the totals differ by at most one per client
    assertTrue(failed > 0 && ok - failed >= 0 && ok - failed <= 2, m.toString());
    assertEquals(0, m.get("clientsStopped").asInt(), m.toString());
    boolean named = false;
    for (JsonNode e : t.get("errors")) {
      assertEquals("other", e.get("kind").asText(), e.toString());
      named |= e.get("firstMessage").asText().contains("IllegalStateException");
    }
    assertTrue(named, t.get("errors").toString());
  }
}
