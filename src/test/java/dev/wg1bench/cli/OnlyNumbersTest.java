package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.report.ReportFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only numbers reach a verdict. A result whose figure is a string ("NaN", "123.5"), beyond a double
 * (-1e400, read as -Infinity), missing, or a count that is no integer, is refused by every reader
 * (history add and import, report, diff, merge) in one line naming the field and the file, exit 2;
 * it used to be stored (then 'history check' said "0 regressed", exit 0) and called "inconclusive"
 * by diff. A history that holds a run without a finite figure for a judged series (an import's
 * empty cell, a NaN an older wg1bench stored) fails 'history check' with a line naming the run, and
 * the Bencher export leaves the figure out instead of writing "value": "NaN".
 */
class OnlyNumbersTest {
  @TempDir Path dir;

  @BeforeEach
  void ownHome() {
    System.setProperty("wg1bench.home", dir.resolve("home").toString());
  }

  @AfterEach
  void noHome() {
    System.clearProperty("wg1bench.home");
  }

  /** The fixture result with the first trial's measurement.FIELD set to a JSON text, or removed. */
  private Path result(String name, String field, String json) throws Exception {
    ObjectNode tree = Json.MAPPER.valueToTree(ReportFixtures.run());
    ObjectNode m = (ObjectNode) tree.get("trials").get(0).get("measurement");
    String text = Json.text(tree);
    Path f = dir.resolve(name);
    if (json == null) {
      m.remove(field);
      Files.writeString(f, Json.text(tree));
    } else {
      m.put(field, "@@here@@");
      Files.writeString(f, Json.text(tree).replace("\"@@here@@\"", json));
    }
    Files.writeString(dir.resolve("good.json"), text);
    return f;
  }

  @Test
  void everyReaderRefusesAFigureThatIsNoNumberInOneLine() throws Exception {
    Object[][] cases = {
      {"nan.json", "tps", "\"NaN\"", "trials[0].measurement.tps is \"NaN\", not a finite number"},
      {"huge.json", "tps", "-1e400", "trials[0].measurement.tps is -Infinity, not a finite number"},
      {"text.json", "tps", "\"123.5\"", "trials[0].measurement.tps is \"123.5\""},
      {"missing.json", "tps", null, "trials[0].measurement: no tps (missing)"},
      {"ops.json", "ops", "1e30", "trials[0].measurement.ops is 1.0E30, not an integer"},
    };
    for (Object[] c : cases) {
      Path f = result((String) c[0], (String) c[1], (String) c[2]);
      String good = dir.resolve("good.json").toString();
      List<String[]> commands =
          List.of(
              new String[] {"history", "add", f.toString()},
              new String[] {"history", "import", f.toString(), "--format", "wg1bench"},
              new String[] {"report", f.toString(), "--html", dir.resolve("r").toString()},
              new String[] {"diff", good, f.toString()},
              new String[] {"merge", f.toString(), "-o", dir.resolve("m.json").toString()});
      for (String[] args : commands) {
        Cli r = Cli.run(args);
        String what = String.join(" ", args) + ": " + r;
        assertEquals(2, r.exit, what);
        assertEquals(1, r.err.strip().lines().count(), what);
        assertTrue(r.err.contains(f.toString()), what);
        assertTrue(r.err.contains((String) c[3]), what);
      }
    }
    assertFalse(Files.exists(dir.resolve("home/history/runs")), "nothing stored");
  }

  @Test
  void aLatestRunWithoutTheFigureFailsTheGateAndIsLeftOutOfTheBencherExport() throws Exception {
    Path csv = dir.resolve("o.csv");
    Files.writeString(
        csv,
        "time,commit,tps,p99\n"
            + "2024.01.01 3:00:00 +0100,a0,1000,5\n"
            + "2024.01.02 3:00:00 +0100,a1,1010,5\n"
            + "2024.01.03 3:00:00 +0100,a2,990,5\n"
            + "2024.01.04 3:00:00 +0100,a3,1005,5\n"
            + "2024.01.05 3:00:00 +0100,a4,,5\n");
    Cli imp =
        Cli.run("history", "import", csv.toString(), "--format", "otava-csv", "--series", "o");
    assertEquals(0, imp.exit, imp.toString());
    Cli check = Cli.run("history", "check");
    assertEquals(HistoryCheckCommand.REGRESSION, check.exit, check.toString());
    assertTrue(
        check.out.matches(
            "(?s)broken: o/tps: run \\S+ of 2024-01-05T02:00:00Z \\(commit a4\\) has no tps,"
                + " no finite figure to judge: the gate does not pass it\\n.*"),
        check.out);
    Cli json = Cli.run("history", "check", "--format", "json");
    assertEquals(HistoryCheckCommand.REGRESSION, json.exit, json.toString());
    assertEquals("broken", Json.MAPPER.readTree(json.out).get("outcome").asText(), json.out);
    assertTrue(json.err.contains("broken: o/tps: run "), json.err);
    Cli p99 = Cli.run("history", "check", "--series", "o/p99");
    assertEquals(0, p99.exit, "the series the run has is judged as before: " + p99);
  }

  @Test
  void aNanAnOlderWg1benchStoredFailsTheGateAndIsNoBencherValue() throws Exception {
    Path runs = dir.resolve("home/history/runs");
    Files.createDirectories(runs);
    for (int i = 0; i < 5; i++) {
      // what a wg1bench that took "tps": "NaN" stored: the folder's run file with a NaN value
      Files.writeString(
          runs.resolve("20260101T00000" + i + ".000000Z-0000000" + i + ".json"),
          "{\"format\": 1, \"id\": \"20260101T00000"
              + i
              + ".000000Z-0000000"
              + i
              + "\", \"time\": \"2026-01-01T00:00:0"
              + i
              + "Z\", \"kind\": \"run\", \"attributes\": {\"commit\": \"c"
              + i
              + "\"}, \"metrics\": [{\"config\": \"w @t\", \"metric\": \"tps\","
              + " \"higherIsBetter\": true, \"value\": "
              + (i == 4 ? "\"NaN\"" : String.valueOf(1000 + i))
              + ", \"low\": null, \"high\": null}]}");
    }
    Cli check = Cli.run("history", "check");
    assertEquals(HistoryCheckCommand.REGRESSION, check.exit, check.toString());
    assertTrue(check.out.contains("broken: w @t/tps: run 20260101T000004"), check.out);
    assertTrue(check.out.contains("has tps NaN, no finite figure to judge"), check.out);
    Cli bencher = Cli.run("history", "export", "--format", "bencher");
    assertEquals(0, bencher.exit, bencher.toString());
    assertFalse(bencher.out.contains("NaN"), bencher.out);
  }

  @Test
  void anOtavaJsonTimestampBeyondADoubleIsOneLine() throws Exception {
    Path f = dir.resolve("o.json");
    Files.writeString(
        f, "[{\"timestamp\": -1e400, \"metrics\": [{\"name\": \"tps\", \"value\": 1}]}]");
    Cli c = Cli.run("history", "import", f.toString(), "--format", "otava-json", "--series", "o");
    assertEquals(2, c.exit, c.toString());
    assertEquals(1, c.err.strip().lines().count(), c.toString());
    assertTrue(c.err.contains("\"timestamp\" -Infinity is no time"), c.err);
  }
}
