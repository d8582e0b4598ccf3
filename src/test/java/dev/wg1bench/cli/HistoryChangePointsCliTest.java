package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.wg1bench.history.store.HistoryStore;
import dev.wg1bench.history.store.HistoryStores;
import dev.wg1bench.history.store.StoredMetric;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.json.Json;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code history analyze} and {@code history check} on a history with runs: the change point at the
 * run where the step is, each format parsed back, the gate's exit codes, bad input in one line.
 */
class HistoryChangePointsCliTest {
  @TempDir Path home;

  @BeforeEach
  void ownHome() {
    System.setProperty("wg1bench.home", home.toString());
  }

  @AfterEach
  void noHome() {
    System.clearProperty("wg1bench.home");
  }

  /** The ids the stored runs got, in the order appended. */
  private final List<String> ids = new java.util.ArrayList<>();

  /**
   * A history of {@code n} runs whose tps steps by {@code factor} from run {@code stepAt} (1-based)
   * on, with a p99 that does not change and a short series of the last run only.
   */
  String history(int n, int stepAt, double factor, long seed) throws Exception {
    String location = "";
    try (HistoryStore h = HistoryStores.open(location, home)) {
      Random r = new Random(seed);
      for (int i = 1; i <= n; i++) {
        double tps = 1000 * (i >= stepAt ? factor : 1) * (1 + 0.01 * r.nextGaussian());
        double p99 = 5 * (1 + 0.01 * r.nextGaussian());
        List<StoredMetric> m =
            new java.util.ArrayList<>(
                List.of(
                    new StoredMetric("tpcb", "tps", true, tps, tps - 15, tps + 15),
                    new StoredMetric("tpcb", "p99", false, p99, Double.NaN, Double.NaN)));
        if (i == n) {
          m.add(new StoredMetric("late", "tps", true, tps, Double.NaN, Double.NaN));
        }
        ids.add(
            h.append(
                    new StoredRun(
                        null,
                        Instant.parse("2026-11-01T00:00:00Z").plusSeconds(3600L * i),
                        "run",
                        Map.of("commit", "c" + i),
                        m))
                .run()
                .id());
      }
    }
    return location;
  }

  @Test
  void analyzeFindsTheStepAtTheRunWhereItStartsWithItsSignAndInterval() throws Exception {
    String h = history(12, 7, 0.8, 1);
    Cli r = Cli.run("history", "analyze", "--history", h, "--series", "tpcb/*", "--format", "json");
    assertEquals(0, r.exit, r.toString());
    JsonNode all = Json.MAPPER.readTree(r.out);
    assertTrue(all.isArray(), r.out);
    JsonNode tps = null;
    for (JsonNode s : all) {
      if (s.get("name").asText().equals("tpcb/tps")) {
        tps = s;
      } else {
        assertEquals("tpcb/p99", s.get("name").asText());
        assertEquals(0, s.get("changePoints").size(), r.out);
      }
    }
    JsonNode cps = tps.get("changePoints");
    assertEquals(1, cps.size(), r.out);
    JsonNode c = cps.get(0);
    assertEquals(6, c.get("index").asInt(), "0-based index of run 7");
    assertEquals("c7", c.get("commit").asText());
    assertEquals("2026-11-01T07:00:00Z", c.get("time").asText());
    assertEquals("regression", c.get("direction").asText());
    double change = c.get("change").get("relative").asDouble();
    assertEquals(-0.2, change, 0.03);
    assertTrue(c.get("change").get("low").asDouble() <= -0.2, r.out);
    assertTrue(c.get("change").get("high").asDouble() >= -0.2, r.out);
    assertTrue(c.get("p").asDouble() < 0.001, r.out);
    JsonNode before = c.get("before");
    assertEquals(6, before.get("points").asInt());
    assertTrue(
        before.get("low").asDouble() < before.get("mean").asDouble()
            && before.get("mean").asDouble() < before.get("high").asDouble(),
        r.out);
    assertEquals(6, c.get("after").get("points").asInt());
  }

