package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wg1bench.advise.ResultDiff;
import dev.wg1bench.json.Json;
import dev.wg1bench.report.HtmlReport;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.report.ReportFixtures;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.PointsDiff;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** diff on two saved results: matched by knobs, ratio with interval, verdict, clear errors. */
class DiffTest {
  @TempDir Path dir;

  /**
   * The fixture saved twice; in the second, prepared-mode trials at 32 clients run 30% faster and
   * simple-mode ones at 32 clients have their tps multiplied by 1.001 (no real change).
   */
  private Path[] fixtures() throws Exception {
    BenchmarkRun run = ReportFixtures.run();
    Path base = dir.resolve("base.json");
    JsonReport.write(run, base);
    JsonNode tree = Json.MAPPER.readTree(base.toFile());
    for (JsonNode t : tree.get("trials")) {
      JsonNode p = t.get("point");
      if (!p.get("clients").asText().equals("32")) {
        continue;
      }
      double f = p.get("queryMode").asText().equals("prepared") ? 1.3 : 1.001;
      ObjectNode m = (ObjectNode) t.get("measurement");
      m.put("tps", m.get("tps").asDouble() * f);
    }
    Path neu = dir.resolve("new.json");
    Json.MAPPER.writeValue(neu.toFile(), tree);
    return new Path[] {base, neu};
  }

  @Test
  void pointsAreMatchedAndGetRatiosIntervalsAndVerdicts() throws Exception {
    Path[] f = fixtures();
    PointsDiff r =
        ResultDiff.compare(HtmlReport.read(f[0]).run(), HtmlReport.read(f[1]).run(), 0.05);
    assertEquals(12, r.rows().size(), "2 targets x 3 client counts x 2 query modes");
    assertTrue(r.onlyBase().isEmpty() && r.onlyNew().isEmpty());
    PointsDiff.Row faster = row(r, "32", "prepared");
    assertEquals(1.3, faster.ratio(), 1e-9);
    assertEquals(PointsDiff.OVER_REPEATS, faster.over());
    assertEquals(3, faster.baseTrials());
    assertNotNull(faster.low());
    assertTrue(faster.low() < 1.3 && faster.high() > 1.3);
    assertEquals("new faster", faster.verdict());
    PointsDiff.Row same = row(r, "8", "simple");
    assertEquals(1.0, same.ratio(), 1e-12);
    assertEquals(1.0, same.p99Ratio(), 1e-12);
    // identical repeats: the interval is the noise of 3 repeats, around 1
    assertTrue(same.low() < 1 && same.high() > 1);
    assertTrue(
        same.verdict().startsWith("equivalent") || same.verdict().startsWith("inconclusive"),
        same.verdict());
  }

  private static PointsDiff.Row row(PointsDiff r, String clients, String mode) {
    return r.rows().stream()
        .filter(x -> x.point().get("target").equals("local"))
        .filter(x -> x.point().get("clients").equals(clients))
        .filter(x -> x.point().get("queryMode").equals(mode))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void theCommandPrintsTheTableAndReportHtmlShowsIt() throws Exception {
    Path[] f = fixtures();
    // the fixture's 32-client simple-mode trials fail 3 ops each (serialization): allowed here
    Cli r = Cli.run("diff", "--allowed-failure-rate", "1%", f[0].toString(), f[1].toString());
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("Welch's t on log tps over each point's repeats"), r.out);
    assertTrue(r.out.contains("new faster"), r.out);
    String html =
        Files.readString(
            HtmlReport.write(
                List.of(HtmlReport.read(f[0]), HtmlReport.read(f[1])),
                dir.resolve("h"),
                null,
                ResultDiff.attempt(
                    HtmlReport.read(f[0]).run(), HtmlReport.read(f[1]).run(), 0.05)));
    assertTrue(html.contains("new.json against base.json"), "diff section");
    assertTrue(html.contains("<a href=\"#diff\">"), "linked from the top");
    assertTrue(html.contains("<strong>new faster</strong>"));
  }

  /**
   * Under each point, both sides per op and the line naming how they differ: prepared-mode trials
   * at 32 clients given 10 round trips per op in the base and 1 in the new result, the rest with
   * none counted (said so, never 0).
   */
  @Test
  void eachPointSaysWhyPerOp() throws Exception {
    Path[] f = fixtures();
    for (int side = 0; side < 2; side++) {
      JsonNode tree = Json.MAPPER.readTree(f[side].toFile());
      for (JsonNode t : tree.get("trials")) {
        JsonNode p = t.get("point");
        if (p.get("clients").asText().equals("32")
            && p.get("queryMode").asText().equals("prepared")) {
          ObjectNode perOp = ((ObjectNode) t.get("measurement")).putObject("perOp");
          perOp.put("roundTrips", side == 0 ? 10.0 : 1.0).put("statements", side == 0 ? 10.0 : 1.0);
        }
      }
      Json.MAPPER.writeValue(f[side].toFile(), tree);
    }
    Cli r = Cli.run("diff", "--allowed-failure-rate", "1%", f[0].toString(), f[1].toString());
    assertEquals(0, r.exit, r.toString());
    assertTrue(
        r.out.contains(
            "why: round trips per op 10.0 -> 1.0; statements per op 10.0 -> 1.0; not counted:"
                + " server ms per op, rows per op"),
        r.out);
    assertTrue(r.out.matches("(?s).*round trips\\s+10\\.0\\s+1\\.0\\n.*"), r.out);
    assertTrue(
        r.out.contains("why: not counted: round trips per op"), "the other points: " + r.out);
    PointsDiff d =
        ResultDiff.compare(HtmlReport.read(f[0]).run(), HtmlReport.read(f[1]).run(), 0.05, 0.01);
    String html =
        Files.readString(
            HtmlReport.write(
                List.of(HtmlReport.read(f[0]), HtmlReport.read(f[1])), dir.resolve("w"), null, d));
    assertTrue(html.contains("why: round trips per op 10.0 -&gt; 1.0"), "the page's diff");
  }

