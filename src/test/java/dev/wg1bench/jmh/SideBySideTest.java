package dev.wg1bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestJava;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two wg1bench processes on one host both run to the end: JMH's machine-wide lock file in the temp
 * directory once made the second fail with "Unable to acquire the JMH lock".
 */
class SideBySideTest {
  @TempDir Path tmp;

  private Process start(String name) throws Exception {
    List<String> cmd = TestJava.command();
    cmd.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
            "dev.wg1bench.cli.Main",
            "--target",
            TestServer.url(),
            "--workload",
            "select_only",
            "--clients",
            "2",
            "--warmup",
            "1s",
            "--duration",
            "4s",
            "--iterations",
            "2",
            "--forks",
            "1",
            "--output",
            tmp.resolve(name + ".json").toString()));
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(tmp.resolve(name + ".log").toFile())
        .start();
  }

  @Test
  void twoRunsAtTheSameTimeBothSucceed() throws Exception {
    PgbenchData.reset();
    Process a = start("a");
    Process b = start("b");
    try {
      assertTrue(a.waitFor(5, TimeUnit.MINUTES) && b.waitFor(1, TimeUnit.MINUTES), "runs hung");
    } finally {
      a.destroyForcibly();
      b.destroyForcibly();
    }
    String logA = Files.readString(tmp.resolve("a.log"));
    String logB = Files.readString(tmp.resolve("b.log"));
    assertEquals(0, a.exitValue(), logA);
    assertEquals(0, b.exitValue(), logB);
    JsonNode ta = new ObjectMapper().readTree(tmp.resolve("a.json").toFile()).get("trials").get(0);
    JsonNode tb = new ObjectMapper().readTree(tmp.resolve("b.json").toFile()).get("trials").get(0);
    assertTrue(ta.get("measurement").get("ops").asLong() > 0, logA);
    assertTrue(tb.get("measurement").get("ops").asLong() > 0, logB);
    // they really ran side by side, not one after the other
    Instant startA = Instant.parse(ta.get("startedAt").asText());
    Instant endA = Instant.parse(ta.get("finishedAt").asText());
    Instant startB = Instant.parse(tb.get("startedAt").asText());
    Instant endB = Instant.parse(tb.get("finishedAt").asText());
    assertTrue(
        startA.isBefore(endB) && startB.isBefore(endA),
        "trials did not overlap: " + startA + ".." + endA + " and " + startB + ".." + endB);
  }
}
