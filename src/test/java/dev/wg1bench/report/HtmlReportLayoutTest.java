package dev.wg1bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.PointSummary;
import dev.wg1bench.result.TrialResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page's layout from a fixture run whose trials ran in a shuffled order: sorted tables with the
 * run order stated, one value per cell in the targets' per-point table, readable dates, and the
 * clients table's ratios to the chosen baseline.
 */
class HtmlReportLayoutTest {
  @TempDir Path dir;

  /** The fixture with its 36 trials run in a shuffled order, as a random run order makes them. */
  private static BenchmarkRun shuffled() {
    BenchmarkRun r = ReportFixtures.run();
    List<TrialResult> ts = new ArrayList<>(r.trials());
    Collections.shuffle(ts, new Random(3));
    List<TrialResult> seq = new ArrayList<>();
    for (int i = 0; i < ts.size(); i++) {
      seq.add(ts.get(i).withSequence(i + 1));
    }
    return new BenchmarkRun(
        r.madeBy(),
        r.ran(),
        r.plan(),
        r.matrix(),
        r.machine(),
        seq,
        r.summary(),
        r.advice(),
        r.agents());
  }

  private String page(BenchmarkRun run, String baseline) throws Exception {
    Path json = dir.resolve("run.json");
    JsonReport.write(run, json);
    return Files.readString(
        HtmlReport.write(List.of(HtmlReport.read(json)), dir.resolve("out"), baseline, null));
  }

  @Test
  void trialsAndSummariesAreSortedAndTheRunOrderIsStated() throws Exception {
    BenchmarkRun run = shuffled();
    String html = page(run, null);

    List<List<String>> rows = rows(section(html, "trials"));
    assertEquals(36, rows.size());
    List<String> header = headerOf(section(html, "trials"));
    int target = header.indexOf("target");
    int clients = header.indexOf("clients");
    int mode = header.indexOf("queryMode");
    int repeat = header.indexOf("repeat");
    int ran = header.indexOf("ran");
    List<String> seen = new ArrayList<>();
    Map<String, Integer> sequence = new HashMap<>();
    for (TrialResult t : run.trials()) {
      sequence.put(
          t.point().get("target")
              + "/"
              + t.point().get("clients")
              + "/"
              + t.point().get("queryMode")
              + "/"
              + t.repeat(),
          t.sequence());
    }
    for (List<String> r : rows) {
      String key = r.get(target) + "/" + r.get(clients) + "/" + r.get(mode) + "/" + r.get(repeat);
      seen.add(key);
      // each row says when that very trial ran
      assertEquals(sequence.get(key) + " of 36", r.get(ran), key);
    }
    List<String> expected = new ArrayList<>();
    for (String t : List.of("local", "remote")) {
      // clients numerically: 8 before 32, which text order would swap
      for (String c : List.of("1", "8", "32")) {
        for (String m : List.of("prepared", "simple")) {
          for (int rep = 1; rep <= 3; rep++) {
            expected.add(t + "/" + c + "/" + m + "/" + rep);
          }
        }
      }
    }
    assertEquals(expected, seen);
    List<String> runOrder = new ArrayList<>(seen);
    runOrder.sort((a, b) -> Integer.compare(sequence.get(a), sequence.get(b)));
    assertNotEquals(expected, runOrder, "the fixture's run order differs from the sorted one");

    List<List<String>> sums = rows(section(html, "summary"));
    List<String> sh = headerOf(section(html, "summary"));
    List<String> points = new ArrayList<>();
    for (List<String> r : sums) {
      points.add(
          r.get(sh.indexOf("target"))
              + "/"
              + r.get(sh.indexOf("clients"))
              + "/"
              + r.get(sh.indexOf("queryMode")));
    }
    List<String> expectedPoints = new ArrayList<>();
    for (int i = 0; i < expected.size(); i += 3) {
      expectedPoints.add(expected.get(i).substring(0, expected.get(i).lastIndexOf('/')));
    }
    assertEquals(expectedPoints, points);
    // the fixture fails 3 ops in each trial at 32 clients, simple: 9 over the 3 repeats
    List<String> local32simple = sums.get(expectedPoints.indexOf("local/32/simple"));
    assertEquals("9", local32simple.get(sh.indexOf("failed ops")));
    assertEquals("0", local32simple.get(sh.indexOf("clients stopped")));

    String order = section(html, "runorder");
    assertTrue(order.contains("36 trials (12 points \u00d7 3 repeats) ran in a random order"));
    // the run-order list gives the trials by their sequence: the first one ran is listed first
    TrialResult first =
        run.trials().stream().filter(t -> t.sequence() == 1).findFirst().orElseThrow();
    Matcher li = Pattern.compile("<li value=\"1\">([^<]*)").matcher(order);
    assertTrue(li.find(), order);
    assertTrue(li.group(1).startsWith(first.point().get("target") + ", "), li.group(1));
    assertTrue(li.group(1).strip().endsWith(" #" + first.repeat()), li.group(1));
  }

