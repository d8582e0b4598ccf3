package dev.wg1bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wg1bench.advise.ResultDiff;
import dev.wg1bench.json.Json;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.PointSummary;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTML report, its PNGs and CSV, from results built in code (no database). */
class HtmlReportTest {
  @TempDir Path dir;

  private HtmlReport.Source source(BenchmarkRun run) throws Exception {
    Path json = dir.resolve("run.json");
    JsonReport.write(run, json);
    return HtmlReport.read(json);
  }

  @Test
  void pageHasTablesAndDecodablePlots() throws Exception {
    BenchmarkRun run = ReportFixtures.run();
    Path out = dir.resolve("html");
    Path index = HtmlReport.write(List.of(source(run)), out);
    assertEquals(out.resolve("index.html"), index);
    String html = Files.readString(index);

    // every summary value as the table prints it
    assertEquals(12, run.summary().size());
    for (PointSummary s : run.summary()) {
      for (String v :
          List.of(
              HtmlReport.tps(s.medianTps()),
              HtmlReport.tps(s.minTps()),
              HtmlReport.tps(s.maxTps()),
              HtmlReport.ms(s.medianP99Ms()))) {
        assertTrue(html.contains("<td class=\"n\">" + v + "</td>"), v);
      }
    }
    assertTrue(
        html.contains(
            "tpcb_like: throughput vs clients \u00b7 PostgreSQL 16.9 / 17.5, scale 10, 10 s per"
                + " trial"),
        "figure alt text with server, scale and duration");
    assertTrue(html.contains("AMD EPYC 7B13"), "machine");
    assertTrue(html.contains("(amd64), scheduler: autogroup on"), "the kernel's CPU sharing");
    assertTrue(html.contains("shared_buffers=4GB"), "server settings");
    assertTrue(html.contains("id=\"errors\""), "errors section");
    assertFalse(html.contains("id=\"advice\""), "no advice without an advice array");
    assertFalse(html.contains("<script"), "no script");
    assertFalse(html.matches("(?s).*(src|href)=\"https?:.*"), "nothing external");

    // 2 plots vs clients + the progress overview + one time-series figure per point, all embedded
    int imgs = count(html, "<img src=\"data:image/png;base64,");
    assertEquals(2 + 1 + 12, imgs);
    // the 12 per-point figures fold into one closed section after the overview
    assertEquals(1, count(html, "<details><summary>tpcb_like: progress of each point"));
    int fold = html.indexOf("<details><summary>tpcb_like: progress of each point");
    assertEquals(12, count(html.substring(fold, html.indexOf("</details>", fold)), "<img "));
    List<Path> pngs;
    try (Stream<Path> s = Files.list(out)) {
      pngs = s.filter(p -> p.toString().endsWith(".png")).sorted().toList();
    }
    assertEquals(imgs, pngs.size());
    for (Path png : pngs) {
      BufferedImage img = ImageIO.read(png.toFile());
      assertNotNull(img, png.toString());
      String name = png.getFileName().toString();
      boolean series = name.contains("-progress-");
      // the overview's 12 points put its legend below the upper chart, a row each
      boolean overview = name.endsWith("-progress.png");
      assertEquals(Plots.WIDTH, img.getWidth(), png.toString());
      assertEquals(
          overview
              ? 2 * Plots.SERIES_HEIGHT + 12 * Plots.LEGEND_ROW
              : series ? 2 * Plots.SERIES_HEIGHT : Plots.HEIGHT,
          img.getHeight(),
          png.toString());
    }
    assertTrue(Files.exists(out.resolve("results.csv")));
    assertTrue(Files.exists(out.resolve("results-summary.csv")));
    assertTrue(Files.exists(out.resolve("results-clients.csv")));
  }

  @Test
  void csvHasOneRowPerTrialAndRoundTripsQuotedFields() throws Exception {
    BenchmarkRun run = ReportFixtures.run();
    Path csv = dir.resolve("out.csv");
    CsvReport.write(run, csv);
    List<List<String>> rows = CsvParse.parse(Files.readString(csv));
    assertEquals(1 + 36, rows.size());
    List<String> header = rows.get(0);
    assertEquals(
        List.of(
            "sequence",
            "repeat",
            "target",
            "workload",
            "clients",
            "queryMode",
            "isolation",
            "set.application_name"),
        header.subList(0, 8));
    assertEquals(CsvReport.TRIAL_COLUMNS, header.subList(8, header.size()));
    rows.forEach(r -> assertEquals(header.size(), r.size()));
    List<String> first = rows.get(1);
    assertEquals(ReportFixtures.APP_NAME, first.get(header.indexOf("set.application_name")));
    assertEquals(
        run.trials().get(0).measurement().tps(),
        Double.parseDouble(first.get(header.indexOf("tps"))),
        1e-9);
    assertEquals("17.5", first.get(header.indexOf("serverVersion")));
    assertEquals("", first.get(header.indexOf("poolWaitP99Ms")));
    assertEquals("0", first.get(header.indexOf("clientsStopped")));
    assertEquals("", first.get(header.indexOf("clientsStoppedBy")));
    assertTrue(Files.readString(csv).contains("\"wg1 \"\"bench\"\", run\""));

    List<List<String>> sum = CsvParse.parse(Files.readString(dir.resolve("out-summary.csv")));
    assertEquals(1 + 12, sum.size());
    assertEquals("3", sum.get(1).get(sum.get(0).indexOf("trials")));
  }