  @Test
  void tableAndCsvCarryTheSameChangePoint() throws Exception {
    String h = history(12, 7, 0.8, 2);
    Cli t = Cli.run("history", "analyze", "--history", h, "--series", "tpcb/tps");
    assertEquals(0, t.exit, t.toString());
    assertTrue(t.out.contains("tpcb/tps (12 runs): 1 change point"), t.out);
    assertTrue(t.out.contains("#6 run " + ids.get(6) + " commit c7"), t.out);
    assertTrue(t.out.contains("regression"), t.out);
    Cli c =
        Cli.run("history", "analyze", "--history", h, "--series", "tpcb/tps", "--format", "csv");
    assertEquals(0, c.exit, c.toString());
    try (MappingIterator<Map<String, String>> rows =
        new CsvMapper()
            .readerFor(Map.class)
            .with(CsvSchema.emptySchema().withHeader())
            .readValues(c.out)) {
      List<Map<String, String>> all = rows.readAll();
      assertEquals(1, all.size(), c.out);
      assertEquals("tpcb/tps", all.get(0).get("series"));
      assertEquals("6", all.get(0).get("index"));
      assertEquals("c7", all.get(0).get("commit"));
      assertTrue(Double.parseDouble(all.get(0).get("change")) < -0.15, c.out);
      assertTrue(Double.parseDouble(all.get(0).get("p")) < 0.001, c.out);
    }
  }

  @Test
  void checkFailsOnTheRegressingRunAndPassesWithoutChange() throws Exception {
    String regressed = history(7, 7, 0.8, 3);
    Cli bad = Cli.run("history", "check", "--history", regressed, "--series", "tpcb/*");
    assertEquals(HistoryCheckCommand.REGRESSION, bad.exit, bad.toString());
    List<String> lines = bad.out.lines().filter(l -> l.startsWith("REGRESSION")).toList();
    assertEquals(1, lines.size(), bad.out);
    assertTrue(
        lines.get(0).startsWith("REGRESSION tpcb/tps: #6 run " + ids.get(6) + " commit c7"),
        bad.out);

    String flat = history(8, 99, 1, 4);
    Cli ok = Cli.run("history", "check", "--history", flat, "--series", "tpcb/*");
    assertEquals(0, ok.exit, ok.toString());
    assertFalse(ok.out.contains("REGRESSION"), ok.out);
    assertTrue(ok.out.contains("2 series, 0 regressed, 0 improved"), ok.out);
  }

