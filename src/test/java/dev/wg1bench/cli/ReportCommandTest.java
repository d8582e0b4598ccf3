package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.report.JsonReport;
import dev.wg1bench.report.ReportFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
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
  void csvOptionIsAccepted() {
    // parsing only: running needs a server
    var cl = Main.commandLine();
    cl.parseArgs("--workload", "tpcb_like", "--csv", "out.csv");
    Main main = cl.getCommand();
    assertEquals(Path.of("out.csv"), main.run.csv);
  }
}