  @Test
  void pointValuesAndMessagesAreEscaped() throws Exception {
    BenchmarkRun run =
        ReportFixtures.run(List.of("<script>alert(1)</script>", "b&b"), Map.of("x", "\"><img>"));
    String html = Files.readString(HtmlReport.write(List.of(source(run)), dir.resolve("h")));
    assertFalse(html.contains("<script"));
    assertFalse(html.contains("\"><img>"));
    assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assertTrue(html.contains("b&amp;b"));
    assertTrue(html.contains("could not serialize access due to &lt;concurrent&gt; update"));
  }

  @Test
  void adviceArrayBecomesATable() throws Exception {
    Path json = dir.resolve("advice.json");
    ObjectNode tree = Json.MAPPER.valueToTree(ReportFixtures.run());
    ArrayNode advice = tree.putArray("advice");
    ObjectNode a = advice.addObject();
    a.put("name", "prepared-statements");
    a.put("claim", "prepared beats simple by 20% <at least>");
    a.put("seed", "3.4");
    a.put("baseline", "--workload write10 --query-mode simple");
    a.put("treatment", "--workload write10 --query-mode prepared");
    a.put("target", "local");
    a.put("baselineTps", 1000.0);
    a.put("treatmentTps", 1251.2);
    a.put("ratio", 1.2512);
    a.put("ciLow", 1.18);
    a.put("ciHigh", 1.31);
    a.put("p99Ratio", 0.82);
    a.put("verdict", "confirms");
    a.put("mechanism", "why: round trips per op 3.0 -> 2.0; statements per op 3.0 -> 3.0");
    Json.MAPPER.writeValue(json.toFile(), tree);
    String html =
        Files.readString(HtmlReport.write(List.of(HtmlReport.read(json)), dir.resolve("a")));
    assertEquals(1, count(html, "<h2 id=\"advice\">"));
    assertTrue(html.contains("prepared beats simple by 20% &lt;at least&gt;"));
    assertTrue(html.contains("--workload write10 --query-mode prepared"));
    assertTrue(html.contains("<td class=\"n\">1.251</td>"));
    assertTrue(html.contains("<strong>confirms</strong>"));
    assertTrue(html.contains("<td>why: round trips per op 3.0 -&gt; 2.0; statements"), html);
  }

  @Test
  void severalFilesAndNoClientSweep() throws Exception {
    // one client count: bars instead of lines; two files: a run column in the CSV
    BenchmarkRun a = ReportFixtures.run(List.of("local"), List.of(8), Map.of());
    BenchmarkRun b = ReportFixtures.run(List.of("remote"), List.of(8), Map.of());
    Path ja = dir.resolve("a.json");
    Path jb = dir.resolve("b.json");
    JsonReport.write(a, ja);
    JsonReport.write(b, jb);
    Path out = dir.resolve("two");
    String html =
        Files.readString(
            HtmlReport.write(
                List.of(HtmlReport.read(ja), HtmlReport.read(jb)),
                out,
                null,
                ResultDiff.attempt(a, b, 0.05)));
    assertTrue(html.contains("a.json") && html.contains("b.json"));
    // the diff and every other section under one heading each
    assertEquals(1, count(html, "<h2 id=\"diff\">"));
    assertEquals(1, count(html, "<h2 id=\"trials\">"));
    assertTrue(html.contains("tpcb_like: throughput (8 clients)"), "bars when clients is fixed");
    BufferedImage bars = ImageIO.read(out.resolve("w1-tpcb_like-tps.png").toFile());
    assertEquals(Plots.WIDTH, bars.getWidth());
    assertEquals(Plots.HEIGHT, bars.getHeight());
    List<List<String>> rows = CsvParse.parse(Files.readString(out.resolve("results.csv")));
    assertEquals("run", rows.get(0).get(0));
    assertEquals(1 + 2 * 6, rows.size());
  }

  private static int count(String s, String sub) {
    Matcher m = Pattern.compile(Pattern.quote(sub)).matcher(s);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  /** A strict RFC 4180 reader, to check what the writer quotes. */
  static final class CsvParse {
    static List<List<String>> parse(String text) {
      List<List<String>> rows = new ArrayList<>();
      List<String> row = new ArrayList<>();
      StringBuilder f = new StringBuilder();
      boolean quoted = false;
      int i = 0;
      while (i < text.length()) {
        char c = text.charAt(i);
        if (quoted) {
          if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
            f.append('"');
            i += 2;
            continue;
          }
          if (c == '"') {
            quoted = false;
          } else {
            f.append(c);
          }
        } else if (c == '"') {
          quoted = true;
        } else if (c == ',') {
          row.add(f.toString());
          f.setLength(0);
        } else if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
          row.add(f.toString());
          f.setLength(0);
          rows.add(row);
          row = new ArrayList<>();
          i++;
        } else {
          f.append(c);
        }
        i++;
      }
      if (!row.isEmpty() || f.length() > 0) {
        row.add(f.toString());
        rows.add(row);
      }
      return rows;
    }
  }
}
