package dev.wg1bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.ClientInfo;
import dev.wg1bench.result.Latency;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.PerOp;
import dev.wg1bench.result.Prediction;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.server.window.ServerSide;
import dev.wg1bench.support.HeadlessChromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The panel of where an op's time goes, as headless Chromium lays it out at 1400 × 900: one panel
 * per trial, two results' panels side by side, each bar's parts as wide as their share of the op's
 * mean latency with their figures, the wait profile and the top statements with theirs, and nothing
 * wider than the window. Skipped, with a line saying so, where no Chromium is installed.
 */
class OpTimeBrowserTest {
  private static final int WIDTH = 1400;
  private static final int HEIGHT = 900;

  @TempDir Path dir;

  @BeforeEach
  void needsChromium() {
    Assumptions.assumeTrue(
        HeadlessChromium.PATH != null,
        "no chromium on PATH: the HTML report's browser checks are skipped"
            + " (apt-get install chromium to run them)");
  }

  /**
   * One trial of the fixture with its per-op figures: {@code roundTrips} per op at 2 ms, 0.2 ms of
   * server time and a 25 ms mean, so the bar is 0.2 / {@code 2 x roundTrips} / the rest.
   */
  static BenchmarkRun run(double roundTrips, double clientRead) {
    BenchmarkRun all = ReportFixtures.run();
    TrialResult t = all.trials().get(0);
    Measurement m = t.measurement();
    ServerSide side =
        new ServerSide(
            10.0,
            List.of(
                new ServerSide.StatementFigures(
                    "SELECT x FROM generate_series($1, $2) x WHERE x = $3",
                    5000,
                    900.0,
                    0.18,
                    100.0,
                    0.02,
                    5000,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0L)),
            null,
            List.of(
                new ServerSide.WaitShare("Client:ClientRead", "Client", 710, clientRead),
                new ServerSide.WaitShare("CPU", "CPU", 290, 1 - clientRead)),
            null,
            10,
            1000,
            null,
            "pg_wait_sampling is not installed in this database",
            null,
            "not read");
    Measurement with =
        new Measurement(
            m.throughput(),
            m.counts(),
            new Measurement.Latencies(
                "op start", new Latency(500, 25.0, 1, 25, 26, 27, 28, 29), 0, 0, null, null),
            m.cpu(),
            m.series(),
            m.trial(),
            null,
            new PerOp(roundTrips, roundTrips, PerOp.COMPLETED, 10.0, 300.0, 500.0, 0.2, null),
            side,
            List.of(new Prediction(0.5, 25.0 - 1.5 * roundTrips, 150.0)));
    ClientInfo c = t.client();
    ClientInfo at2ms =
        new ClientInfo(
            c.protocol(),
            c.session(),
            new ClientInfo.Driver(
                c.binaryTransfer(),
                c.fetchSize(),
                c.rewriteBatchedInserts(),
                c.jdbcProperties(),
                2.0),
            c.connected(),
            c.timeouts(),
            c.threads());
    TrialResult one =
        new TrialResult(
            t.position(),
            t.subject(),
            t.server(),
            at2ms,
            with,
            t.errors(),
            t.progress(),
            t.serverSamples(),
            t.startedAt(),
            t.finishedAt(),
            t.outages(),
            t.check());
    return new BenchmarkRun(
        all.madeBy(),
        all.ran(),
        all.plan(),
        all.matrix(),
        all.machine(),
        List.of(one),
        all.summary().stream().filter(s -> s.point().equals(t.point())).toList(),
        all.advice(),
        all.agents());
  }