  /**
   * A point whose new trials did not run as asked (a client could not connect) measured another
   * workload: broken, naming what ran, and diff exits 3 however few ops failed.
   */
  @Test
  void aPointThatDidNotRunAsAskedIsBroken() throws Exception {
    Path[] f = fixtures();
    JsonNode tree = Json.MAPPER.readTree(f[1].toFile());
    String why = "6 of 8 clients ran; 2 clients could not start, the first: could not connect";
    for (JsonNode t : tree.get("trials")) {
      JsonNode p = t.get("point");
      if (p.get("clients").asText().equals("8") && p.get("queryMode").asText().equals("simple")) {
        ((ObjectNode) t.get("measurement")).put("clientsRan", 6).put("notAsAsked", why);
      }
    }
    Json.MAPPER.writeValue(f[1].toFile(), tree);
    PointsDiff r =
        ResultDiff.compare(HtmlReport.read(f[0]).run(), HtmlReport.read(f[1]).run(), 1.0);
    assertEquals("broken: new did not run as asked: " + why, row(r, "8", "simple").verdict());
    assertEquals("new faster", row(r, "32", "prepared").verdict(), "the other points stand");
    Cli cli = Cli.run("diff", "--allowed-failure-rate", "100%", f[0].toString(), f[1].toString());
    assertEquals(3, cli.exit, cli.toString());
  }

  /** A point whose new ops failed is broken, not a speed verdict, and diff exits 3. */
  @Test
  void aPointWhoseOpsFailedIsBrokenAndExits3() throws Exception {
    Path[] f = fixtures();
    JsonNode tree = Json.MAPPER.readTree(f[1].toFile());
    long planted = 0;
    for (JsonNode t : tree.get("trials")) {
      JsonNode p = t.get("point");
      if (p.get("clients").asText().equals("8") && p.get("queryMode").asText().equals("simple")) {
        ((ObjectNode) t.get("measurement")).put("totalFailedOps", 5);
        planted += 5;
      }
    }
    Json.MAPPER.writeValue(f[1].toFile(), tree);
    PointsDiff r =
        ResultDiff.compare(HtmlReport.read(f[0]).run(), HtmlReport.read(f[1]).run(), 0.05);
    PointsDiff.Row broken = row(r, "8", "simple");
    assertTrue(broken.verdict().startsWith("broken: new failed "), broken.verdict());
    assertTrue(
        broken.verdict().contains(" failed " + planted / 2 + " of "),
        planted + " planted over 2 targets: " + broken.verdict());
    assertEquals("new faster", row(r, "32", "prepared").verdict(), "the other points stand");
    Cli cli = Cli.run("diff", f[0].toString(), f[1].toString());
    assertEquals(3, cli.exit, cli.toString());
    Cli allowed =
        Cli.run("diff", "--allowed-failure-rate", "100%", f[0].toString(), f[1].toString());
    assertEquals(0, allowed.exit, allowed.toString());
  }

  @Test
  void badFilesAreOneLineUsageErrors() throws Exception {
    Path[] f = fixtures();
    Path junk = dir.resolve("junk.json");
    Files.writeString(junk, "{\"hello\": 1}");
    CliErrorsTest.assertOneLine(
        Cli.run("diff", f[0].toString(), dir.resolve("nope.json").toString()),
        2,
        "nope.json: no such file");
    CliErrorsTest.assertOneLine(
        Cli.run("diff", junk.toString(), f[1].toString()), 2, "junk.json: not a wg1bench result");
    JsonNode tree = Json.MAPPER.readTree(f[0].toFile());
    for (JsonNode t : tree.get("trials")) {
      ((ObjectNode) t.get("point")).put("workload", "select_only");
    }
    Path o = dir.resolve("other.json");
    Json.MAPPER.writeValue(o.toFile(), tree);
    CliErrorsTest.assertOneLine(
        Cli.run("diff", f[0].toString(), o.toString()), 2, "no point in common");
    CliErrorsTest.assertOneLine(Cli.run("diff", f[0].toString()), 2);
  }
}
