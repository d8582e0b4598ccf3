package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sweeps, repeats, shuffled order and hygiene between trials, through the CLI. */
class MatrixTest {
  @TempDir Path tmp;

  private JsonNode sweep(Path json, String... extra) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--workload",
                "tpcb",
                "--target",
                "t=" + TestServer.url(),
                "--forks",
                "0",
                "--warmup",
                "0",
                "--duration",
                "600ms",
                "--iterations",
                "3",
                "--output",
                json.toString()));
    args.addAll(List.of(extra));
    Cli r = Cli.run(args.toArray(new String[0]));
    assertEquals(0, r.exit, r.toString());
    return new ObjectMapper().readTree(json.toFile());
  }

  private static List<String> order(JsonNode run) {
    List<String> out = new ArrayList<>();
    for (JsonNode t : run.get("trials")) {
      out.add(
          t.get("point").get("clients").asText()
              + "/"
              + t.get("point").get("queryMode").asText()
              + "#"
              + t.get("repeat").asInt());
    }
    return out;
  }

  @Test
  void sweepRunsEveryPointRepeatedInAShuffledReproducibleOrder() throws Exception {
    PgbenchData.reset();
    JsonNode a =
        sweep(
            tmp.resolve("a.json"),
            "--clients",
            "1,2",
            "--query-mode",
            "simple,prepared",
            "--repeat",
            "2",
            "--seed",
            "7");
    assertEquals(8, a.get("trials").size());
    assertEquals(4, a.get("summary").size());
    assertEquals(2, a.get("matrix").get("repeat").asInt());
    assertEquals("random", a.get("matrix").get("order").asText());
    Set<String> points = new HashSet<>();
    for (JsonNode s : a.get("summary")) {
      assertEquals(2, s.get("trials").asInt());
      assertTrue(s.get("medianTps").asDouble() > 0);
      assertTrue(s.get("minTps").asDouble() <= s.get("medianTps").asDouble());
      assertTrue(s.get("maxTps").asDouble() >= s.get("medianTps").asDouble());
      points.add(
          s.get("point").get("clients").asText() + "/" + s.get("point").get("queryMode").asText());
    }
    assertEquals(Set.of("1/simple", "1/prepared", "2/simple", "2/prepared"), points);
    List<String> shuffled = order(a);
    List<String> sequential = new ArrayList<>();
    for (int r = 1; r <= 2; r++) {
      for (String c : List.of("1", "2")) {
        for (String m : List.of("simple", "prepared")) {
          sequential.add(c + "/" + m + "#" + r);
        }
      }
    }
    assertNotEquals(sequential, shuffled, "seed 7 should not give the sequential order");
    for (int i = 0; i < shuffled.size(); i++) {
      assertEquals(i + 1, a.get("trials").get(i).get("sequence").asInt());
    }
    // the same seed gives the same order
    JsonNode b =
        sweep(
            tmp.resolve("b.json"),
            "--clients",
            "1,2",
            "--query-mode",
            "simple,prepared",
            "--repeat",
            "2",
            "--seed",
            "7");
    assertEquals(shuffled, order(b));
    // sequential: round after round in the points' order
    JsonNode c =
        sweep(
            tmp.resolve("c.json"),
            "--clients",
            "1,2",
            "--query-mode",
            "simple,prepared",
            "--repeat",
            "2",
            "--order",
            "sequential");
    assertEquals(sequential, order(c));
  }

  /** reinit before every trial: the history left is exactly the last trial's committed ops. */
  @Test
  void reinitBetweenTrialsStartsEachTrialOnFreshTables() throws Exception {
    PgbenchData.reset();
    JsonNode run =
        sweep(
            tmp.resolve("r.json"),
            "--clients",
            "1,2",
            "--repeat",
            "1",
            "--between-trials",
            "reinit");
    JsonNode trials = run.get("trials");
    assertEquals(2, trials.size());
    long last = trials.get(1).get("measurement").get("totalOps").asLong();
    assertEquals(last, PgbenchData.historyRows());
    assertEquals("reinit", run.get("matrix").get("betweenTrials").asText());
  }

  @Test
  void sweptSessionSettingsAndBadSweepValues() throws Exception {
    PgbenchData.reset();
    JsonNode run =
        sweep(
            tmp.resolve("s.json"),
            "--set",
            "synchronous_commit=on,off",
            "--repeat",
            "1",
            "--order",
            "sequential");
    assertEquals(2, run.get("trials").size());
    assertEquals(
        "on",
        run.get("trials")
            .get(0)
            .get("client")
            .get("sessionSettings")
            .get("synchronous_commit")
            .asText());
    assertEquals(
        "off",
        run.get("trials")
            .get(1)
            .get("client")
            .get("sessionSettings")
            .get("synchronous_commit")
            .asText());
    CliErrorsTest.assertOneLine(
        Cli.run("--workload", "tpcb", "--clients", "1,0"),
        2,
        "--clients must be between 1 and 10000, got 0");
    CliErrorsTest.assertOneLine(
        Cli.run("--workload", "tpcb", "--order", "shuffled"),
        2,
        "--order 'shuffled' is not one of random, sequential");
    CliErrorsTest.assertOneLine(
        Cli.run("--workload", "tpcb", "--between-trials", "restart"),
        2,
        "--between-trials 'restart' is not one of checkpoint, vacuum, reinit, none");
    CliErrorsTest.assertOneLine(
        Cli.run("--workload", "tpcb", "--repeat", "0"),
        2,
        "--repeat must be between 1 and 1000, got 0");
    CliErrorsTest.assertOneLine(
        Cli.run("--workload", "tpcb,nope"), 2, "--workload 'nope' is not a workload");
  }
}
