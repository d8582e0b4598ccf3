package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * --check verifies what the workload guarantees after the run, and can fail: tpcb at 16 clients
 * loses no update under read committed or repeatable read with retries.
 */
class DataCheckTest {
  @TempDir Path tmp;

  private Cli run(Path json, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--target",
                TestServer.url(),
                "--duration",
                "2s",
                "--iterations",
                "2",
                "--warmup",
                "500ms",
                "--forks",
                "0",
                "--check",
                "--output",
                json.toString()));
    args.addAll(List.of(extra));
    return Cli.run(args.toArray(new String[0]));
  }

  private static JsonNode trial(Path json) throws Exception {
    return new ObjectMapper().readTree(json.toFile()).get("trials").get(0);
  }

  @ParameterizedTest(name = "tpcb -c 16 --isolation {0}")
  @ValueSource(strings = {"read_committed", "repeatable_read"})
  void tpcbLosesNoUpdate(String isolation) throws Exception {
    PgbenchData.reset();
    Path json = tmp.resolve(isolation + ".json");
    Cli r =
        run(
            json,
            "--workload",
            "tpcb",
            "--clients",
            "16",
            "--isolation",
            isolation,
            "--max-tries",
            "1000");
    assertEquals(0, r.exit, r.toString());
    JsonNode t = trial(json);
    JsonNode m = t.get("measurement");
    assertEquals(0, m.get("totalFailedOps").asLong(), t.get("errors").toString());
    assertTrue(t.get("check").get("passed").asBoolean(), t.get("check").toString());
    assertTrue(r.out.contains("check: ok (balances: accounts = tellers = branches"), r.out);
    // and independently of the check's own code: one history row per committed op, sums agree
    long history = PgbenchData.scalar("SELECT coalesce(sum(delta), 0) FROM pgbench_history");
    assertEquals(history, PgbenchData.scalar("SELECT sum(abalance) FROM pgbench_accounts"));
    assertEquals(history, PgbenchData.scalar("SELECT sum(tbalance) FROM pgbench_tellers"));
    assertEquals(history, PgbenchData.scalar("SELECT sum(bbalance) FROM pgbench_branches"));
    assertEquals(m.get("totalOps").asLong(), PgbenchData.historyRows());
    System.err.printf(
        "%s: ops %d, retries %d, retried ops %d; %s%n",
        isolation,
        m.get("totalOps").asLong(),
        m.get("retries").asLong(),
        m.get("retriedOps").asLong(),
        t.get("check"));
    if (isolation.equals("repeatable_read")) {
      // 16 clients on one branch row: concurrent updates fail with 40001 and are retried
      assertTrue(m.get("retries").asLong() > 0, m.toString());
    }
  }

  @Test
  void aBrokenInvariantFailsTheCheck() throws Exception {
    PgbenchData.reset();
    Path script = tmp.resolve("lossy.sql");
    // moves money into accounts without the teller, branch or history side
    Files.writeString(
        script,
        "-- @tables pgbench\n"
            + "-- @rows-per-op 1\n"
            + "-- @check balances\n"
            + "\\set aid random(1, 100000 * :scale)\n"
            + "UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;\n");
    Path json = tmp.resolve("lossy.json");
    Cli r = run(json, "--script", script.toString(), "--clients", "2");
    assertEquals(1, r.exit, r.toString());
    JsonNode c = trial(json).get("check");
    assertFalse(c.get("passed").asBoolean(), c.toString());
    assertTrue(r.out.contains("check FAILED: balances: changes differ, accounts +"), r.out);
    assertTrue(r.out.contains("history rows +0, committed ops"), r.out);
  }

  @Test
  void serializationFailuresFailTheCheckWhereNoneAreGuaranteed() throws Exception {
    PgbenchData.reset();
    Path script = tmp.resolve("hot.sql");
    Files.writeString(
        script,
        "-- @tables pgbench\n"
            + "-- @isolation repeatable_read\n"
            + "-- @check no-serialization-failure\n"
            + "BEGIN;\n"
            + "UPDATE pgbench_branches SET bbalance = bbalance WHERE bid = 1;\n"
            + "SELECT pg_sleep(0.002);\n"
            + "END;\n");
    Path json = tmp.resolve("hot.json");
    Cli r = run(json, "--script", script.toString(), "--clients", "8", "--max-tries", "100");
    assertEquals(1, r.exit, r.toString());
    assertTrue(r.out.contains("serialization failures, where the workload guarantees none"), r.out);
  }

  @Test
  void readOnlyAndInsertWorkloadsPass() throws Exception {
    for (String w : new String[] {"select_only", "insert_copy", "rr_write10"}) {
      PgbenchData.reset();
      Path json = tmp.resolve(w + ".json");
      Cli r = run(json, "--workload", w, "--clients", "4");
      assertEquals(0, r.exit, r.toString());
      assertTrue(trial(json).get("check").get("passed").asBoolean(), r.out);
    }
    assertTrue(Files.readString(tmp.resolve("insert_copy.json")).contains("x 8 rows per op"));
    assertTrue(Files.readString(tmp.resolve("rr_write10.json")).contains("no serialization"));
    assertTrue(Files.readString(tmp.resolve("select_only.json")).contains("tables unchanged"));
  }

  @Test
  void unknownCheckIsAUsageError() throws Exception {
    Path script = tmp.resolve("typo.sql");
    Files.writeString(script, "-- @check balance\nSELECT 1;\n");
    CliErrorsTest.assertOneLine(
        Cli.run("--script", script.toString()),
        2,
        "typo.sql: @check 'balance' is not a check; valid: balances, rows, read-only,"
            + " no-serialization-failure");
  }
}
