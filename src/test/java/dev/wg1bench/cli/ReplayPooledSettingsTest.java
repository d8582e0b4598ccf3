package dev.wg1bench.cli;

import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A setting given with {@code --set} holds on every replayed session through a pool: in session
 * mode a pooled connection is reset with DISCARD ALL before the next session gets it, which resets
 * every setting, so the replay gives them again; each session records the value it ran with.
 */
class ReplayPooledSettingsTest {
  private static final String TABLE = "pooled_settings_seen";

  @BeforeEach
  void table() throws Exception {
    TestServer.execute(
        "DROP TABLE IF EXISTS " + TABLE, "CREATE TABLE " + TABLE + " (session int, work_mem text)");
  }

  @AfterEach
  void dropTable() throws Exception {
    TestServer.execute("DROP TABLE IF EXISTS " + TABLE);
  }

  @ParameterizedTest(name = "--pool-mode {0}")
  @ValueSource(strings = {"session", "transaction"})
  void everySessionRunsWithTheSettingsGiven(String mode, @org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    StringBuilder b = new StringBuilder();
    for (int s = 1; s <= 3; s++) {
      String id = s + ".a";
      int t = s * 100;
      b.append(log(id, String.format("00.%03d", t), "connection authorized: user=a database=b"));
      b.append(
          log(
              id,
              String.format("00.%03d", t + 10),
              "statement: INSERT INTO "
                  + TABLE
                  + " VALUES ("
                  + s
                  + ", current_setting('work_mem'))"));
      b.append(
          log(id, String.format("00.%03d", t + 20), "disconnection: session time: 0:00:00.020"));
    }
    Path csv = Files.writeString(dir.resolve("log.csv"), b.toString());
    Path out = dir.resolve("r.json");
    Cli r =
        Cli.run(
            "replay",
            csv.toString(),
            "--target",
            TestServer.url(),
            "--speed",
            "max",
            "--pool-size",
            "1",
            "--pool-mode",
            mode,
            "--set",
            "work_mem=1234kB",
            "-o",
            out.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode f = Json.MAPPER.readTree(out.toFile()).path("statementFidelity");
    assertEquals(0, f.path("divergent").asLong(), f.toString());
    assertEquals(
        List.of("1 1234kB", "2 1234kB", "3 1234kB"),
        TestServer.rows("SELECT session, work_mem FROM " + TABLE + " ORDER BY 1"));
  }
}