  @Test
  void targetCellsHoldOnePointsValueAndTheServerOnce() throws Exception {
    String html = page(shuffled(), null);
    String targets = section(html, "targets");
    // query mode and clients differ between the points of a target: never joined in one cell
    assertFalse(targets.matches("(?s).*<td>[^<]*(prepared; simple|simple; prepared)[^<]*</td>.*"));
    assertFalse(targets.matches("(?s).*<td>[^<]*\\d+; \\d+[^<]*</td>.*"));
    List<List<String>> perPoint = rows(targets.substring(0, targets.indexOf("<h3>remote")));
    List<String> header = headerOf(targets.substring(0, targets.indexOf("<h3>remote")));
    assertEquals(6, perPoint.size());
    for (List<String> r : perPoint) {
      String point = r.get(header.indexOf("point"));
      String mode = r.get(header.indexOf("query mode"));
      String clients = r.get(header.indexOf("clients"));
      assertTrue(point.startsWith(clients + (clients.equals("1") ? " client, " : " clients, ")));
      assertTrue(point.endsWith(", " + mode), point);
    }
    Matcher server = Pattern.compile("<th>server</th><td>([^<]*)</td>").matcher(targets);
    List<String> servers = new ArrayList<>();
    while (server.find()) {
      servers.add(server.group(1));
    }
    assertEquals(
        List.of("PostgreSQL 17.5 on x86_64-pc-linux-gnu", "PostgreSQL 16.9 on x86_64-pc-linux-gnu"),
        servers);
  }

  @Test
  void datesAreReadable() throws Exception {
    String html = page(shuffled(), null);
    // the fixture's first trial starts 20 s after 2025-06-01T10:00:00Z and lasts 14 s
    assertTrue(
        html.contains("2025-06-01 10:00:20 UTC \u2013 2025-06-01 10:12:14 UTC"), "run dates");
    assertTrue(html.contains("<td class=\"d\">2025-06-01 10:00:20 UTC</td>"), "trial start");
    assertFalse(
        Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d").matcher(html).find(),
        "no ISO instant left");
    assertEquals("2026-11-23 12:46:09 UTC", ReportOrder.date("2026-11-23T12:46:09.123456789Z"));
  }

  @Test
  void ratiosAreToTheChosenBaseline() throws Exception {
    BenchmarkRun run = shuffled();
    Map<String, Double> tps = new HashMap<>();
    for (PointSummary s : run.summary()) {
      tps.put(
          s.point().get("target")
              + ", "
              + s.point().get("queryMode")
              + "@"
              + s.point().get("clients"),
          s.medianTps());
    }

    // knob values that leave the target open: each column against simple on its own target
    String html = page(run, "queryMode=simple");
    String table = section(html, "clients");
    List<String> header = clientsHeader(table);
    assertTrue(header.contains("local, simple (baseline)"), header.toString());
    assertTrue(header.contains("remote, simple (baseline)"), header.toString());
    int localRatio = header.indexOf("local, prepared / local, simple");
    int remoteRatio = header.indexOf("remote, prepared / remote, simple");
    List<List<String>> rows = rows(table);
    assertEquals(List.of("1", "8", "32"), rows.stream().map(r -> r.get(0)).toList());
    for (List<String> r : rows) {
      String c = r.get(0);
      assertEquals(
          ratio(tps.get("local, prepared@" + c) / tps.get("local, simple@" + c)),
          r.get(localRatio),
          c);
      assertEquals(
          ratio(tps.get("remote, prepared@" + c) / tps.get("remote, simple@" + c)),
          r.get(remoteRatio),
          c);
    }
    // the same numbers in results-clients.csv, with four decimals
    List<List<String>> csv =
        HtmlReportTest.CsvParse.parse(
            Files.readString(dir.resolve("out").resolve("results-clients.csv")));
    List<String> ch = csv.get(0);
    assertEquals("workload", ch.get(0));
    List<String> row8 = csv.get(2);
    assertEquals("8", row8.get(1));
    assertEquals(
        tps.get("remote, prepared@8") / tps.get("remote, simple@8"),
        Double.parseDouble(row8.get(ch.indexOf("remote, prepared ratio"))),
        1e-4);
    assertEquals(
        tps.get("local, simple@8"),
        Double.parseDouble(row8.get(ch.indexOf("local, simple tps"))),
        1e-9);
    assertEquals("1", row8.get(ch.indexOf("local, simple ratio")));

    // a column label: every column against that one
    table = section(page(run, "remote, simple"), "clients");
    header = clientsHeader(table);
    int col = header.indexOf("local, prepared / remote, simple");
    assertTrue(col > 0, header.toString());
    assertEquals(
        ratio(tps.get("local, prepared@32") / tps.get("remote, simple@32")),
        rows(table).get(2).get(col));

    // default: the first column in report order
    header = clientsHeader(section(page(run, null), "clients"));
    assertTrue(header.contains("local, prepared (baseline)"), header.toString());
    assertTrue(header.contains("remote, simple / local, prepared"), header.toString());
  }

