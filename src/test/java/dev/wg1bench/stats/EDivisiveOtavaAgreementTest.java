package dev.wg1bench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The change points Apache Otava gives on the same series and settings: its answers (indexes and p)
 * were computed by Otava itself with bench/otava-agreement.py, which regenerates them from an Otava
 * checkout. Synthetic series (steps, spikes, drifts, variance changes, ties, counts) and real
 * wg1bench runs' tps.
 */
class EDivisiveOtavaAgreementTest {

  static Stream<JsonNode> cases() throws IOException {
    // -Dwg1bench.otavaCases=FILE checks your own series (a file bench/otava-agreement.py wrote)
    String own = System.getProperty("wg1bench.otavaCases");
    try (InputStream in =
        own != null
            ? java.nio.file.Files.newInputStream(java.nio.file.Path.of(own))
            : EDivisiveOtavaAgreementTest.class.getResourceAsStream(
                "/history/otava-agreement.json")) {
      JsonNode all = Json.MAPPER.readTree(in);
      List<JsonNode> out = new ArrayList<>();
      all.forEach(out::add);
      return out.stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void sameChangePointsAndPAsOtava(JsonNode c) {
    double[] values = new double[c.get("values").size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = c.get("values").get(i).asDouble();
    }
    EDivisive.Settings s =
        new EDivisive.Settings(
            c.get("window").asInt(), c.get("p").asDouble(), c.get("magnitude").asDouble(), 1);
    List<EDivisive.ChangePoint> got = EDivisive.changePoints(values, s);
    List<Integer> want = new ArrayList<>();
    c.get("otava").forEach(x -> want.add(x.get("index").asInt()));
    String label = c.get("name").asText() + " " + s;
    assertEquals(want, got.stream().map(EDivisive.ChangePoint::index).toList(), label);
    for (int k = 0; k < want.size(); k++) {
      double p = c.get("otava").get(k).get("p").asDouble();
      double mine = got.get(k).test().p();
      assertTrue(
          Math.abs(mine - p) <= 1e-9 + 1e-6 * p,
          label + " p at " + want.get(k) + ": Otava " + p + ", here " + mine);
    }
  }
}
