package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.history.store.HistoryStore;
import dev.wg1bench.history.store.HistoryStores;
import dev.wg1bench.history.store.StoredMetric;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.json.Json;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code history check --confirm-baseline/--confirm-candidate} on a history of several
 * configurations: each flagged series is re-measured by arms built on its own configuration (its
 * workload and knob values as the history recorded them, under what the arms add), the output names
 * the configuration of each, and a series whose configuration cannot be rebuilt, or whose arm
 * contradicts what it recorded, is named in one line and keeps the history's outcome.
 */
class HistoryConfirmPerConfigurationTest {
  @TempDir Path home;

  @BeforeEach
  void ownHome() {
    System.setProperty("wg1bench.home", home.toString());
  }

  @AfterEach
  void noHome() {
    System.clearProperty("wg1bench.home");
  }

  static final String ONE = "select_only clients=1 queryMode=simple isolation=default @embedded";
  static final String TWO = "select_only clients=2 queryMode=simple isolation=default @embedded";

  /** Ten runs around 1000 tps, then one at 800, for ONE, TWO and an imported series "imported". */
  private void history() throws Exception {
    try (HistoryStore h = HistoryStores.open("", home)) {
      for (int i = 0; i <= 10; i++) {
        double v = i < 10 ? 1000 + (i % 2 == 0 ? 5 : -5) : 800;
        List<StoredMetric> m = new ArrayList<>();
        for (String config : List.of(ONE, TWO, "imported")) {
          m.add(new StoredMetric(config, "tps", true, v, Double.NaN, Double.NaN));
        }
        h.append(
            new StoredRun(
                null,
                Instant.parse("2026-11-01T00:00:00Z").plusSeconds(3600L * i),
                "run",
                Map.of("commit", "c" + i),
                m));
      }
    }
  }

  private Cli check(String baseline, String candidate, Path out) {
    return Cli.run(
        "history",
        "check",
        "--format",
        "json",
        "--confirm",
        "regressions",
        "--confirm-baseline",
        baseline,
        "--confirm-candidate",
        candidate,
        "--target",
        TestServer.url(),
        "--blocks",
        "2",
        "--duration",
        "500ms",
        "--warmup",
        "0",
        "--iterations",
        "1",
        "-o",
        out.toString());
  }

  @Test
  void eachConfigurationIsReMeasuredWithItsOwnArms() throws Exception {
    history();
    PgbenchData.reset();
    Path out = home.resolve("confirm.json");
    Cli c = check("--set application_name=base", "--set application_name=candidate", out);
    // the imported series is not re-measured and stays a regression, whatever the blocks say
    assertEquals(HistoryCheckCommand.REGRESSION, c.exit, c.toString());
    assertTrue(
        c.err.contains(
            "wg1bench: note: series imported/tps is not re-measured: its configuration"
                + " 'imported' cannot be rebuilt from the history"),
        c.err);
    JsonNode gate = Json.MAPPER.readTree(c.out);
    assertEquals(home.resolve("confirm-1.json").toString(), gate.get("confirmedOn").asText());
    int n = 0;
    for (JsonNode s : gate.get("series")) {
      String name = s.get("name").asText();
      if (name.equals("imported/tps")) {
        assertTrue(s.get("confirmation").isNull(), s.toString());
        assertEquals("regression", s.get("outcome").asText());
        continue;
      }
      n++;
      String clients = name.startsWith(ONE) ? "1" : "2";
      JsonNode arms = s.get("confirmation").get("arms");
      assertEquals(
          name.substring(0, name.length() - "/tps".length()), arms.get("configuration").asText());
      String config = "--workload select_only --clients " + clients + " --query-mode simple";
      assertEquals(config + " --set application_name=base", arms.get("baseline").asText());
      assertEquals(config + " --set application_name=candidate", arms.get("candidate").asText());
      // the experiment's trials ran that configuration, both arms, one trial of each per block
      JsonNode trials = Json.MAPPER.readTree(Path.of(arms.get("resultFile").asText()).toFile());
      assertEquals(4, trials.get("trials").size());
      for (JsonNode t : trials.get("trials")) {
        assertEquals("select_only", t.get("point").get("workload").asText(), t.toString());
        assertEquals(clients, t.get("point").get("clients").asText(), t.toString());
      }
    }
    assertEquals(2, n);
  }

  @Test
  void anArmThatContradictsTheConfigurationIsRefusedPerSeries() throws Exception {
    history();
    Cli c = check("", "--clients 3", home.resolve("none.json"));
    assertEquals(HistoryCheckCommand.REGRESSION, c.exit, c.toString());
    for (String config : List.of(ONE, TWO)) {
      String clients = config.equals(ONE) ? "1" : "2";
      assertTrue(
          c.err.contains(
              "wg1bench: note: series "
                  + config
                  + "/tps is not re-measured: the arms do not measure its configuration '"
                  + config
                  + "': --confirm-candidate runs clients=3 where the configuration recorded"
                  + " clients="
                  + clients
                  + "; the history's outcome stands"),
          c.err);
    }
    JsonNode gate = Json.MAPPER.readTree(c.out);
    assertTrue(gate.get("confirmedOn").isNull(), c.out);
    assertFalse(c.err.contains("Exception"), c.err);
  }
}