  @Test
  void aBaselineThatMatchesNothingIsRefusedBeforeWriting() throws Exception {
    Path json = dir.resolve("run.json");
    JsonReport.write(ReportFixtures.run(), json);
    Path out = dir.resolve("nothing");
    HtmlReport.BadBaseline e =
        assertThrows(
            HtmlReport.BadBaseline.class,
            () -> HtmlReport.write(List.of(HtmlReport.read(json)), out, "queryMode=smple", null));
    assertEquals(
        "--baseline 'queryMode=smple' matches no column; give a column (local, prepared | local,"
            + " simple | remote, prepared | remote, simple) or KNOB=VALUE[,KNOB=VALUE] with knobs"
            + " target, queryMode, isolation, set.application_name",
        e.getMessage());
    assertFalse(Files.exists(out), "nothing written");
  }

  @Test
  void stoppedClientsShowInTheSummaryTrialsAndCsv() throws Exception {
    // two trials of one point each had clients stopped by an error that won't heal
    ObjectNode tree = Json.MAPPER.valueToTree(shuffled());
    String why = "42601 syntax error at or near \"FRM\"";
    int marked = 0;
    for (JsonNode t : tree.get("trials")) {
      JsonNode p = t.get("point");
      if (p.get("target").asText().equals("remote")
          && p.get("clients").asText().equals("8")
          && p.get("queryMode").asText().equals("prepared")
          && t.get("repeat").asInt() <= 2) {
        ObjectNode m = (ObjectNode) t.get("measurement");
        m.put("clientsStopped", 3 + marked);
        m.put("clientsStoppedBy", why);
        marked++;
      }
    }
    assertEquals(2, marked);
    Path json = dir.resolve("stopped.json");
    Json.MAPPER.writeValue(json.toFile(), tree);
    Path out = dir.resolve("stopped");
    String html =
        Files.readString(HtmlReport.write(List.of(HtmlReport.read(json)), out, null, null));

    String summary = section(html, "summary");
    List<String> sh = headerOf(summary);
    assertTrue(sh.contains("stopped by"), sh.toString());
    for (List<String> r : rows(summary)) {
      boolean hit =
          r.get(sh.indexOf("target")).equals("remote")
              && r.get(sh.indexOf("clients")).equals("8")
              && r.get(sh.indexOf("queryMode")).equals("prepared");
      assertEquals(hit ? "7" : "0", r.get(sh.indexOf("clients stopped")), r.toString());
      assertEquals(hit ? why : "", r.get(sh.indexOf("stopped by")), r.toString());
    }
    String trials = section(html, "trials");
    List<String> th = headerOf(trials);
    long stoppedRows =
        rows(trials).stream()
            .filter(r -> !r.get(th.indexOf("clients stopped")).equals("0"))
            .count();
    assertEquals(2, stoppedRows);

    List<List<String>> csv =
        HtmlReportTest.CsvParse.parse(Files.readString(out.resolve("results-summary.csv")));
    List<String> ch = csv.get(0);
    int total = 0;
    for (List<String> r : csv.subList(1, csv.size())) {
      total += Integer.parseInt(r.get(ch.indexOf("clientsStopped")));
    }
    assertEquals(7, total);
  }

