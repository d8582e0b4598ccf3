package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --rtt reaches the clients of a forked JVM: each point records its round-trip time, and a
 * one-statement op at 20 ms takes at least 20 ms where the point without the line does not pay it.
 */
class RttOptionTest {
  @TempDir Path tmp;

  @Test
  void aForkedSweepRecordsEachRttAndItsOpsPayIt() throws Exception {
    PgbenchData.reset();
    Path out = tmp.resolve("r.json");
    Cli r =
        Cli.run(
            "--workload",
            "select_only",
            "--target",
            TestServer.url(),
            "--clients",
            "1",
            "--duration",
            "1s",
            "--warmup",
            "0",
            "--repeat",
            "1",
            "--forks",
            "1",
            "--rtt",
            "0,20ms",
            "-o",
            out.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode trials = Json.MAPPER.readTree(out.toFile()).get("trials");
    assertEquals(2, trials.size());
    for (JsonNode t : trials) {
      double rtt = t.get("client").get("rttMs").asDouble();
      assertEquals(t.get("point").get("rtt").asText().equals("20ms") ? 20.0 : 0.0, rtt);
      double p50 = t.get("measurement").get("latencyMs").get("p50").asDouble();
      if (rtt > 0) {
        assertTrue(p50 >= rtt, "p50 " + p50 + " ms at --rtt " + rtt + " ms");
      }
    }
  }

  /**
   * --predict-rtt sets the round-trip times of the JSON's prediction[] and the console's line: each
   * one the measured mean with only the wire's share changed, the round trips per op times the new
   * RTT in place of the one set.
   */
  @Test
  void predictRttSetsThePredictionsTimes() throws Exception {
    PgbenchData.reset();
    Path out = tmp.resolve("p.json");
    Cli r =
        Cli.run(
            "--workload",
            "select_only",
            "--target",
            TestServer.url(),
            "--clients",
            "1",
            "--duration",
            "1s",
            "--warmup",
            "0",
            "--forks",
            "1",
            "--rtt",
            "2ms",
            "--predict-rtt",
            "0,5ms,20ms",
            "-o",
            out.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode m = Json.MAPPER.readTree(out.toFile()).get("trials").get(0).get("measurement");
    JsonNode p = m.get("prediction");
    assertEquals(3, p.size(), m.toString());
    double roundTrips = m.get("perOp").get("roundTrips").asDouble();
    double mean = m.get("latencyMs").get("mean").asDouble();
    double[] at = {0, 5, 20};
    for (int i = 0; i < at.length; i++) {
      assertEquals(at[i], p.get(i).get("rttMs").asDouble(), 0.0);
      assertEquals(mean + (at[i] - 2) * roundTrips, p.get(i).get("latencyMeanMs").asDouble(), 1e-9);
    }
    assertTrue(r.out.contains("rtt 20.0 ms: mean"), r.out);
    // the tool's own connections' start-up (SET application_name) is not a statement of the run's
    for (JsonNode st : m.get("serverSide").get("statements")) {
      assertFalse(st.get("query").asText().contains("application_name"), st.toString());
    }
  }
}
