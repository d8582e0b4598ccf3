package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.support.TestJava;
import dev.wg1bench.support.TestServer;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay's memory is bounded by what it must keep, not by the number of statement classes: a
 * generated log of {@value #CLASSES} classes replays in a JVM whose heap is {@value #HEAP}. With
 * two full-range histograms per class (190 KB each) this needed 3.8 GB.
 */
class ReplayMemoryTest {
  static final int CLASSES = 10_000;
  static final int SESSIONS = 20;
  static final String HEAP = "160m";

  @TempDir Path dir;

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void tenThousandClassesReplayInASmallHeap() throws Exception {
    Path log = dir.resolve("classes.csv");
    int statements = write(log);
    Path out = dir.resolve("classes.json");
    TargetSpec t = TestServer.target();
    String url =
        t.jdbcUrl()
            + (t.user() == null
                ? ""
                : (t.jdbcUrl().contains("?") ? "&" : "?") + "user=" + t.user());
    List<String> cmd = TestJava.command();
    cmd.add("-Xmx" + HEAP);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(
        List.of(
            "replay",
            log.toString(),
            "--target",
            url,
            "--speed",
            "max",
            "--progress",
            "1h",
            "-o",
            out.toString()));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    if (t.password() != null) {
      // never on a command line
      pb.environment().put("PGPASSWORD", t.password().reveal());
    }
    Process p = pb.start();
    String console = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), console);
    assertEquals(0, p.exitValue(), console);
    JsonNode r = Json.MAPPER.readTree(out.toFile());
    assertEquals(CLASSES, r.get("classes").size(), "every class kept");
    assertEquals(statements, r.get("statementFidelity").get("compared").asLong());
    assertEquals(0, r.get("statementFidelity").get("divergent").asLong());
  }

  /** SESSIONS sessions taking turns over the classes, two statements of each class. */
  private static int write(Path log) throws Exception {
    int n = 0;
    try (BufferedWriter w = Files.newBufferedWriter(log)) {
      for (int s = 0; s < SESSIONS; s++) {
        w.write(line(0, s, "connection authorized: user=postgres database=app"));
      }
      for (int c = 0; c < CLASSES; c++) {
        for (int k = 0; k < 2; k++) {
          String sql = "SELECT " + (c * 2 + k) + " AS c" + c;
          w.write(line(1 + c, (c + k) % SESSIONS, "statement: " + sql));
          n++;
        }
      }
      for (int s = 0; s < SESSIONS; s++) {
        w.write(line(CLASSES + 1, s, "disconnection: session time: 0:00:01.000"));
      }
    }
    return n;
  }

  private static String line(int ms, int session, String message) {
    String time =
        String.format(
            Locale.ROOT,
            "2024-05-01 12:%02d:%02d.%03d UTC",
            ms / 60_000,
            ms / 1000 % 60,
            ms % 1000);
    return time
        + ",\"postgres\",\"app\",100,,"
        + String.format(Locale.ROOT, "5f00.%x", session)
        + ",1,,,,0,LOG,00000,\""
        + message.replace("\"", "\"\"")
        + "\",,,,,,,,,\"gen\",\"client backend\",,0"
        + "\n";
  }
}