  /** The answer first, the plots, the detail tables, provenance (runs, targets) last. */
  @Test
  void resultsComeBeforeProvenance() throws Exception {
    List<String> sweep = sections(page(shuffled(), null));
    assertEquals("clients", sweep.get(0), sweep.toString());
    assertEquals("summary", sweep.get(1), sweep.toString());
    assertEquals(
        List.of("runorder", "targets", "runs"), sweep.subList(sweep.size() - 3, sweep.size()));

    // one point: its headline figures and verdict open the page, and no one-bar charts follow
    BenchmarkRun all = ReportFixtures.run();
    Map<String, String> point = all.trials().get(0).point();
    BenchmarkRun one =
        new BenchmarkRun(
            all.madeBy(),
            all.ran(),
            all.plan(),
            all.matrix(),
            all.machine(),
            all.trials().stream().filter(t -> t.point().equals(point)).toList(),
            all.summary().stream().filter(s -> s.point().equals(point)).toList(),
            all.advice(),
            all.agents());
    String html = page(one, null);
    List<String> single = sections(html);
    assertEquals("result", single.get(0), single.toString());
    assertFalse(single.contains("clients"), "a clients table of one cell: " + single);
    assertEquals(List.of("targets", "runs"), single.subList(single.size() - 2, single.size()));
    String result = section(html, "result");
    assertTrue(result.contains("<table class=\"headline\">"), result);
    List<List<String>> rows = rows(result);
    assertEquals(ReportFixtures.REPEATS, rows.size(), "one row per repeat");
    assertTrue(rows.stream().allMatch(r -> r.get(r.size() - 1).equals("ok")), rows.toString());
    assertFalse(html.contains("-tps.png"), "no one-bar throughput chart for one point");
  }

  private static List<String> sections(String html) {
    List<String> ids = new ArrayList<>();
    Matcher m = Pattern.compile("<h2 id=\"([^\"]+)\">").matcher(html);
    while (m.find()) {
      ids.add(m.group(1));
    }
    return ids;
  }

  @Test
  void naturalOrderSortsNumbersNumerically() {
    List<String> v = new ArrayList<>(List.of("16", "simple", "2", "Prepared", "1.5", "off", "64"));
    v.sort(ReportOrder::natural);
    assertEquals(List.of("1.5", "2", "16", "64", "off", "Prepared", "simple"), v);
    assertTrue(ReportOrder.natural("a", null) < 0, "a knob a point did not set sorts last");
    assertEquals("not a date", ReportOrder.date("not a date"));
  }

  private static String ratio(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  /** The HTML from the section's heading to the next one. */
  static String section(String html, String id) {
    int a = html.indexOf("<h2 id=\"" + id + "\">");
    assertTrue(a >= 0, "no section " + id);
    int b = html.indexOf("<h2 ", a + 1);
    return html.substring(a, b < 0 ? html.length() : b);
  }

  /** The clients table's columns: "clients" spans both header rows, the second names the rest. */
  private static List<String> clientsHeader(String html) {
    List<String> h = new ArrayList<>(List.of("clients"));
    h.addAll(headerOf(html));
    return h;
  }

  /** Last header row of the first table in the text. */
  static List<String> headerOf(String html) {
    String thead = html.substring(html.indexOf("<thead>"), html.indexOf("</thead>"));
    String[] trs = thead.split("<tr>");
    return cells(trs[trs.length - 1]);
  }

  /** The body rows of the first table in the text, cell texts unescaped. */
  static List<List<String>> rows(String html) {
    String body = html.substring(html.indexOf("<tbody>"), html.indexOf("</tbody>"));
    List<List<String>> out = new ArrayList<>();
    Matcher tr = Pattern.compile("<tr>(.*?)</tr>", Pattern.DOTALL).matcher(body);
    while (tr.find()) {
      out.add(cells(tr.group(1)));
    }
    return out;
  }

  private static List<String> cells(String tr) {
    List<String> out = new ArrayList<>();
    Matcher td = Pattern.compile("<t[dh][^>]*>(.*?)</t[dh]>", Pattern.DOTALL).matcher(tr);
    while (td.find()) {
      out.add(td.group(1).replace("&amp;", "&").replace("&quot;", "\"").replace("&#39;", "'"));
    }
    return out;
  }
}
