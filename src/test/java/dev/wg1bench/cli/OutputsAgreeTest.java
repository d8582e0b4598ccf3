package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One name, one figure: a run that fails ops in its warmup and in its measurement is read in all
 * four outputs (console, JSON, CSV and HTML), and each name shows the same number in each. {@code
 * failedOps} is the measurement windows' count everywhere; {@code totalFailedOps}, the whole
 * trial's, warmup included, is larger here and never shown under the other name.
 */
class OutputsAgreeTest {
  @TempDir Path dir;

  @Test
  void failedOpsIsOneFigureInEveryOutput() throws Exception {
    Path script = dir.resolve("fails.sql");
    // a quarter of the ops divide by zero
    Files.writeString(script, "\\set d random(0, 3)\nSELECT 1 / :d;\n");
    Path json = dir.resolve("run.json");
    Path csv = dir.resolve("run.csv");
    Cli r =
        Cli.run(
            "--script",
            script.toString(),
            "-c",
            "2",
            "-T",
            "1s",
            "--warmup",
            "1s",
            "--iterations",
            "2",
            "--target",
            TestServer.url(),
            "-o",
            json.toString(),
            "--csv",
            csv.toString());
    assertEquals(3, r.exit, r.toString());
    JsonNode m = Json.MAPPER.readTree(json.toFile()).get("trials").get(0).get("measurement");
    long failed = m.get("failedOps").asLong();
    long ok = m.get("ops").asLong();
    long total = m.get("totalFailedOps").asLong();
    assertTrue(failed > 0 && total > failed, "failures in warmup and in measurement: " + m);
    long byKind = 0;
    for (JsonNode v : m.get("failures")) {
      byKind += v.asLong();
    }
    assertEquals(failed, byKind, "failures by kind add up to failedOps");

    Matcher console =
        Pattern.compile("number of ops: (\\d+) successful, (\\d+) failed").matcher(r.out);
    assertTrue(console.find(), r.out);
    assertEquals(ok, Long.parseLong(console.group(1)));
    assertEquals(failed, Long.parseLong(console.group(2)));

    assertEquals(failed, Long.parseLong(column(csv, "failedOps")));
    assertEquals(ok, Long.parseLong(column(csv, "ops")));
    Path summary = dir.resolve("run-summary.csv");
    assertEquals(failed, Long.parseLong(column(summary, "failedOps")), "one trial: its figure");
    assertEquals(total, Long.parseLong(column(summary, "totalFailedOps")));
    JsonNode s = Json.MAPPER.readTree(json.toFile()).get("summary").get(0);
    assertEquals(failed, s.get("failedOps").asLong());
    assertEquals(total, s.get("totalFailedOps").asLong());

    Path html = dir.resolve("html");
    Cli rep = Cli.run("report", json.toString(), "--html", html.toString());
    assertEquals(0, rep.exit, rep.toString());
    String page = Files.readString(html.resolve("index.html"));
    List<String> cells = trialRow(page);
    assertTrue(
        cells.stream().anyMatch(c -> c.startsWith(Long.toString(failed))),
        "the trials table's failed ops: " + cells);
    assertTrue(cells.contains(Long.toString(total)), "its total failed ops: " + cells);
  }

  /** The value of {@code name} in the first data row of a CSV file. */
  private static String column(Path csv, String name) throws Exception {
    List<String> lines = Files.readAllLines(csv);
    List<String> header = Arrays.asList(lines.get(0).split(","));
    int i = header.indexOf(name);
    assertTrue(i >= 0, name + " in " + header);
    return lines.get(1).split(",", -1)[i];
  }

  /** The cells of the trials table's first row (the table whose header has "total failed ops"). */
  private static List<String> trialRow(String page) {
    int table = page.indexOf("total failed ops");
    assertTrue(table >= 0, "a trials table with total failed ops");
    int row = page.indexOf("<tbody>", table);
    int end = page.indexOf("</tr>", row);
    Matcher cell = Pattern.compile("<td[^>]*>(.*?)</td>").matcher(page.substring(row, end));
    List<String> out = new java.util.ArrayList<>();
    while (cell.find()) {
      out.add(cell.group(1).replaceAll("<[^>]+>", "").strip());
    }
    return out;
  }
}
