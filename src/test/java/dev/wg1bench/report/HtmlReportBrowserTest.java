package dev.wg1bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.PointSummary;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.support.HeadlessChromium;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page as a reader's browser lays it out, in headless Chromium at 1400 × 900: the first screen
 * holds the answer (a single point's headline table, a sweep's clients table), results come before
 * provenance, and nothing is wider than the window. Skipped, with a line saying so, where no
 * Chromium is installed.
 */
class HtmlReportBrowserTest {
  private static final int WIDTH = 1400;
  private static final int HEIGHT = 900;

  private static final String CHROMIUM = HeadlessChromium.PATH;

  @TempDir Path dir;

  @BeforeEach
  void needsChromium() {
    Assumptions.assumeTrue(
        CHROMIUM != null,
        "no chromium on PATH: the HTML report's browser checks are skipped"
            + " (apt-get install chromium to run them)");
  }

  @Test
  void singlePointOpensWithItsHeadline() throws Exception {
    BenchmarkRun all = ReportFixtures.run();
    Map<String, String> point = all.trials().get(0).point();
    List<TrialResult> trials = all.trials().stream().filter(t -> t.point().equals(point)).toList();
    List<PointSummary> summary =
        all.summary().stream().filter(s -> s.point().equals(point)).toList();
    BenchmarkRun one =
        new BenchmarkRun(
            all.madeBy(),
            all.ran(),
            all.plan(),
            all.matrix(),
            all.machine(),
            trials,
            summary,
            all.advice(),
            all.agents());
    Path index = write(one, "one");

    Probe p = probe(index);
    assertEquals("result", p.sections.get(0), "the page opens with the result: " + p.sections);
    assertBefore(p.sections, "plots", "targets");
    assertBefore(p.sections, "result", "runs");
    assertTrue(p.firstTableClass.contains("headline"), "first table: " + p.firstTableClass);
    assertTrue(
        p.firstTableBottom <= HEIGHT, "headline table on the first screen: " + p.firstTableBottom);
    assertFits(p);
    assertScreenshot(index);
  }

  @Test
  void sweepOpensWithItsComparison() throws Exception {
    Path index = write(ReportFixtures.run(), "sweep");

    Probe p = probe(index);
    assertEquals("clients", p.sections.get(0), "the page opens with the comparison: " + p.sections);
    assertBefore(p.sections, "summary", "plots");
    assertBefore(p.sections, "plots", "targets");
    assertBefore(p.sections, "trials", "runs");
    assertTrue(
        p.firstTableBottom <= HEIGHT, "clients table on the first screen: " + p.firstTableBottom);
    assertFits(p);
    assertScreenshot(index);
  }

  private Path write(BenchmarkRun run, String name) throws Exception {
    Path json = dir.resolve(name + ".json");
    JsonReport.write(run, json);
    return HtmlReport.write(List.of(HtmlReport.read(json)), dir.resolve(name));
  }

  /** What the probe script measured in the laid-out page. */
  private record Probe(
      List<String> sections,
      String firstTableClass,
      double firstTableBottom,
      int scrollWidth,
      int innerWidth,
      String wide) {}

  /**
   * The page with a script appended that measures its layout and writes the figures into the DOM,
   * which {@code --dump-dom} then prints. The report itself has no script; only this copy does.
   */
  private Probe probe(Path index) throws Exception {
    String script =
        """
        <script>
        (function () {
          var w = window.innerWidth, wide = [];
          function clipped(e) {
            for (var a = e.parentElement; a; a = a.parentElement) {
              var o = getComputedStyle(a).overflowX;
              if (o === 'auto' || o === 'scroll' || o === 'hidden') return true;
            }
            return false;
          }
          document.querySelectorAll('body *').forEach(function (e) {
            var r = e.getBoundingClientRect();
            if (r.width > 0 && r.right > w + 0.5 && !clipped(e)) {
              wide.push(e.tagName + (e.id ? '#' + e.id : '') + ':' + Math.round(r.right));
            }
          });
          var ids = [];
          document.querySelectorAll('h2[id]').forEach(function (h) { ids.push(h.id); });
          var t = document.querySelector('table');
          var out = document.createElement('pre');
          out.id = 'probe';
          out.textContent = 'sections=' + ids.join(',')
            + '\\nfirstTableClass=' + (t ? t.className : '')
            + '\\nfirstTableBottom=' + (t ? t.getBoundingClientRect().bottom : -1)
            + '\\nscrollWidth=' + document.documentElement.scrollWidth
            + '\\ninnerWidth=' + w
            + '\\nwide=' + wide.join(' ');
          document.body.appendChild(out);
        })();
        </script>
        """;
    String html = Files.readString(index);
    Path copy = index.resolveSibling("probe.html");
    Files.writeString(copy, html.replace("</body>", script + "</body>"));
    String dom = run("--dump-dom", copy.toUri().toString());
    Matcher m = Pattern.compile("<pre id=\"probe\">(.*?)</pre>", Pattern.DOTALL).matcher(dom);
    assertTrue(m.find(), "the probe ran: " + dom.substring(0, Math.min(500, dom.length())));
    Map<String, String> f = new HashMap<>();
    for (String line : m.group(1).split("\n")) {
      int eq = line.indexOf('=');
      f.put(line.substring(0, eq), line.substring(eq + 1));
    }
    return new Probe(
        List.of(f.get("sections").split(",")),
        f.get("firstTableClass"),
        Double.parseDouble(f.get("firstTableBottom")),
        Integer.parseInt(f.get("scrollWidth")),
        Integer.parseInt(f.get("innerWidth")),
        f.get("wide"));
  }

  private static void assertBefore(List<String> sections, String a, String b) {
    assertTrue(
        sections.contains(a) && sections.contains(b) && sections.indexOf(a) < sections.indexOf(b),
        a + " before " + b + ": " + sections);
  }

  /** No horizontal scroll: the page is as wide as the window, and no element sticks out of it. */
  private static void assertFits(Probe p) {
    assertEquals(WIDTH, p.innerWidth, "viewport");
    assertTrue(p.scrollWidth <= p.innerWidth, "page wider than the window: " + p.scrollWidth);
    assertTrue(p.wide.isBlank(), "elements wider than the window: " + p.wide);
  }

  /** The first screen as a PNG: the window's size, and more than a blank or one-colour page. */
  private void assertScreenshot(Path index) throws Exception {
    Path png = index.resolveSibling("first-screen.png");
    run("--screenshot=" + png, index.toUri().toString());
    BufferedImage img = ImageIO.read(png.toFile());
    assertEquals(WIDTH, img.getWidth());
    assertEquals(HEIGHT, img.getHeight());
    Set<Integer> colours = new HashSet<>();
    long dark = 0;
    for (int y = 0; y < img.getHeight(); y += 2) {
      for (int x = 0; x < img.getWidth(); x += 2) {
        int rgb = img.getRGB(x, y) & 0xffffff;
        colours.add(rgb);
        if (((rgb >> 16) & 0xff) + ((rgb >> 8) & 0xff) + (rgb & 0xff) < 200) {
          dark++;
        }
      }
    }
    assertTrue(colours.size() > 20, "a rendered page, not a blank one: " + colours.size());
    // text: headings and table figures put dark pixels on the first screen
    assertTrue(dark > 2000, "text on the first screen: " + dark + " dark pixels");
  }

  private String run(String... args) throws Exception {
    return HeadlessChromium.run(dir, WIDTH, HEIGHT, args);
  }
}
