package dev.wg1bench.history.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.history.analysis.ChangePointFinder;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history report's pages: an index listing each series with its latest change (changed series
 * first) and links that resolve; each series' page with its answer before its chart, the chart
 * embedded, the change points with before, after, change and p, and every run's commit.
 */
class HistoryReportLayoutTest {
  @TempDir Path dir;

  private Path write(ChangePointFinder finder) {
    return HistoryReport.write(HistoryReportFixtures.series(), finder, dir, "/tmp/h");
  }

  @Test
  void theIndexListsEverySeriesChangedFirstWithItsLatestChange() throws Exception {
    String index = Files.readString(write(HistoryReportFixtures.FINDER));
    List<List<String>> rows = rows(index, "series");
    assertEquals(2, rows.size());
    assertEquals(HistoryReportFixtures.TPS, rows.get(0).get(0), "the changed series first");
    assertEquals("12", rows.get(0).get(1));
    assertEquals("-9.9%", rows.get(0).get(3));
    assertEquals("7 (id r7)", rows.get(0).get(4));
    assertEquals("c0ffee6", rows.get(0).get(5));
    assertEquals("none", rows.get(1).get(3));
    assertTrue(index.contains("1 of 2 series changed"), index);
    Matcher links = Pattern.compile("<a href=\"([^\"#]+)\">").matcher(index);
    int n = 0;
    while (links.find()) {
      assertTrue(Files.exists(dir.resolve(links.group(1))), links.group(1));
      n++;
    }
    assertEquals(2, n);
  }

  @Test
  void aSeriesPageAnswersFirstThenDrawsAndTabulates() throws Exception {
    write(HistoryReportFixtures.FINDER);
    Path page;
    try (var s = Files.list(dir.resolve("series"))) {
      page =
          s.filter(p -> p.toString().endsWith(".html") && p.toString().contains("tps"))
              .findFirst()
              .orElseThrow();
    }
    String html = Files.readString(page);
    int lead = html.indexOf("<p class=\"lead\">Latest change: <b class=\"bad\">-9.9%</b>");
    int fig = html.indexOf("<figure>");
    assertTrue(lead > 0 && lead < fig, "the answer before the chart:\n" + html);
    assertTrue(html.contains("a regression, p = 0.0001"), html);
    assertTrue(html.contains("commit <code>c0ffee6</code>"), html);

    Matcher img = Pattern.compile("src=\"data:image/png;base64,([^\"]+)\"").matcher(html);
    assertTrue(img.find());
    BufferedImage png =
        ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(img.group(1))));
    assertEquals(HistoryChart.WIDTH, png.getWidth());
    assertEquals(HistoryChart.HEIGHT, png.getHeight());

    List<List<String>> changes = rows(html, "changes");
    assertEquals(
        List.of(
            List.of(
                "7",
                "r7",
                "c0ffee6",
                "2026-11-07T10:00:00Z",
                "504",
                "454",
                "-9.9%",
                "-12.0% to -8.0%",
                "0.0001",
                "why: not counted: round trips per op, statements per op, server ms per op,"
                    + " rows per op, bytes sent per op, bytes received per op, waits")),
        changes);
    List<List<String>> runs = rows(html, "runs");
    assertEquals(12, runs.size());
    for (int i = 0; i < 12; i++) {
      assertEquals(Integer.toString(i + 1), runs.get(i).get(0));
      assertEquals("c0ffee" + i, runs.get(i).get(3));
    }
    assertEquals("500", runs.get(0).get(4));
    assertEquals("488 to 512", runs.get(0).get(5), "the run's own interval");
    assertEquals(1, count(html, "<tr class=\"cp\">"), "the first run of the new segment marked");
  }

  /**
   * A change's mechanism: the same configuration's round trips per op, before the change and after
   * it, in the change's row and the page's answer; what the history does not hold, not counted.
   */
  @Test
  void aChangeSaysHowTheConfigurationsRoundTripsMovedWithIt() throws Exception {
    List<Series> series = new ArrayList<>(HistoryReportFixtures.series());
    List<SeriesPoint> rt = new ArrayList<>();
    for (SeriesPoint p : series.get(1).points()) {
      int run = Integer.parseInt(p.runId().substring(1));
      rt.add(
          new SeriesPoint(
              p.time(), p.runId(), p.commit(), run < 7 ? 1.0 : 11.0, Double.NaN, Double.NaN));
    }
    String config =
        HistoryReportFixtures.TPS.substring(0, HistoryReportFixtures.TPS.lastIndexOf('/'));
    series.add(new Series(config + "/roundTripsPerOp", "roundTripsPerOp", false, rt));
    HistoryReport.write(series, HistoryReportFixtures.FINDER, dir, "/tmp/h");
    Path page;
    try (var s = Files.list(dir.resolve("series"))) {
      page =
          s.filter(p -> p.toString().endsWith(".html") && p.toString().contains("tps"))
              .findFirst()
              .orElseThrow();
    }
    String html = Files.readString(page);
    String why =
        "why: round trips per op 1.0 -&gt; 11.0; not counted: statements per op, server ms per op,"
            + " rows per op, bytes sent per op, bytes received per op, waits";
    assertTrue(html.contains("<span class=\"why\">" + why + ".</span>"), html);
    List<List<String>> changes = rows(html, "changes");
    assertEquals(why.replace("-&gt;", "->"), changes.get(0).get(9));
  }

  @Test
  void withoutAnAnalysisThePagesSaySo() throws Exception {
    String index = Files.readString(write(null));
    assertTrue(index.contains("No change-point analysis in this build"), index);
    assertEquals(2, rows(index, "series").size());
  }

  @Test
  void namesAreEscaped() throws Exception {
    Series s =
        new Series(
            "<script>x</script>/tps", "tps", true, HistoryReportFixtures.series().get(1).points());
    String index = Files.readString(HistoryReport.write(List.of(s), null, dir, "<h>"));
    assertTrue(!index.contains("<script>"), index);
    assertTrue(index.contains("&lt;script&gt;x&lt;/script&gt;/tps"), index);
  }

  private static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }

  /** The body rows of the table of this class, each cell's text. */
  static List<List<String>> rows(String html, String tableClass) {
    int at = html.indexOf("<table class=\"" + tableClass + "\">");
    assertTrue(at >= 0, "no table " + tableClass);
    String t = html.substring(at, html.indexOf("</table>", at));
    String body = t.substring(t.indexOf("<tbody>"));
    List<List<String>> out = new ArrayList<>();
    Matcher tr = Pattern.compile("<tr[^>]*>(.*?)</tr>", Pattern.DOTALL).matcher(body);
    while (tr.find()) {
      List<String> cells = new ArrayList<>();
      Matcher td = Pattern.compile("<td[^>]*>(.*?)</td>", Pattern.DOTALL).matcher(tr.group(1));
      while (td.find()) {
        cells.add(
            td.group(1)
                .replaceAll("<[^>]+>", "")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
                .strip());
      }
      out.add(cells);
    }
    return out;
  }
}