  @Test
  void twoResultsPanelsSitSideBySideWithTheirFigures() throws Exception {
    Path base = dir.resolve("base.json");
    Path neu = dir.resolve("new.json");
    JsonReport.write(run(10.0, 0.71), base);
    JsonReport.write(run(1.0, 0.18), neu);
    Path index =
        HtmlReport.write(List.of(HtmlReport.read(base), HtmlReport.read(neu)), dir.resolve("page"));
    List<String[]> panels = probe(index);
    assertEquals(2, panels.size(), "one panel per trial of each result");
    String[] a = panels.get(0);
    String[] b = panels.get(1);
    assertTrue(a[0].startsWith("base.json: "), a[0]);
    assertTrue(b[0].startsWith("new.json: "), b[0]);
    assertEquals(a[1], b[1], "side by side: the same top");
    assertTrue(Double.parseDouble(b[2]) > Double.parseDouble(a[2]), "the new one on the right");
    // server 0.2 ms, wire 2 ms x 10 round trips = 20 ms, the rest 4.8 ms of a 25 ms mean
    assertBar(a, 0.2, 20.0, 4.8);
    // 2 ms x 1 round trip = 2 ms, the rest 22.8 ms
    assertBar(b, 0.2, 2.0, 22.8);
    assertEquals("Client:ClientRead 71.0%|CPU 29.0%", a[7]);
    assertEquals("Client:ClientRead 18.0%|CPU 82.0%", b[7]);
    assertEquals("5000 900.0", a[8], "the top statement's calls and total ms");
    assertTrue(a[9].contains("rtt 0.500 ms: mean 10.000 ms"), a[9]);
    assertTrue(a[10].startsWith("per op: 10.0 round trips"), a[10]);
    assertTrue(b[10].startsWith("per op: 1.0 round trips"), b[10]);
    assertEquals("", a[11], "nothing wider than the window: " + a[11]);
  }

  /** Each part's figure, and its width's share of the bar's as the figure's share of the sum. */
  private static void assertBar(String[] p, double server, double wire, double rest) {
    double[] ms = {server, wire, rest};
    double sum = server + wire + rest;
    double bar = Double.parseDouble(p[3]);
    for (int i = 0; i < 3; i++) {
      String[] part = p[4 + i].split(" ");
      assertEquals(ms[i], Double.parseDouble(part[0]), 1e-9, "figure of part " + i);
      assertEquals(ms[i] / sum * bar, Double.parseDouble(part[1]), 1.0, "width of part " + i);
    }
  }

  /**
   * Each panel laid out, as fields: its heading, top, left, the bar's width, each part's data-ms
   * and width (server, wire, rest), its waits, its first statement's calls and total ms, its
   * predictions, its per-op line, and the page's elements wider than the window.
   */
  private List<String[]> probe(Path index) throws Exception {
    String script =
        """
        <script>
        (function () {
          var w = window.innerWidth, wide = [];
          document.querySelectorAll('body *').forEach(function (e) {
            var r = e.getBoundingClientRect();
            if (r.width > 0 && r.right > w + 0.5) wide.push(e.tagName);
          });
          var lines = [];
          document.querySelectorAll('div.optime').forEach(function (d) {
            var r = d.getBoundingClientRect(), bar = d.querySelector('div.bar'), f = [];
            f.push(d.querySelector('h3').textContent, Math.round(r.top), Math.round(r.left),
                   bar.getBoundingClientRect().width);
            ['server', 'wire', 'rest'].forEach(function (c) {
              var s = bar.querySelector('span.' + c);
              f.push(s.getAttribute('data-ms') + ' ' + s.getBoundingClientRect().width);
            });
            var ws = [];
            d.querySelectorAll('table.waits tbody tr').forEach(function (tr) {
              ws.push(tr.cells[0].textContent + ' ' + tr.cells[1].textContent);
            });
            f.push(ws.join('|'));
            var st = d.querySelector('table.statements tbody tr');
            f.push(st.cells[0].textContent + ' ' + st.cells[1].textContent);
            f.push(d.querySelector('p.predicted').textContent);
            f.push(d.querySelector('p.perop').textContent);
            f.push(wide.join(' '));
            lines.push(f.join('\\t'));
          });
          var out = document.createElement('pre');
          out.id = 'probe';
          out.textContent = lines.join('\\n');
          document.body.appendChild(out);
        })();
        </script>
        """;
    String html = Files.readString(index);
    Path copy = index.resolveSibling("probe.html");
    Files.writeString(copy, html.replace("</body>", script + "</body>"));
    String dom = HeadlessChromium.run(dir, WIDTH, HEIGHT, "--dump-dom", copy.toUri().toString());
    Matcher m = Pattern.compile("<pre id=\"probe\">(.*?)</pre>", Pattern.DOTALL).matcher(dom);
    assertTrue(m.find(), "the probe ran: " + dom.substring(0, Math.min(500, dom.length())));
    List<String[]> out = new ArrayList<>();
    for (String line : m.group(1).split("\n")) {
      out.add(line.split("\t", -1));
    }
    return out;
  }
}
