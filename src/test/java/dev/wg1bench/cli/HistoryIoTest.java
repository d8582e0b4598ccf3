package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.history.store.HistoryStore;
import dev.wg1bench.history.store.HistoryStores;
import dev.wg1bench.history.store.StoredMetric;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code history import} and {@code history export}: Otava's files in, every format out, each
 * export parsed the way the tool that reads it does (field names and types per its docs), and the
 * Otava formats read back to the same series.
 */
class HistoryIoTest {
  @TempDir Path dir;

  /** Otava's example test file, in its own time format (a +0100 offset) and field order. */
  static final String OTAVA_CSV =
      """
      time,commit,metric1,metric2
      2024.01.01 3:00:00 +0100,aaa0,154023,10.43
      2024.01.02 3:00:00 +0100,aaa1,138455,10.23
      2024.01.03 3:00:00 +0100,aaa2,143112,10.29
      2024.01.04 3:00:00 +0100,aaa3,149190,10.91
      2024.01.05 3:00:00 +0100,aaa4,132098,10.34
      2024.01.06 3:00:00 +0100,aaa5,151344,10.69
      2024.01.07 3:00:00 +0100,aaa6,155145,9.23
      2024.01.08 3:00:00 +0100,aaa7,148889,9.11
      """;

  private Path file(String name, String text) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, text);
    return f;
  }

  /**
   * Makes {@code home} the home of the default history, for the commands (run in this JVM) and the
   * store alike: each history of a test is the default one under a home of its own.
   */
  private static void home(Path home) {
    System.setProperty("wg1bench.home", home.toString());
  }

  /** The command with {@code home} the home of its default history. */
  private static Cli run(Path home, String... args) {
    home(home);
    return Cli.run(args);
  }

  @AfterEach
  void noHome() {
    System.clearProperty("wg1bench.home");
  }

  private static List<Series> series(Path home) throws Exception {
    home(home);
    try (HistoryStore s = HistoryStores.open("")) {
      return s.series(null);
    }
  }

  private static int runs(Path home) throws Exception {
    home(home);
    try (HistoryStore s = HistoryStores.open("")) {
      return s.runs().size();
    }
  }

  @Test
  void otavaCsvBecomesOneRunPerRowAndOneSeriesPerMetric() throws Exception {
    Path h = dir.resolve("h");
    home(h);
    Cli r =
        Cli.run(
            "history",
            "import",
            file("sample.csv", OTAVA_CSV).toString(),
            "--format",
            "otava-csv",
            "--series",
            "local.sample",
            "--lower-is-better",
            "metric2");
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("imported 8 runs"), r.out);
    List<Series> ss = series(h);
    assertEquals(
        List.of("local.sample/metric1", "local.sample/metric2"),
        ss.stream().map(Series::name).toList());
    Series m1 = ss.get(0);
    assertTrue(m1.higherIsBetter());
    assertFalse(ss.get(1).higherIsBetter(), "--lower-is-better metric2");
    assertEquals(8, m1.points().size());
    SeriesPoint first = m1.points().get(0);
    assertEquals(154023, first.value());
    assertEquals("aaa0", first.commit());
    assertEquals(Instant.parse("2024-01-01T02:00:00Z"), first.time(), "03:00 +0100 is 02:00 UTC");
    assertEquals("aaa7", m1.points().get(7).commit());
    assertEquals(9.11, ss.get(1).points().get(7).value());
  }

  @Test
  void otavaCsvAndJsonExportsReadBackToTheSameSeries() throws Exception {
    Path h = dir.resolve("h");
    home(h);
    Cli r =
        Cli.run(
            "history",
            "import",
            file("sample.csv", OTAVA_CSV).toString(),
            "--format",
            "otava-csv",
            "--series",
            "local.sample");
    assertEquals(0, r.exit, r.toString());
    List<Series> before = series(h);

    Path csv = dir.resolve("out.csv");
    r = run(h, "history", "export", "--format", "otava-csv", "-o", csv.toString());
    assertEquals(0, r.exit, r.toString());
    // as Otava's CSV importer reads it: a header, then per row a time, attributes, and a float
    // in every metric column
    List<List<String>> rows = csvRows(csv);
    assertEquals(List.of("time", "commit", "run", "metric1", "metric2"), rows.get(0));
    assertEquals(9, rows.size());
    for (List<String> row : rows.subList(1, rows.size())) {
      assertEquals(5, row.size());
      Double.parseDouble(row.get(3));
      Double.parseDouble(row.get(4));
      assertTrue(
          row.get(0).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\+0000"), row.get(0));
    }
    assertTrue(r.out.contains("time_column: time"), "the otava.yaml test is printed: " + r.out);

    Path h2 = dir.resolve("h2");
    r =
        run(
            h2,
            "history",
            "import",
            csv.toString(),
            "--format",
            "otava-csv",
            "--series",
            "local.sample");
    assertEquals(0, r.exit, r.toString());
    assertSameSeries(before, series(h2));

    Path json = dir.resolve("out.json");
    r = run(h, "history", "export", "--format", "otava-json", "-o", json.toString());
    assertEquals(0, r.exit, r.toString());
    // as Otava's JSON importer reads it: an array; per entry an integer timestamp, metrics with a
    // name and a numeric value in the same order, and the same attribute keys in every entry
    JsonNode a = Json.MAPPER.readTree(json.toFile());
    assertTrue(a.isArray());
    assertEquals(8, a.size());
    Set<Set<String>> keys = new HashSet<>();
    for (JsonNode e : a) {
      assertTrue(e.get("timestamp").isIntegralNumber(), e.toString());
      assertEquals("metric1", e.get("metrics").get(0).get("name").asText());
      assertTrue(e.get("metrics").get(0).get("value").isNumber());
      assertEquals("metric2", e.get("metrics").get(1).get("name").asText());
      Set<String> k = new HashSet<>();
      e.get("attributes").fieldNames().forEachRemaining(k::add);
      keys.add(k);
    }
    assertEquals(Set.of(Set.of("commit", "run")), keys);
    assertEquals(1704074400L, a.get(0).get("timestamp").asLong());

    Path h3 = dir.resolve("h3");
    r =
        run(
            h3,
            "history",
            "import",
            json.toString(),
            "--format",
            "otava-json",
            "--series",
            "local.sample");
    assertEquals(0, r.exit, r.toString());
    assertSameSeries(before, series(h3));
  }

  private static void assertSameSeries(List<Series> a, List<Series> b) {
    assertEquals(a.stream().map(Series::name).toList(), b.stream().map(Series::name).toList());
    for (int i = 0; i < a.size(); i++) {
      List<SeriesPoint> x = a.get(i).points();
      List<SeriesPoint> y = b.get(i).points();
      assertEquals(x.size(), y.size());
      for (int j = 0; j < x.size(); j++) {
        assertEquals(x.get(j).value(), y.get(j).value(), a.get(i).name() + " " + j);
        assertEquals(x.get(j).commit(), y.get(j).commit());
        assertEquals(x.get(j).time(), y.get(j).time());
      }
    }
  }

  /** The stored runs' ids of {@link #measuredHistory()}, oldest first. */
  private final List<String> ids = new ArrayList<>();

  /** A history of wg1bench-like runs: tps with its interval, p99 without. */
  private Path measuredHistory() throws Exception {
    Path h = dir.resolve("measured");
    home(h);
    try (HistoryStore s = HistoryStores.open("")) {
      for (int i = 0; i < 3; i++) {
        double tps = 500 + 10 * i;
        StoredRun stored =
            s.append(
                    new StoredRun(
                        null,
                        Instant.parse("2026-11-0" + (i + 1) + "T10:00:00Z"),
                        "run",
                        Map.of("commit", "c" + i, "branch", "main"),
                        List.of(
                            new StoredMetric(
                                "tpcb clients=4", "tps", true, tps, tps - 20, tps + 20),
                            new StoredMetric(
                                "tpcb clients=4", "p99", false, 20 - i, Double.NaN, Double.NaN))))
                .run();
        ids.add(stored.id());
      }
    }
    return h;
  }

  @Test
  void bencherGetsTheLatestRunWithItsIntervalAsLowerAndUpperValues() throws Exception {
    Path h = measuredHistory();
    home(h);
    Cli r = Cli.run("history", "export", "--format", "bencher");
    assertEquals(0, r.exit, r.toString());
    // BMF: benchmark name -> measure -> {value (required), lower_value, upper_value}: numbers
    JsonNode bmf = Json.MAPPER.readTree(r.out);
    assertEquals(List.of("tpcb clients=4"), names(bmf));
    JsonNode b = bmf.get("tpcb clients=4");
    assertEquals(Set.of("tps", "p99"), Set.copyOf(names(b)));
    JsonNode tps = b.get("tps");
    assertTrue(tps.get("value").isNumber() && tps.get("lower_value").isNumber());
    assertEquals(520, tps.get("value").asDouble(), "the latest run");
    assertEquals(500, tps.get("lower_value").asDouble());
    assertEquals(540, tps.get("upper_value").asDouble());
    assertFalse(b.get("p99").has("lower_value"), "no interval, no bounds");
    assertTrue(r.err.contains("run " + ids.get(2) + " of 2026-11-03T10:00:00Z"), r.err);

    r = run(h, "history", "export", "--format", "bencher", "--run", ids.get(0));
    assertEquals(
        500, Json.MAPPER.readTree(r.out).get("tpcb clients=4").get("tps").get("value").asDouble());
  }

  @Test
  void githubActionBenchmarkGetsOneFilePerDirectionWithTheIntervalAsRange() throws Exception {
    Path h = measuredHistory();
    Path out = dir.resolve("bench.json");
    home(h);
    Cli r =
        Cli.run("history", "export", "--format", "github-action-benchmark", "-o", out.toString());
    assertEquals(0, r.exit, r.toString());
    // the action's custom tools: an array of {name, unit, value, range?, extra?}; value a number,
    // the others strings
    JsonNode bigger = Json.MAPPER.readTree(dir.resolve("bench-customBiggerIsBetter.json").toFile());
    JsonNode smaller =
        Json.MAPPER.readTree(dir.resolve("bench-customSmallerIsBetter.json").toFile());
    assertEquals(1, bigger.size());
    JsonNode tps = bigger.get(0);
    assertEquals("tpcb clients=4/tps", tps.get("name").asText());
    assertEquals("ops/s", tps.get("unit").asText());
    assertTrue(tps.get("value").isNumber());
    assertEquals(520, tps.get("value").asDouble());
    assertEquals("\u00b1 20", tps.get("range").asText());
    assertTrue(tps.get("extra").asText().contains("commit c2"), tps.toString());
    assertEquals(1, smaller.size());
    assertEquals("tpcb clients=4/p99", smaller.get(0).get("name").asText());
    assertEquals("ms", smaller.get(0).get("unit").asText());
    assertFalse(smaller.get(0).has("range"));

    // both directions cannot go to one standard output
    r = run(h, "history", "export", "--format", "github-action-benchmark");
    assertEquals(2, r.exit, r.toString());
    assertEquals(1, r.err.strip().lines().count(), r.toString());
    r = run(h, "history", "export", "--format", "github-action-benchmark", "--series", "*/tps");
    assertEquals(0, r.exit, r.toString());
    assertEquals(1, Json.MAPPER.readTree(r.out).size());
  }

  @Test
  void plainCsvHasOneRowPerRunAndSeries() throws Exception {
    Path h = measuredHistory();
    home(h);
    Cli r = Cli.run("history", "export", "--format", "csv");
    assertEquals(0, r.exit, r.toString());
    Path f = file("plain.csv", r.out);
    List<List<String>> rows = csvRows(f);
    assertEquals(List.of("run", "time", "commit", "series", "value", "low", "high"), rows.get(0));
    assertEquals(1 + 3 * 2, rows.size());
    assertEquals(
        List.of(ids.get(0), "2026-11-01T10:00:00Z", "c0", "tpcb clients=4/p99", "20", "", ""),
        rows.get(1));
    assertEquals(
        List.of(
            ids.get(0), "2026-11-01T10:00:00Z", "c0", "tpcb clients=4/tps", "500", "480", "520"),
        rows.get(2));
  }

  @Test
  void aWg1benchResultIsStoredAsHistoryAddStoresIt() throws Exception {
    Path json = dir.resolve("run.json");
    dev.wg1bench.report.JsonReport.write(dev.wg1bench.report.ReportFixtures.run(), json);
    Path h = dir.resolve("h");
    Cli r = run(h, "history", "import", json.toString(), "--format", "wg1bench");
    assertEquals(0, r.exit, r.toString());
    assertEquals(1, runs(h));
    List<Series> ss = series(h);
    assertTrue(ss.stream().anyMatch(s -> s.metric().equals("tps")), ss.toString());
    r = run(h, "history", "import", json.toString(), "--format", "wg1bench", "--series", "x");
    assertEquals(2, r.exit, r.toString());
    assertTrue(r.err.contains("a wg1bench result names its own series"), r.err);
    assertEquals(1, runs(h), "nothing more stored");
  }

  @Test
  void theDocumentedImportExportAndReportLinesRunAsPrinted() throws Exception {
    List<String> failures =
        new ReadmeCommands(dir)
            .runAll(
                c ->
                    c.startsWith("history import")
                        || c.startsWith("history export")
                        || c.startsWith("history report"));
    assertEquals(List.of(), failures, String.join("\n\n", failures));
    assertTrue(
        ReadmeCommands.documented().stream()
                .filter(d -> d.command().startsWith("history import"))
                .count()
            >= 1,
        "the guide's import line is found");
  }

  private static List<String> names(JsonNode o) {
    List<String> out = new ArrayList<>();
    Iterator<String> it = o.fieldNames();
    it.forEachRemaining(out::add);
    return out;
  }

  static List<List<String>> csvRows(Path f) throws Exception {
    List<List<String>> rows = new ArrayList<>();
    try (MappingIterator<List<String>> it =
        new CsvMapper()
            .enable(CsvParser.Feature.WRAP_AS_ARRAY)
            .readerForListOf(String.class)
            .readValues(f.toFile())) {
      it.forEachRemaining(rows::add);
    }
    return rows;
  }

  // -- bad input: one line each, exit 2, nothing stored

  private void rejected(String expected, String... args) throws Exception {
    Path h = dir.resolve("bad");
    home(h);
    Cli r = Cli.run(args);
    assertEquals(2, r.exit, r.toString());
    assertEquals(1, r.err.strip().lines().count(), "one line: " + r);
    assertTrue(
        Pattern.compile(expected).matcher(r.err.strip()).find(),
        "expected /" + expected + "/ in: " + r.err);
    assertEquals(0, runs(h), "nothing stored");
  }

  private String[] importing(Path f, String format) {
    return new String[] {"history", "import", f.toString(), "--format", format, "--series", "s"};
  }

  @Test
  void aBadRowNamesFileLineAndColumnAndStoresNothing() throws Exception {
    Path f = file("bad.csv", OTAVA_CSV.replace("149190", "14x190"));
    rejected(
        Pattern.quote(f + ":5: column 3 (metric1): '14x190' is not a number"),
        importing(f, "otava-csv"));
    Path t = file("badtime.csv", OTAVA_CSV.replace("2024.01.07 3:00:00", "yesterday"));
    rejected(
        Pattern.quote(t + ":8: column 1 (time): 'yesterday +0100' is not a time"),
        importing(t, "otava-csv"));
    Path n = file("short.csv", OTAVA_CSV.replace(",aaa3,", ","));
    rejected(
        Pattern.quote(n + ":5: 3 values for the header's 4 columns"), importing(n, "otava-csv"));
  }

  @Test
  void aFileOfAnotherKindIsOneLine() throws Exception {
    Path json = file("o.json", "[{\"timestamp\": 1, \"metrics\": [], \"attributes\": {}}]");
    rejected(
        "o.json: not Otava CSV: the file is JSON \\(an Otava JSON file is imported with"
            + " --format otava-json\\)",
        importing(json, "otava-csv"));
    Path result = file("result.json", "{\"tool\": \"wg1bench\", \"trials\": []}");
    rejected(
        "result.json: not Otava CSV: the file is a wg1bench result file",
        importing(result, "otava-csv"));
    rejected(
        "result.json: not Otava JSON: the file is a wg1bench result file",
        importing(result, "otava-json"));
    Path csv = file("s.csv", OTAVA_CSV);
    rejected("s.csv: not Otava JSON: the file is not JSON", importing(csv, "otava-json"));
    Path noTime = file("notime.csv", OTAVA_CSV.replace("time,", "when,"));
    rejected(
        "notime.csv:1: no time column 'time' in the header \\(when, commit, metric1,"
            + " metric2\\); name it with --time-column",
        importing(noTime, "otava-csv"));
    Path empty = file("empty.csv", "");
    rejected("empty.csv: empty file: nothing to import", importing(empty, "otava-csv"));
    rejected("empty.csv: empty file: nothing to import", importing(empty, "otava-json"));
    Path badJson =
        file(
            "bad.json",
            "[\n  {\"timestamp\": 1, \"metrics\": [{\"name\": \"m\", \"value\": 1}]},"
                + "\n  {\"timestamp\": \"x\", \"metrics\": []}\n]");
    rejected(
        Pattern.quote(badJson + ":3:3: run 2: \"timestamp\" must be a number"),
        importing(badJson, "otava-json"));
  }

  @Test
  void unknownFormatsAndEmptySelectionsAreOneLine() throws Exception {
    Path csv = file("s.csv", OTAVA_CSV);
    rejected(
        "--format xml: unknown; valid: otava-csv, otava-json, wg1bench", importing(csv, "xml"));
    rejected(
        "--format xml: unknown; valid: otava-csv, otava-json, bencher,"
            + " github-action-benchmark, csv",
        "history",
        "export",
        "--format",
        "xml");
    rejected("has no series yet", "history", "export", "--format", "csv");
    Path h = dir.resolve("bad");
    assertEquals(
        0,
        run(h, "history", "import", csv.toString(), "--format", "otava-csv", "--series", "s").exit);
    home(h);
    Cli r = Cli.run("history", "export", "--format", "csv", "--series", "nope*");
    assertEquals(2, r.exit, r.toString());
    assertTrue(
        r.err
            .strip()
            .matches(
                "wg1bench: --series nope\\*: no series matches in the history .*"
                    + Pattern.quote(h.toString())
                    + ".* \\('history list' shows them\\)"),
        r.err);
    r = run(h, "history", "report", "--html", dir.resolve("rep").toString(), "--series", "nope*");
    assertEquals(2, r.exit, r.toString());
    assertFalse(Files.exists(dir.resolve("rep")), "nothing written");
  }
}
