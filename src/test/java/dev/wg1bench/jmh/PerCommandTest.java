package dev.wg1bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.cli.Main;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.CommandStats;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.ScriptStats;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.result.Window;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Weighted scripts with -r on a real server: the per-script figures add up to the headline, each
 * command's count, failures and retries follow from what the scripts do (a division by zero on a
 * known share of ops, serialization failures raised at random and retried), and the rows each
 * script wrote inside the measurement windows match its ops. The JSON and CSV carry the figures.
 */
class PerCommandTest {
  @TempDir Path tmp;

  /** Script 1 (weight 3): inserts, then divides by zero when x = 1, rolling its insert back. */
  static final String DIVIDE =
      "\\set x random(1, 4)\n"
          + "BEGIN;\n"
          + "INSERT INTO perstmt_rows VALUES (1, :x, clock_timestamp());\n"
          + "SELECT 1 / (:x - 1);\n"
          + "END;\n";

  /** Script 2 (weight 1): a serialization failure on 30% of tries, then an autocommit insert. */
  static final String CONFLICT =
      "\\set y random(1, 1000)\n"
          + "SELECT perstmt_conflict(0.3);\n"
          + "INSERT INTO perstmt_rows VALUES (2, :y, clock_timestamp());\n";

  private static void sql(String... statements) throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      for (String s : statements) {
        st.execute(s);
      }
    }
  }

  @Test
  void weightedScriptsWithPerCommandFigures() throws Exception {
    sql(
        "DROP TABLE IF EXISTS perstmt_rows",
        "CREATE TABLE perstmt_rows (script int, v int, at timestamptz)",
        "CREATE OR REPLACE FUNCTION perstmt_conflict(p float8) RETURNS int LANGUAGE plpgsql AS"
            + " $$ BEGIN IF random() < p THEN RAISE EXCEPTION 'forced conflict' USING ERRCODE ="
            + " '40001'; END IF; RETURN 1; END $$");
    Path a = Files.writeString(tmp.resolve("divide.sql"), DIVIDE);
    Path b = Files.writeString(tmp.resolve("conflict.sql"), CONFLICT);
    Path json = tmp.resolve("r.json");
    Path csv = tmp.resolve("r.csv");
    int clients = 3;
    String out =
        run(
            "--target",
            TestServer.url(),
            "--forks",
            "0",
            "-c",
            Integer.toString(clients),
            "-T",
            "2s",
            "--warmup",
            "300ms",
            "--iterations",
            "2",
            "--max-tries",
            "3",
            "-f",
            a + "@3",
            "-f",
            b + "@1",
            "-r",
            "--output",
            json.toString(),
            "--csv",
            csv.toString());
    BenchmarkRun run = JsonReport.read(json);
    TrialResult t = run.trials().get(0);
    Measurement m = t.measurement();
    List<ScriptStats> s = m.scripts();
    assertEquals(2, s.size(), out);
    ScriptStats div = s.get(0);
    ScriptStats con = s.get(1);
    assertEquals(3, div.weight());
    assertEquals(1, con.weight());
    assertTrue(div.ops() > 20 && con.ops() > 5, out);
    // per-script figures add up to the headline's
    assertEquals(m.ops(), div.ops() + con.ops());
    assertEquals(m.failedOps(), div.failedOps() + con.failedOps());
    assertEquals(m.retries(), div.retries() + con.retries());
    assertEquals(m.retriedOps(), div.retriedOps() + con.retriedOps());
    // pgbench's "transactions retried" also counts retried ops that failed in the end
    assertTrue(con.retriedOpsAll() >= con.retriedOps() && con.retriedOps() > 0, out);
    assertTrue(con.retriedOpsAll() <= con.retriedOps() + con.failedOps(), out);
    assertEquals(0, div.retriedOpsAll());
    assertEquals(0, div.retries(), "a division by zero is not retried");
    assertTrue(div.failedOps() > 0 && con.retries() > 0, out);

    List<CommandStats> dc = div.commands();
    assertEquals(5, dc.size());
    long attempts = div.ops() + div.failedOps();
    assertEquals(attempts, dc.get(0).count(), "\\set runs on every op");
    assertEquals(attempts, dc.get(1).count(), "BEGIN");
    assertEquals(attempts, dc.get(2).count(), "INSERT");
    assertEquals(div.ops(), dc.get(3).count(), "the division completes on successful ops only");
    assertEquals(div.failedOps(), dc.get(3).failures(), "every failure is the division's");
    assertEquals(div.ops(), dc.get(4).count(), "END");
    assertEquals(div.failedOps(), dc.stream().mapToLong(CommandStats::failures).sum());
    assertEquals(a + ":4", dc.get(3).location(), "the script as typed, as pgbench names it");
    assertEquals("SELECT 1 / (:x - 1);", dc.get(3).text());

    List<CommandStats> cc = con.commands();
    // a retry re-runs the whole op, \set included, with the same random numbers
    assertEquals(con.ops() + con.failedOps() + con.retries(), cc.get(0).count());
    assertEquals(con.ops(), cc.get(1).count(), "the conflict completes on successful ops only");
    assertEquals(con.retries(), cc.get(1).retries(), "every retry is the conflict's");
    assertEquals(con.failedOps(), cc.get(1).failures());
    assertEquals(con.ops(), cc.get(2).count());
    assertEquals(m.retries(), cc.stream().mapToLong(CommandStats::retries).sum());
    for (CommandStats c : cc) {
      assertTrue(c.avgMs() != null && c.avgMs() >= 0 && c.stddevMs() >= 0, c.toString());
    }
    // the time of the script's ops is mostly its statements'
    double perOp =
        dc.stream().mapToDouble(CommandStats::totalMs).sum() / (div.ops() + div.failedOps());
    assertTrue(perOp <= div.latencyMeanMs() * 2, perOp + " vs " + div.latencyMeanMs());

    // the rows each script wrote inside the windows are its measured ops, give or take the ops
    // that straddle a window's edge (at most one per client and edge)
    long[] rows = rowsInWindows(m.windows());
    int edges = 2 * m.windows().size() * clients;
    assertTrue(Math.abs(rows[1] - div.ops()) <= edges, rows[1] + " rows vs " + div.ops());
    assertTrue(Math.abs(rows[2] - con.ops()) <= edges, rows[2] + " rows vs " + con.ops());

    // the console shows pgbench's layout
    assertTrue(out.contains("SQL script 1: " + a + "\n"), out);
    assertTrue(
        out.contains(
            String.format(
                java.util.Locale.ROOT,
                " - number of ops retried: %d (%.3f%%)%n",
                con.retriedOpsAll(),
                100.0 * con.retriedOpsAll() / (con.ops() + con.failedOps()))),
        out);
    assertTrue(out.contains(" - weight: 3 (targets 75.0% of total)"), out);
    assertTrue(
        out.contains(
            " - statement latencies in milliseconds, failures and retries; round trips and rows per"
                + " execution (- where not counted):"),
        out);
    // a BEGIN..END script's commands each made one round trip per execution, the one that failed
    // included (its error is the server's answer); the \set none
    assertEquals(0.0, dc.get(0).roundTrips(), dc.get(0).toString());
    for (CommandStats c : dc.subList(1, 5)) {
      assertEquals(1.0, c.roundTrips(), c.toString());
      assertEquals(1.0, c.statements(), "one statement per completed execution: " + c);
    }
    assertEquals(1.0, cc.get(1).roundTrips(), "a retried execution is one too: " + cc.get(1));
    assertTrue(
        out.lines()
            .anyMatch(
                l ->
                    l.endsWith("  SELECT perstmt_conflict(0.3);")
                        && l.contains(" " + con.retries() + "  ")),
        out);

    // the CSV files carry the same figures
    List<String> scriptRows = Files.readAllLines(tmp.resolve("r-scripts.csv"));
    assertEquals(3, scriptRows.size(), scriptRows.toString());
    assertTrue(scriptRows.get(0).contains("script,file,weight,ops,failedOps,retries,retriedOps,"));
    assertTrue(
        scriptRows.get(1).contains(",1,\"" + a + "\",3," + div.ops() + "," + div.failedOps()),
        scriptRows.toString());
    assertTrue(
        scriptRows
            .get(2)
            .contains(
                "," + con.retries() + "," + con.retriedOps() + "," + con.retriedOpsAll() + ","),
        scriptRows.toString());
    List<String> commandRows = Files.readAllLines(tmp.resolve("r-commands.csv"));
    assertEquals(1 + 5 + 3, commandRows.size(), commandRows.toString());
    assertTrue(
        commandRows.stream()
            .anyMatch(
                l ->
                    l.contains(",2,\"" + b + "\",2,\"SELECT perstmt_conflict(0.3);\"," + con.ops())
                        // a command has no percentiles and no whole-trial counts: those
                        // columns are a step's; then its round trips and statements per
                        // execution
                        && l.contains("," + con.failedOps() + "," + con.retries() + ",,,,,,,1,1,")),
        commandRows.toString());

    // the HTML page has the section, each command named by file:line
    Path html = tmp.resolve("html");
    run("report", json.toString(), "--html", html.toString());
    String page = Files.readString(html.resolve("index.html"));
    assertTrue(page.contains("<h2 id=\"commands\">Scripts and commands</h2>"));
    assertTrue(page.contains("<td>" + a + ":4</td><td><code>SELECT 1 / (:x - 1);</code></td>"));
    sql("DROP TABLE perstmt_rows", "DROP FUNCTION perstmt_conflict(float8)");
  }

  /**
   * -r in simple mode: each SQL command is one round trip and one statement per execution, its rows
   * what it returned, a meta command none; in the JSON, the console's command lines and the CSV.
   */
  @Test
  void perCommandRoundTripsAndRowsInSimpleMode() throws Exception {
    Path script =
        Files.writeString(
            tmp.resolve("rt.sql"),
            "\\set x random(1, 10)\n"
                + "BEGIN;\n"
                + "SELECT :x;\n"
                + "SELECT generate_series(1, 3);\n"
                + "END;\n");
    Path json = tmp.resolve("rt.json");
    String out =
        run(
            "--target",
            TestServer.url(),
            "--forks",
            "0",
            "-c",
            "1",
            "-T",
            "500ms",
            "--warmup",
            "0",
            "--iterations",
            "1",
            "-M",
            "simple",
            "-r",
            "-f",
            script.toString(),
            "-o",
            json.toString(),
            "--csv",
            tmp.resolve("rt.csv").toString());
    List<CommandStats> c =
        JsonReport.read(json).trials().get(0).measurement().scripts().get(0).commands();
    assertEquals(5, c.size(), out);
    assertTrue(c.get(4).count() > 0, out);
    double[] roundTrips = {0, 1, 1, 1, 1};
    double[] statements = {0, 1, 1, 1, 1};
    double[] rows = {0, 0, 1, 3, 0};
    for (int i = 0; i < 5; i++) {
      assertEquals(roundTrips[i], c.get(i).roundTrips(), c.get(i).toString());
      assertEquals(statements[i], c.get(i).statements(), c.get(i).toString());
      assertEquals(rows[i], c.get(i).rows(), c.get(i).toString());
      assertTrue(c.get(i).bytesSent() != null && c.get(i).bytesReceived() != null, out);
    }
    assertTrue(c.get(3).bytesReceived() > c.get(2).bytesReceived(), "three rows against one");
    assertTrue(
        out.lines()
            .anyMatch(
                l -> l.matches(" +[\\d.]+ +0 +1\\.00 +3\\.00  SELECT generate_series\\(1, 3\\);")),
        out);
    assertTrue(
        out.lines()
            .anyMatch(l -> l.matches(" +[\\d.]+ +0 +0\\.00 +0\\.00  \\\\set x random\\(1, 10\\)")),
        out);
    List<String> rowsCsv = Files.readAllLines(tmp.resolve("rt-commands.csv"));
    List<String> header = List.of(rowsCsv.get(0).split(","));
    String begin = rowsCsv.stream().filter(l -> l.contains(",BEGIN;,")).findFirst().orElseThrow();
    // no cell of the row has a comma: the cells split at every comma
    List<String> cells = List.of(begin.split(","));
    assertEquals("1", cells.get(header.indexOf("roundTrips")), begin);
    assertEquals("1", cells.get(header.indexOf("statements")), begin);
    assertEquals("0", cells.get(header.indexOf("rows")), begin);
  }

  /** A mix without -r has per-script figures but no per-command ones; one script has neither. */
  @Test
  void perScriptFiguresWithoutPerCommand() throws Exception {
    sql(
        "DROP TABLE IF EXISTS perstmt_rows",
        "CREATE TABLE perstmt_rows (s int, v int, at timestamptz)");
    Path a =
        Files.writeString(
            tmp.resolve("one.sql"), "INSERT INTO perstmt_rows VALUES (1, 1, now());\n");
    Path b = Files.writeString(tmp.resolve("two.sql"), "SELECT 1;\n");
    String common = "--target=" + TestServer.url();
    String[] base = {
      common, "--forks", "0", "-c", "2", "-T", "600ms", "--warmup", "0", "--iterations", "2"
    };
    Path json = tmp.resolve("mix.json");
    List<String> args = new ArrayList<>(List.of(base));
    args.addAll(List.of("-f", a.toString(), "-f", b + "@2", "-o", json.toString()));
    String out = run(args.toArray(new String[0]));
    Measurement m = JsonReport.read(json).trials().get(0).measurement();
    assertEquals(2, m.scripts().size(), out);
    assertEquals(m.ops(), m.scripts().get(0).ops() + m.scripts().get(1).ops());
    assertNull(m.scripts().get(0).commands());
    assertTrue(out.contains("SQL script 2: " + b + "\n"), out);
    assertTrue(!out.contains("statement latencies"), out);

    Path single = tmp.resolve("single.json");
    args = new ArrayList<>(List.of(base));
    args.addAll(List.of("-f", b.toString(), "-o", single.toString()));
    run(args.toArray(new String[0]));
    assertNull(JsonReport.read(single).trials().get(0).measurement().scripts());

    // a workload not made of scripts says so in one line
    PgbenchData.reset();
    args = new ArrayList<>(List.of(base));
    args.addAll(
        List.of("--workload", "insert_batch", "-r", "-o", tmp.resolve("ins.json").toString()));
    out = run(args.toArray(new String[0]));
    assertTrue(
        out.contains(
            "per-command figures: not available for workload insert_batch (it is not made of"
                + " scripts)"),
        out);

    // a pgbench built-in in the mix is named as pgbench names it
    PgbenchData.reset();
    Path builtin = tmp.resolve("builtin.json");
    args = new ArrayList<>(List.of(base));
    args.addAll(List.of("-f", b.toString(), "-b", "select-only@2", "-o", builtin.toString()));
    out = run(args.toArray(new String[0]));
    assertTrue(out.contains("SQL script 2: <builtin: select only>\n"), out);
    assertEquals(
        "<builtin: select only>",
        JsonReport.read(builtin).trials().get(0).measurement().scripts().get(1).name());
    sql("DROP TABLE perstmt_rows");
  }

  private static long[] rowsInWindows(List<Window> windows) throws SQLException {
    long[] rows = new long[3];
    try (Connection c = TestServer.connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT script, count(*) FROM perstmt_rows WHERE at >= ? AND at < ? GROUP BY"
                    + " script")) {
      for (Window w : windows) {
        Instant start = Instant.parse(w.startedAt());
        Instant end = start.plusNanos(Math.round(w.seconds() * 1e9));
        ps.setObject(1, java.time.OffsetDateTime.ofInstant(start, java.time.ZoneOffset.UTC));
        ps.setObject(2, java.time.OffsetDateTime.ofInstant(end, java.time.ZoneOffset.UTC));
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rows[rs.getInt(1)] += rs.getLong(2);
          }
        }
      }
    }
    return rows;
  }

  private static String run(String... args) {
    StringWriter o = new StringWriter();
    PrintWriter both = new PrintWriter(o, true);
    int exit = Main.execute(both, both, args);
    String out = o.toString();
    assertTrue(exit == 0 || exit == Main.COMPLETED_WITH_FAILURES, "exit " + exit + "\n" + out);
    return out;
  }
}
