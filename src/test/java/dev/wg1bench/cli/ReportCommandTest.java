package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import dev.wg1bench.json.Json;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.report.ReportFixtures;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code wg1bench report}: what it writes, and one-line errors with exit 2 for bad input. */
class ReportCommandTest {
  @TempDir Path dir;

  @Test
  void writesThePageThePlotsAndTheCsv() {
    Path json = dir.resolve("run.json");
    JsonReport.write(ReportFixtures.run(), json);
    Path out = dir.resolve("report");
    Cli r = Cli.run("report", json.toString(), "--html", out.toString());
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("report written to " + out.resolve("index.html")), r.toString());
    assertTrue(Files.exists(out.resolve("index.html")));
    assertTrue(Files.exists(out.resolve("results.csv")));
    assertTrue(Files.exists(out.resolve("w1-tpcb_like-tps.png")));
  }

  @Test
  void baselineChoosesTheRatiosAndABadOneIsAUsageError() throws Exception {
    Path json = dir.resolve("run.json");
    JsonReport.write(ReportFixtures.run(), json);
    Path out = dir.resolve("report");
    Cli r =
        Cli.run(
            "report", json.toString(), "--html", out.toString(), "--baseline", "queryMode=simple");
    assertEquals(0, r.exit, r.toString());
    assertTrue(
        Files.readString(out.resolve("index.html")).contains("local, prepared / local, simple"));

    Path none = dir.resolve("none");
    r = Cli.run("report", json.toString(), "--html", none.toString(), "--baseline", "nope");
    assertEquals(2, r.exit, r.toString());
    assertEquals(1, r.err.strip().lines().count(), r.toString());
    assertTrue(
        r.err.startsWith("wg1bench: report: --baseline 'nope' matches no column; give a column ("),
        r.toString());
    assertTrue(!Files.exists(none), "nothing written");
  }

  @Test
  void missingFileIsAUsageError() {
    Path missing = dir.resolve("nope.json");
    Cli r = Cli.run("report", missing.toString(), "--html", dir.resolve("o").toString());
    assertEquals(2, r.exit, r.toString());
    assertEquals("wg1bench: report: " + missing + ": no such file", r.err.strip(), r.toString());
  }

  @Test
  void invalidJsonNamesTheFile() throws Exception {
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"trials\": [ {\"point\": ");
    Cli r = Cli.run("report", bad.toString(), "--html", dir.resolve("o").toString());
    assertEquals(2, r.exit, r.toString());
    assertEquals(1, r.err.strip().lines().count(), r.toString());
    assertTrue(
        r.err.startsWith("wg1bench: report: " + bad + ": not a wg1bench result"), r.toString());

    Path other = dir.resolve("other.json");
    Files.writeString(other, "[1, 2, 3]");
    r = Cli.run("report", other.toString(), "--html", dir.resolve("o").toString());
    assertEquals(2, r.exit, r.toString());
    assertEquals(
        "wg1bench: report: " + other + ": not a wg1bench result (no trials)",
        r.err.strip(),
        r.toString());
  }

  @Test
  void htmlIsRequired() {
    Path json = dir.resolve("run.json");
    JsonReport.write(ReportFixtures.run(), json);
    Cli r = Cli.run("report", json.toString());
    assertEquals(2, r.exit, r.toString());
    assertTrue(r.err.contains("--html"), r.toString());
    assertEquals(1, r.err.strip().lines().count(), r.toString());
  }

  @Test
  void csvOptionIsAccepted() throws Exception {
    PgbenchData.reset();
    Path json = dir.resolve("run.json");
    Path csv = dir.resolve("out.csv");
    Cli r =
        Cli.run(
            "--workload",
            "select_only",
            "--target",
            "t=" + TestServer.url(),
            "--clients",
            "1,2",
            "--repeat",
            "1",
            "--forks",
            "0",
            "--warmup",
            "0",
            "--duration",
            "300ms",
            "--iterations",
            "3",
            "--output",
            json.toString(),
            "--csv",
            csv.toString());
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("csv written to " + csv + " and out-summary.csv"), r.out);
    List<List<String>> rows = csvRows(csv);
    List<String> header = rows.get(0);
    JsonNode trials = Json.MAPPER.readTree(json.toFile()).get("trials");
    // a header and one row per trial, each row the trial's own numbers
    assertEquals(trials.size() + 1, rows.size(), rows.toString());
    for (int i = 0; i < trials.size(); i++) {
      JsonNode t = trials.get(i);
      List<String> row = rows.get(i + 1);
      assertEquals(header.size(), row.size(), row.toString());
      assertEquals(t.get("sequence").asText(), row.get(header.indexOf("sequence")));
      assertEquals(
          t.get("point").get("clients").asText(),
          row.get(header.indexOf("clients")),
          row.toString());
      assertEquals(
          t.get("measurement").get("tps").asDouble(),
          Double.parseDouble(row.get(header.indexOf("tps"))),
          1e-6);
      assertEquals(
          t.get("measurement").get("ops").asLong(), Long.parseLong(row.get(header.indexOf("ops"))));
    }
    List<List<String>> summary = csvRows(dir.resolve("out-summary.csv"));
    assertEquals(3, summary.size(), summary.toString());
    assertEquals(
        java.util.Set.of("1", "2"),
        java.util.Set.of(
            summary.get(1).get(summary.get(0).indexOf("clients")),
            summary.get(2).get(summary.get(0).indexOf("clients"))));
  }

  private static List<List<String>> csvRows(Path file) throws Exception {
    List<List<String>> rows = new ArrayList<>();
    try (MappingIterator<List<String>> it =
        new CsvMapper()
            .enable(CsvParser.Feature.WRAP_AS_ARRAY)
            .readerForListOf(String.class)
            .readValues(file.toFile())) {
      it.forEachRemaining(rows::add);
    }
    return rows;
  }
}
