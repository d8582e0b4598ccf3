package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

/**
 * advise --rtt: every claim at every round-trip time, its trials at that RTT, the sweep's table.
 */
class AdviseRttTest {
  @TempDir Path tmp;

  @Test
  void eachClaimIsAskedAtEachRttAndReportedSideBySide() throws Exception {
    PgbenchData.reset();
    Path dir = Files.createDirectories(tmp.resolve("advice"));
    for (String name : List.of("one-vs-ten", "ten-vs-one")) {
      boolean ten = name.startsWith("ten");
      Files.writeString(
          dir.resolve(name + ".properties"),
          "claim=c\nseed=test\ncommon=--clients 1\nbaseline=--workload "
              + (ten ? "write10" : "update1")
              + "\ntreatment=--workload "
              + (ten ? "update1" : "write10")
              + "\n");
    }
    Path json = tmp.resolve("rtt.json");
    Cli r =
        Cli.run(
            "advise",
            "--target",
            TestServer.url(),
            "--advice-dir",
            dir.toString(),
            "--rtt",
            "0,1ms",
            "--blocks",
            "2",
            "--forks",
            "0",
            "--duration",
            "300ms",
            "--warmup",
            "0",
            "--iterations",
            "1",
            "--output",
            json.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode run = new ObjectMapper().readTree(json.toFile());

    // 2 claims x 2 RTTs, each its own claim in the run
    List<String> names = new ArrayList<>();
    run.get("advice").forEach(a -> names.add(a.get("name").asText()));
    assertEquals(
        List.of("one-vs-ten@0", "one-vs-ten@1ms", "ten-vs-one@0", "ten-vs-one@1ms"), names);
    // every trial ran at the RTT its claim's name says: 2 blocks x 2 arms each
    for (JsonNode t : run.get("trials")) {
      String advice = t.get("point").get("advice").asText();
      double ms = t.get("client").get("rttMs").asDouble();
      assertEquals(advice.endsWith("@1ms") ? 1.0 : 0.0, ms, 1e-9, advice);
    }
    assertEquals(16, run.get("trials").size());

    JsonNode sweep = run.get("rttSweep");
    assertEquals(2, sweep.size(), sweep.toString());
    for (int i = 0; i < 2; i++) {
      JsonNode row = sweep.get(i);
      assertEquals(i == 0 ? "one-vs-ten" : "ten-vs-one", row.get("advice").asText());
      JsonNode cells = row.get("byRtt");
      assertEquals(2, cells.size());
      assertEquals("0", cells.get(0).get("rtt").asText());
      assertEquals("1ms", cells.get(1).get("rtt").asText());
      for (JsonNode c : cells) {
        assertTrue(AdviseTest.VERDICTS.contains(c.get("verdict").asText()), c.toString());
        assertTrue(c.get("ratio").asDouble() > 0, c.toString());
      }
      assertTrue(row.get("changes").isArray());
    }
    assertTrue(r.out.contains("per round-trip time"), r.out);
    assertTrue(r.out.contains("one-vs-ten (") && r.out.contains("rtt 1ms"), r.out);
  }

  @Test
  void aBadRttIsOneLineNamingTheOption() {
    CliErrorsTest.assertOneLine(
        Cli.run("advise", "--rtt", "0,-1ms"), 2, "--rtt '-1ms' is negative; use e.g.");
    CliErrorsTest.assertOneLine(Cli.run("advise", "--rtt", "2 parsecs"), 2, "--rtt '2 parsecs'");
    CliErrorsTest.assertOneLine(Cli.run("advise", "--rtt", "0,0us"), 2, "--rtt lists 0 twice");
  }
}
