package dev.wg1bench.history.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.support.HeadlessChromium;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history report as headless Chromium lays it out at 1400 × 900: the index's table and a series
 * page's answer and chart on the first screen, nothing wider than the window. Skipped, with a line
 * saying so, where no Chromium is installed. The first screens are kept under
 * target/history-report/ for a person to look at.
 */
class HistoryReportBrowserTest {
  private static final int WIDTH = 1400;
  private static final int HEIGHT = 900;

  private static final String CHROMIUM = HeadlessChromium.PATH;

  @TempDir Path dir;

  @BeforeEach
  void needsChromium() {
    Assumptions.assumeTrue(
        CHROMIUM != null,
        "no chromium on PATH: the history report's browser checks are skipped"
            + " (apt-get install chromium to run them)");
  }

  private Path write() {
    return HistoryReport.write(
        HistoryReportFixtures.series(), HistoryReportFixtures.FINDER, dir.resolve("rep"), "/h");
  }

  @Test
  void theIndexShowsEverySeriesOnTheFirstScreen() throws Exception {
    Path index = write();
    Map<String, String> p = probe(index, "table.series");
    assertFits(p);
    assertTrue(
        Double.parseDouble(p.get("bottom")) <= HEIGHT,
        "the series table on the first screen: " + p);
    screenshot(index, "index");
  }

  @Test
  void aSeriesPageShowsItsAnswerAndChartOnTheFirstScreen() throws Exception {
    write();
    Path page;
    try (var s = Files.list(dir.resolve("rep/series"))) {
      page = s.filter(f -> f.toString().endsWith("tps.html")).findFirst().orElseThrow();
    }
    Map<String, String> p = probe(page, "figure img");
    assertFits(p);
    assertTrue(
        Double.parseDouble(p.get("bottom")) <= HEIGHT, "the chart on the first screen: " + p);
    assertTrue(Double.parseDouble(p.get("width")) >= 1000, "the chart drawn at its size: " + p);
    screenshot(page, "series");
  }

  private static void assertFits(Map<String, String> p) {
    assertEquals(Integer.toString(WIDTH), p.get("innerWidth"), "viewport");
    assertTrue(Integer.parseInt(p.get("scrollWidth")) <= WIDTH, "page wider than the window: " + p);
    assertTrue(p.get("wide").isBlank(), "elements wider than the window: " + p);
  }

  /**
   * Measures the laid-out page with a script appended to a copy of it (the pages have no script of
   * their own), read back through {@code --dump-dom}.
   */
  private Map<String, String> probe(Path page, String selector) throws Exception {
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
              wide.push(e.tagName + ':' + Math.round(r.right));
            }
          });
          var t = document.querySelector('SELECTOR').getBoundingClientRect();
          var out = document.createElement('pre');
          out.id = 'probe';
          out.textContent = 'bottom=' + t.bottom + '\\nwidth=' + t.width
            + '\\nscrollWidth=' + document.documentElement.scrollWidth
            + '\\ninnerWidth=' + w + '\\nwide=' + wide.join(' ');
          document.body.appendChild(out);
        })();
        </script>
        """
            .replace("SELECTOR", selector);
    Path copy = page.resolveSibling("probe.html");
    Files.writeString(copy, Files.readString(page).replace("</body>", script + "</body>"));
    String dom = run("--dump-dom", copy.toUri().toString());
    Matcher m = Pattern.compile("<pre id=\"probe\">(.*?)</pre>", Pattern.DOTALL).matcher(dom);
    assertTrue(m.find(), "the probe ran: " + dom.substring(0, Math.min(500, dom.length())));
    Map<String, String> f = new HashMap<>();
    for (String line : m.group(1).split("\n")) {
      int eq = line.indexOf('=');
      f.put(line.substring(0, eq), line.substring(eq + 1));
    }
    return f;
  }

  /** The first screen: the window's size, with text on it; kept for a person to look at. */
  private void screenshot(Path page, String name) throws Exception {
    Path png = page.resolveSibling(name + "-first-screen.png");
    run("--screenshot=" + png, page.toUri().toString());
    BufferedImage img = ImageIO.read(png.toFile());
    assertEquals(WIDTH, img.getWidth());
    assertEquals(HEIGHT, img.getHeight());
    long dark = 0;
    for (int y = 0; y < img.getHeight(); y += 2) {
      for (int x = 0; x < img.getWidth(); x += 2) {
        int rgb = img.getRGB(x, y) & 0xffffff;
        if (((rgb >> 16) & 0xff) + ((rgb >> 8) & 0xff) + (rgb & 0xff) < 200) {
          dark++;
        }
      }
    }
    assertTrue(dark > 1000, "text on the first screen: " + dark + " dark pixels");
    Path kept = Path.of("target", "history-report", name + "-first-screen.png");
    Files.createDirectories(kept.getParent());
    Files.copy(png, kept, StandardCopyOption.REPLACE_EXISTING);
  }

  private String run(String... args) throws Exception {
    return HeadlessChromium.run(dir, WIDTH, HEIGHT, args);
  }
}