  @Test
  void checkPassesOnAnImprovementAndSaysSo() throws Exception {
    String better = history(7, 7, 1.25, 5);
    Cli r = Cli.run("history", "check", "--history", better, "--series", "tpcb/tps");
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.startsWith("improvement tpcb/tps: #6 run " + ids.get(6)), r.out);
  }

  @Test
  void aLatencyRisingIsARegression() throws Exception {
    String h = "";
    try (HistoryStore s = HistoryStores.open(h, home)) {
      Random r = new Random(6);
      for (int i = 1; i <= 8; i++) {
        double p99 = (i == 8 ? 7 : 5) * (1 + 0.01 * r.nextGaussian());
        s.append(
            new StoredRun(
                null,
                Instant.ofEpochSecond(i),
                "run",
                Map.of(),
                List.of(new StoredMetric("tpcb", "p99", false, p99, Double.NaN, Double.NaN))));
      }
    }
    Cli c = Cli.run("history", "check", "--history", h);
    assertEquals(HistoryCheckCommand.REGRESSION, c.exit, c.toString());
    assertTrue(c.out.startsWith("REGRESSION tpcb/p99: #7 run "), c.out);
  }

  @Test
  void badInputIsOneLineNamingTheOptionAndExits2() throws Exception {
    String h = history(12, 7, 0.8, 7);
    String[][] cases = {
      {"--series", "late/tps"},
      {"--series", "nope*"},
      {"--p", "0"},
      {"--p", "1.5"},
      {"--window", "1"},
      {"--window", "abc"},
      {"--min-segment", "0"},
      {"--magnitude", "-1"},
    };
    String[] expected = {
      "series late/tps has 1 run, fewer than the 2",
      "--series 'nope*': no series in",
      "--p must be between 0 and 1, got 0.0",
      "--p must be between 0 and 1, got 1.5",
      "--window must be between 2 and 2000, got 1",
      "'--window'",
      "--min-segment must be between 1 and 10000, got 0",
      "--magnitude must be a fraction or a percentage of at least 0, got '-1'",
    };
    for (int i = 0; i < cases.length; i++) {
      String[] args = new String[4 + cases[i].length];
      args[0] = "history";
      args[1] = "analyze";
      args[2] = "--history";
      args[3] = h;
      System.arraycopy(cases[i], 0, args, 4, cases[i].length);
      Cli r = Cli.run(args);
      assertEquals(2, r.exit, String.join(" ", cases[i]) + "\n" + r);
      assertEquals(1, r.err.strip().lines().count(), r.toString());
      assertTrue(r.err.contains(expected[i]), r.toString());
      assertFalse(r.err.contains("Exception"), r.toString());
    }
    Cli check = Cli.run("history", "check", "--history", h, "--series", "late/*");
    assertEquals(2, check.exit, check.toString());
    assertTrue(check.err.contains("series late/tps has 1 run, fewer than the 3"), check.toString());
  }

  @Test
  void manySeriesTooShortAreOneShortLine() throws Exception {
    try (HistoryStore s = HistoryStores.open("", home)) {
      List<StoredMetric> m = new java.util.ArrayList<>();
      for (int c = 1; c <= 40; c++) {
        m.add(new StoredMetric("config" + c, "tps", true, 1000, Double.NaN, Double.NaN));
      }
      s.append(new StoredRun(null, Instant.ofEpochSecond(1), "run", Map.of(), m));
    }
    Cli r = Cli.run("history", "check", "--history", "");
    assertEquals(2, r.exit, r.toString());
    assertEquals(1, r.err.strip().lines().count(), r.toString());
    assertTrue(r.err.contains("series config1/tps has 1 run, fewer than the 3"), r.err);
    assertTrue(r.err.contains("and 37 more series as short"), r.err);
    assertTrue(r.err.length() < 400, r.err);
  }

  @Test
  void aShortSeriesAmongOthersIsANoteAndSkipped() throws Exception {
    String h = history(12, 7, 0.8, 8);
    Cli r = Cli.run("history", "analyze", "--history", h);
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.err.contains("note: skipped series late/tps has 1 run"), r.toString());
    assertTrue(r.out.contains("tpcb/tps (12 runs): 1 change point"), r.out);
    assertFalse(r.out.contains("late/tps"), r.out);
  }

  @Test
  void anUnreachableHistoryExits1InOneLine() {
    Cli r = Cli.run("history", "analyze", "--history", "jdbc:postgresql://127.0.0.1:1/nowhere");
    assertEquals(1, r.exit, r.toString());
    assertEquals(1, r.err.strip().lines().count(), r.toString());
    assertTrue(
        r.err.startsWith("wg1bench: ") && r.err.contains("127.0.0.1:1/nowhere"), r.toString());
    assertFalse(r.err.contains("Exception"), r.toString());
    Cli bad = Cli.run("history", "analyze", "--history", "/some/folder");
    assertEquals(2, bad.exit, bad.toString());
    assertTrue(
        bad.err.contains("--history '/some/folder' is not a history location"), bad.toString());
  }

  @Test
  void theReportDrawsAnalyzesChangePoints() throws Exception {
    history(12, 7, 0.8, 1);
    Path dir = home.resolve("report");
    Cli r = Cli.run("history", "report", "--html", dir.toString(), "--series", "tpcb/tps");
    assertEquals(0, r.exit, r.toString());
    String index = java.nio.file.Files.readString(dir.resolve("index.html"));
    // the latest change: at run 7, with its commit and a drop of about 20%
    assertTrue(index.contains("7 (id " + ids.get(6) + ")"), index);
    assertTrue(index.contains("<code>c7"), index);
    assertTrue(index.matches("(?s).*class=\"n bad\">-(19|20)\\.\\d%.*"), index);
  }
}
