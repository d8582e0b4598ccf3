package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pgbench's flags with pgbench's meaning, checked against what reached the database: -t runs
 * exactly clients x N ops, -S/-N/-b pick and mix pgbench's built-in scripts, -l writes pgbench's
 * log formats with one line (or one count) per measured op.
 */
class PgbenchFlagsTest {
  @TempDir Path tmp;

  private Cli run(String... flags) {
    List<String> args = new ArrayList<>(Arrays.asList(flags));
    args.addAll(
        List.of("--target", TestServer.url(), "--output", tmp.resolve("r.json").toString()));
    return Cli.run(args.toArray(new String[0]));
  }

  private JsonNode result() throws Exception {
    return new ObjectMapper().readTree(tmp.resolve("r.json").toFile());
  }

  private static long xactCommit() throws Exception {
    return PgbenchData.scalar(
        "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()");
  }

  /** autovacuum_enabled on the pgbench tables: "false", or null for the server's setting. */
  private static void autovacuum(String enabled) throws Exception {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      for (String t : List.of("accounts", "branches", "tellers", "history")) {
        st.execute(
            enabled == null
                ? "ALTER TABLE pgbench_" + t + " RESET (autovacuum_enabled)"
                : "ALTER TABLE pgbench_" + t + " SET (autovacuum_enabled = " + enabled + ")");
      }
    }
  }

  @Test
  void transactionsRunExactlyClientsTimesNOpsAndTheServerAgrees() throws Exception {
    PgbenchData.reset();
    // autovacuum's own transactions count in xact_commit too: 200 updates on scale 1 cross its
    // thresholds, and on a loaded machine a worker's vacuum and analyze fell in the window (226
    // commits, a CI run at load 45), so it is off for these tables while the window is counted
    autovacuum("false");
    Cli r;
    try {
      r = run("-b", "tpcb-like", "-t", "50", "-c", "4", "--forks", "0");
    } finally {
      autovacuum(null);
    }
    assertEquals(0, r.exit, r.toString());
    JsonNode m = result().get("trials").get(0).get("measurement");
    assertEquals(200, m.get("ops").asLong(), m.toString());
    assertEquals(0, m.get("failedOps").asLong(), m.toString());
    assertEquals(200, m.get("totalOps").asLong(), "no warmup with -t: " + m);
    assertEquals(200, PgbenchData.historyRows(), "one history row per op, no more");
    assertTrue(r.out.contains("number of ops actually processed: 200/200"), r.out);
    assertTrue(r.out.contains("running tpcb on "), "-b tpcb-like alone is the tpcb workload");
    // the window's server count is read after the clients disconnected: every op's commit is in
    // it, plus a few of the clients' set-up statements and the counter's own reads
    long commits = m.get("windows").get(0).get("serverCommits").asLong();
    assertTrue(commits >= 200 && commits <= 200 + 4 * 4 + 4, "server commits " + commits);
    double seconds = m.get("measuredSeconds").asDouble();
    assertEquals(200 / seconds, m.get("tps").asDouble(), 1e-6 * 200 / seconds);
  }

  @Test
  void selectOnlyWithJobsAndNoVacuum() throws Exception {
    PgbenchData.reset();
    long before = xactCommit();
    Cli r = run("-S", "-t", "20", "-c", "2", "-j", "2", "-n", "--forks", "0");
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("-j 2: no effect; wg1bench runs one thread per client"), r.out);
    assertTrue(r.out.contains("-n: no VACUUM and no CHECKPOINT before the trial"), r.out);
    JsonNode res = result();
    assertEquals("select_only", res.get("workload").asText());
    assertEquals("none", res.get("matrix").get("betweenTrials").asText());
    assertEquals(40, res.get("trials").get(0).get("measurement").get("ops").asLong());
    assertEquals(0, PgbenchData.historyRows());
    assertTrue(xactCommit() - before >= 40, "the server saw the 40 selects commit");
  }

  /**
   * -b and -f mix by weight in command-line order (the simple-update, given first, is script 0 in
   * the log as in pgbench's), and the log has one line per op: the simple-update lines match the
   * history rows.
   */
  @Test
  void weightedMixLogsOneLinePerOpWithItsScript() throws Exception {
    PgbenchData.reset();
    Path sel = tmp.resolve("sel.sql");
    Files.writeString(
        sel,
        "\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid ="
            + " :aid;\n");
    Path prefix = tmp.resolve("mixlog");
    Cli r =
        run(
            "-b",
            "simple@1",
            "-f",
            sel + "@3",
            "-t",
            "100",
            "-c",
            "2",
            "--forks",
            "0",
            "-l",
            "--log-prefix",
            prefix.toString());
    assertEquals(0, r.exit, r.toString());
    List<Path> files = logs(prefix);
    assertEquals(2, files.size(), "one file per client: " + files);
    Map<Integer, Long> perScript = new HashMap<>();
    long lines = 0;
    for (Path f : files) {
      List<String> ls = Files.readAllLines(f);
      for (int i = 0; i < ls.size(); i++) {
        String[] x = ls.get(i).split(" ");
        assertEquals(6, x.length, ls.get(i));
        assertEquals(i + 1, Long.parseLong(x[1]), "transaction_no counts from 1: " + ls.get(i));
        assertTrue(Long.parseLong(x[2]) > 0, "latency in us: " + ls.get(i));
        perScript.merge(Integer.parseInt(x[3]), 1L, Long::sum);
      }
      lines += ls.size();
    }
    assertEquals(200, lines);
    long updates = perScript.getOrDefault(0, 0L);
    assertEquals(PgbenchData.historyRows(), updates, "script 0 is the simple-update: " + perScript);
    assertTrue(updates > 10 && updates < 100, "weights 1:3 give about 50 of 200: " + perScript);
  }

  /**
   * --aggregate-interval: pgbench 15's 15 fields per line; the intervals count every measured op
   * and their latency sums agree with the result's histogram.
   */
  @Test
  void aggregatedLogCountsTheMeasuredOps() throws Exception {
    PgbenchData.reset();
    Path prefix = tmp.resolve("agg");
    Cli r =
        run(
            "-S",
            "-T",
            "3s",
            "--warmup",
            "1s",
            "--iterations",
            "1",
            "-c",
            "2",
            "--forks",
            "0",
            "-l",
            "--aggregate-interval",
            "1",
            "--log-prefix",
            prefix.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode m = result().get("trials").get(0).get("measurement");
    long n = 0;
    double sum = 0;
    double max = 0;
    for (Path f : logs(prefix)) {
      for (String line : Files.readAllLines(f)) {
        String[] x = line.split(" ");
        assertEquals(15, x.length, line);
        n += Long.parseLong(x[1]);
        sum += Double.parseDouble(x[2]);
        max = Math.max(max, Double.parseDouble(x[5]));
      }
    }
    assertEquals(m.get("ops").asLong(), n, "warmup ops are not logged: " + m);
    double mean = m.get("latencyMs").get("mean").asDouble();
    assertEquals(mean, sum / n / 1000, mean * 0.02 + 0.002, "mean latency, ms");
    double histMax = m.get("latencyMs").get("max").asDouble();
    assertEquals(histMax, max / 1000, histMax * 0.01 + 0.002, "max latency, ms");
  }

  /** A failed op's line reads failed in pgbench's time column, one per failed op. */
  @Test
  void failedOpsAreLoggedAsFailed() throws Exception {
    Path half = tmp.resolve("half.sql");
    Files.writeString(half, "\\set x random(0, 1)\nSELECT 1 / :x;\n");
    Path prefix = tmp.resolve("fail");
    Cli r =
        run(
            "-f",
            half.toString(),
            "-t",
            "50",
            "-c",
            "2",
            "--forks",
            "0",
            "-l",
            "--log-prefix",
            prefix.toString());
    assertEquals(Main.COMPLETED_WITH_FAILURES, r.exit, r.toString());
    JsonNode m = result().get("trials").get(0).get("measurement");
    long failed = m.get("failedOps").asLong();
    assertTrue(failed > 10 && failed < 90, "about half of 100 divide by zero: " + m);
    assertEquals(100, m.get("ops").asLong() + failed);
    long lines = 0;
    long failedLines = 0;
    for (Path f : logs(prefix)) {
      for (String line : Files.readAllLines(f)) {
        lines++;
        failedLines += line.split(" ")[2].equals("failed") ? 1 : 0;
      }
    }
    assertEquals(100, lines);
    assertEquals(failed, failedLines);
  }

  @Test
  void builtinListNamesTheScriptsAndRunsNothing() {
    Cli r = Cli.run("-b", "list");
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("simple-update  = --workload simple_update"), r.out);
    assertTrue(r.out.lines().count() == 3, r.out);
  }

  @Test
  void exitOnAbortEndsTheRunAtTheFirstStoppedClient() throws Exception {
    Path bad = tmp.resolve("bad.sql");
    Files.writeString(
        bad, "\\if :client_id = 1\nSELECT 1 FRM pg_class;\n\\else\nSELECT 1;\n\\endif\n");
    Cli r =
        run(
            "-f",
            bad.toString(),
            "-c",
            "2",
            "-T",
            "60s",
            "--warmup",
            "0",
            "--iterations",
            "1",
            "--exit-on-abort");
    assertEquals(1, r.exit, r.toString());
    JsonNode m = result().get("trials").get(0).get("measurement");
    // the run's own record: it measured less than the 60 s asked for
    assertTrue(m.get("measuredSeconds").asDouble() < 60, "stops at the first abort: " + m);
    String why = m.get("stoppedBy").asText();
    assertTrue(why.startsWith("--exit-on-abort: client 1 stopped: bad.sql:2:"), why);
  }

  private static List<Path> logs(Path prefix) throws Exception {
    try (Stream<Path> s = Files.list(prefix.getParent())) {
      return s.filter(p -> p.getFileName().toString().startsWith(prefix.getFileName() + "."))
          .sorted()
          .toList();
    }
  }
}
