package dev.wg1bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.support.MainOut;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pools smaller than the client count, fixed-rate runs and per-interval progress, end to end. */
class PacingPoolProgressTest {
  @TempDir Path tmp;

  record Run(int exit, String out, JsonNode trial) {}

  Run run(String... extra) throws Exception {
    Path json = tmp.resolve("r" + System.nanoTime() + ".json");
    List<String> args =
        new ArrayList<>(
            List.of(
                "--target",
                TestServer.url(),
                "--forks",
                "0",
                "--warmup",
                "500ms",
                "--output",
                json.toString()));
    args.addAll(List.of(extra));
    MainOut.Trial ran = MainOut.trial(args, json);
    return new Run(0, ran.out(), ran.trial());
  }

  @Test
  void aPoolOfTwoServingEightClientsMakesOpsWait() throws Exception {
    PgbenchData.reset();
    Run r =
        run(
            "--workload",
            "tpcb",
            "--clients",
            "8",
            "--pool-size",
            "2",
            "--duration",
            "1500ms",
            "--iterations",
            "3");
    JsonNode c = r.trial().get("client");
    assertEquals(2, c.get("connections").asInt());
    assertEquals(2, c.get("pool").get("size").asInt());
    JsonNode wait = r.trial().get("measurement").get("poolWaitMs");
    assertTrue(wait.get("count").asLong() > 0 && wait.get("mean").asDouble() > 0, wait.toString());
    assertTrue(r.out().contains("pool wait (ms)"), r.out());
    // the shared connections still keep tpcb's books balanced
    assertEquals(
        PgbenchData.scalar("SELECT sum(delta) FROM pgbench_history"),
        PgbenchData.scalar("SELECT sum(bbalance) FROM pgbench_branches"));
    assertEquals(r.trial().get("measurement").get("totalOps").asLong(), PgbenchData.historyRows());
  }

  @Test
  void aRateBelowCapacityIsHeld() throws Exception {
    PgbenchData.reset();
    Run r =
        run(
            "--workload",
            "select_only",
            "--clients",
            "2",
            "--rate",
            "200",
            "--duration",
            "3s",
            "--iterations",
            "3");
    JsonNode m = r.trial().get("measurement");
    double tps = m.get("tps").asDouble();
    assertTrue(tps > 150 && tps < 250, "rate 200 gave tps " + tps);
    assertEquals("scheduled start", m.get("latencyFrom").asText());
    assertNotNull(m.get("scheduleLagMs"));
  }

  /**
   * Above capacity the backlog grows, so latency measured from the schedule grows interval after
   * interval instead of staying flat (coordinated omission not hidden).
   */
  @Test
  void aRateAboveCapacityShowsGrowingLatency() throws Exception {
    PgbenchData.reset();
    Run r =
        run(
            "--workload",
            "update1",
            "--clients",
            "2",
            "--rate",
            "100000",
            "--duration",
            "3s",
            "--iterations",
            "3",
            "--progress",
            "500ms");
    JsonNode m = r.trial().get("measurement");
    assertTrue(m.get("scheduleLagMs").get("max").asDouble() > 500, m.toString());
    List<Double> p50 = new ArrayList<>();
    for (JsonNode p : r.trial().get("progress")) {
      if (p.get("phase").asText().equals("measurement") && !p.get("p50Ms").isNull()) {
        p50.add(p.get("p50Ms").asDouble());
      }
    }
    assertTrue(p50.size() >= 3, r.out());
    assertTrue(
        p50.get(p50.size() - 1) > 2 * p50.get(0), "latency should grow with the backlog: " + p50);
  }

  @Test
  void latencyLimitSkipsOpsThatCannotStartInTime() throws Exception {
    PgbenchData.reset();
    Run r =
        run(
            "--workload",
            "update1",
            "--clients",
            "2",
            "--rate",
            "100000",
            "--latency-limit",
            "5",
            "--duration",
            "1500ms",
            "--iterations",
            "3");
    JsonNode m = r.trial().get("measurement");
    assertTrue(m.get("skippedOps").asLong() > 0, m.toString());
    assertTrue(r.out().contains("skipped"), r.out());
  }

  @Test
  void progressPrintsOneLinePerIntervalAndTheJsonKeepsThem() throws Exception {
    PgbenchData.reset();
    Run r =
        run(
            "--workload",
            "select_only",
            "--clients",
            "2",
            "--progress",
            "500ms",
            "--duration",
            "3s",
            "--iterations",
            "3");
    long lines = r.out().lines().filter(l -> l.startsWith("progress:")).count();
    int points = r.trial().get("progress").size();
    assertEquals(lines, points);
    // 3 s measured at 0.5 s intervals: the measurement is covered by at least 5 points, each
    // later than the one before; a loaded machine stretches the fork's wall time, so more points
    // are as right as fewer would be wrong (no upper bound: this asserts coverage, not speed)
    JsonNode progress = r.trial().get("progress");
    long measured = 0;
    double last = Double.NEGATIVE_INFINITY;
    for (JsonNode pt : progress) {
      assertTrue(pt.get("t").asDouble() > last, "times run forward: " + progress);
      last = pt.get("t").asDouble();
      measured += pt.get("phase").asText().equals("measurement") ? 1 : 0;
    }
    assertTrue(measured >= 5, "measured points: " + measured + "\n" + r.out());
    assertTrue(last >= 3.0, "the last point at " + last + " s\n" + r.out());
  }
}
