package dev.wg1bench.replay.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.result.Measurement;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A replay result reads in today's shape and in the one written before 2026-12-06. */
class ReplayJsonTest {
  static final String BEFORE = "/replay/replay-before-2026-12-06.json";

  static JsonNode before() throws Exception {
    try (InputStream in = ReplayJsonTest.class.getResourceAsStream(BEFORE)) {
      return Json.MAPPER.readTree(in);
    }
  }

  @Test
  void anOldThroughputBecomesTheMeasurementsThroughputAndThePace() throws Exception {
    JsonNode tree = before();
    ReplayResult r = ReplayJson.trials(Json.MAPPER, tree).get(0);
    Measurement.Throughput t = r.throughput();
    assertEquals(168.492, t.tps(), "transactionsPerSecond");
    assertNull(t.tpsError());
    assertEquals(ReplayJson.TPS_INTERVAL, t.tpsInterval());
    assertEquals(168.492, t.attemptedOpsPerSecond());
    assertEquals(1.187, t.measuredSeconds(), "windowSeconds");
    assertNull(t.serverCommitsPerSecond());
    assertEquals(new ReplayResult.Pace(1.302, 4.718, 1200, 200, 1010.952), r.pace());
    assertTrue(tree.get("throughput").has("wallSeconds"), "the tree read is left as it was");
    // the rest reads as before
    assertEquals(1491.667, r.clientCpu().clientCpuMicrosPerOp());
    assertEquals(1200, r.statementFidelity().same());
  }

  @Test
  void todaysShapeReadsBackAsWritten() throws Exception {
    ReplayResult r = ReplayJson.trials(Json.MAPPER, before()).get(0);
    JsonNode written = Json.MAPPER.valueToTree(r);
    assertFalse(written.get("throughput").has("wallSeconds"), written.get("throughput").toString());
    assertEquals(1.302, written.get("pace").get("wallSeconds").asDouble());
    assertEquals(r, ReplayJson.trials(Json.MAPPER, written).get(0));
  }

  @Test
  void aSweepsOldTrialsReadToo() throws Exception {
    ObjectNode sweep = Json.MAPPER.createObjectNode();
    sweep.put("kind", "replay-sweep");
    sweep.putArray("trials").add(before()).add(before());
    List<ReplayResult> trials = ReplayJson.trials(Json.RESULTS, sweep);
    assertEquals(2, trials.size());
    for (ReplayResult r : trials) {
      assertEquals(168.492, r.throughput().tps());
      assertEquals(1010.952, r.pace().statementsPerSecond());
    }
  }

  @Test
  void anotherKindIsNone() throws Exception {
    assertNull(ReplayJson.trials(Json.MAPPER, Json.MAPPER.readTree("{\"tool\": \"wg1bench\"}")));
    assertNull(ReplayJson.trials(Json.MAPPER, Json.MAPPER.readTree("[1, 2]")));
    assertNull(ReplayJson.trials(Json.MAPPER, null));
  }
}
