package dev.wg1bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.cli.Main;
import dev.wg1bench.json.Histograms;
import dev.wg1bench.support.Await;
import dev.wg1bench.support.MainOut;
import dev.wg1bench.support.OwnServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * tps is exact at every client count: successful ops over the window they completed in, never above
 * attempted ops/s, and within 1% of the rate PostgreSQL's own commit counter shows over the same
 * window. Server commits minus the tool's ops is a constant, however many ops failed.
 */
class ExactThroughputTest {
  private static OwnServer server;
  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    server = OwnServer.start(200);
    // autovacuum's transactions count in the same counter, at moments of their own choosing
    for (String t :
        List.of("pgbench_accounts", "pgbench_branches", "pgbench_tellers", "pgbench_history")) {
      server.execute("ALTER TABLE " + t + " SET (autovacuum_enabled = off)");
    }
    // and on the catalogs too (this class's own server): a loaded machine's runs differed by one
    // to three commits with the pgbench tables alone left out
    server.execute("ALTER SYSTEM SET autovacuum = off");
    server.execute("SELECT pg_reload_conf()");
    server.execute("CREATE EXTENSION IF NOT EXISTS pg_walinspect");
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  record Run(String out, JsonNode trial) {}

  private Run run(String... extra) throws Exception {
    Path json = tmp.resolve("r" + System.nanoTime() + ".json");
    List<String> args =
        new ArrayList<>(
            List.of("--target", server.url(), "--forks", "0", "--output", json.toString()));
    args.addAll(List.of(extra));
    MainOut.Ran ran = MainOut.run(args);
    int exit = ran.exit();
    String out = ran.out();
    assertTrue(exit == 0 || exit == Main.COMPLETED_WITH_FAILURES, "exit " + exit + "\n" + out);
    return new Run(out, new ObjectMapper().readTree(json.toFile()).get("trials").get(0));
  }

  /**
   * Commit records the server wrote with a commit time inside the window: the WAL positions read at
   * the window's ends bracket it, and each record carries its commit timestamp.
   */
  private static long walCommits(JsonNode w) throws Exception {
    return walCommits(w, 0, w.get("seconds").asDouble());
  }

  /**
   * Commit records written after the window's first counter read whose commit time lies between
   * {@code fromS} and {@code toS} seconds after the window's start.
   */
  private static long walCommits(JsonNode w, double fromS, double toS) throws Exception {
    try (Connection c = server.connect();
        java.sql.PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM pg_get_wal_records_info(?::pg_lsn,"
                    + " least(?::pg_lsn, pg_current_wal_flush_lsn()))"
                    + " WHERE resource_manager = 'Transaction' AND record_type = 'COMMIT'"
                    + " AND substring(description from '^[^;]*')::timestamptz"
                    + "   >= ?::timestamptz + make_interval(secs => ?)"
                    + " AND substring(description from '^[^;]*')::timestamptz"
                    + "   < ?::timestamptz + make_interval(secs => ?)")) {
      ps.setString(1, w.get("walStart").asText());
      // the edges' neighbourhoods (a failure's diagnosis) reach past the window's end read
      ps.setString(
          2, toS > w.get("seconds").asDouble() ? "FFFFFFFF/FFFFFFFF" : w.get("walEnd").asText());
      ps.setString(3, w.get("startedAt").asText());
      ps.setDouble(4, fromS);
      ps.setString(5, w.get("startedAt").asText());
      ps.setDouble(6, toS);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * Per window: the ops the tool counted, the WAL's commits, and the WAL's commits in the 0.3 s
   * before its start and after its end (what a failed bound is made of).
   */
  private static String windowsSeen(JsonNode m) throws Exception {
    StringBuilder b = new StringBuilder();
    for (JsonNode w : m.get("windows")) {
      double s = w.get("seconds").asDouble();
      b.append(
          String.format(
              java.util.Locale.ROOT,
              "window %s %.3f s: ops %d, WAL %d; WAL 0.3 s before %d, first 0.3 s %d,"
                  + " last 0.3 s %d, 0.3 s after %d%n",
              w.get("startedAt").asText(),
              s,
              w.get("ops").asLong(),
              walCommits(w),
              walCommits(w, -0.3, 0),
              walCommits(w, 0, 0.3),
              walCommits(w, s - 0.3, s),
              walCommits(w, s, s + 0.3)));
    }
    return b.toString();
  }

  /**
   * update1 commits one transaction per op, and each writes one commit record, stamped with its
   * commit time, into the WAL: the records stamped inside the window are the server's exact count
   * over it. pg_stat_database.xact_commit, which backends publish up to a second late, is only
   * checked for gross disagreement (JMH's score was 2.8 times too high here).
   */
  @ParameterizedTest
  @ValueSource(ints = {4, 64, 200})
  void tpsIsSuccessfulOpsOverTheWindowAndAgreesWithTheServersCommits(int clients) throws Exception {
    tpsAgreesWithTheServersCommits(clients);
  }

  /**
   * On virtual threads too: the clients' ops counted over the windows are what the server's WAL
   * shows committed over them, within the same 1%.
   */
  @Test
  @Tag("java21")
  @EnabledForJreRange(min = JRE.JAVA_21)
  void onVirtualThreadsTpsAgreesWithTheServersCommits() throws Exception {
    Run r = tpsAgreesWithTheServersCommits(64, "--threads", "virtual");
    JsonNode t = r.trial().get("client").get("threads");
    assertEquals("virtual", t.get("kind").asText(), r.out());
    assertEquals("virtual", r.trial().get("point").get("threads").asText());
    assertTrue(t.get("pinnedAll").asLong() >= t.get("pinned").asLong(), t.toString());
    assertTrue(t.get("carrierParallelism").asInt() > 0, t.toString());
  }

  private Run tpsAgreesWithTheServersCommits(int clients, String... extra) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--workload",
                "update1",
                "--clients",
                Integer.toString(clients),
                "--warmup",
                "1s",
                // windows of 5 s: an op committed just inside a window's edge is seen by its
                // client a moment later, and with 200 clients on a busy 2-core machine that moment
                // is tens of ms; over 5 s it stays well inside the 1% the test asks for
                "--duration",
                "10s",
                "--iterations",
                "2"));
    args.addAll(List.of(extra));
    Run r = run(args.toArray(new String[0]));
    JsonNode m = r.trial().get("measurement");
    double seconds = m.get("measuredSeconds").asDouble();
    long ok = m.get("ops").asLong();
    long failed = m.get("failedOps").asLong();
    double tps = m.get("tps").asDouble();
    assertEquals(10.0, seconds, 1e-6, "two windows of exactly 5 s");
    assertTrue(ok > 0, r.out());
    assertEquals(ok / seconds, tps, 1e-9 * tps, "tps = successful ops / window");
    assertEquals((ok + failed) / seconds, m.get("attemptedOpsPerSecond").asDouble(), 1e-9 * tps);
    assertTrue(tps <= m.get("attemptedOpsPerSecond").asDouble(), r.out());
    // update1 sends one statement per op: statements/s cannot be below tps either
    assertTrue(tps <= m.get("statementsPerSecond").asDouble() + 1e-9, r.out());
    long wal = 0;
    for (JsonNode w : m.get("windows")) {
      wal += walCommits(w);
    }
    double walRate = wal / seconds;
    String seen =
        String.format(
            java.util.Locale.ROOT,
            "%d clients: tps %.1f, attempted %.1f, ops/measured s %.1f, WAL commits/s %.1f,"
                + " xact_commit/s %.1f%n%s",
            clients,
            tps,
            m.get("attemptedOpsPerSecond").asDouble(),
            ok / seconds,
            walRate,
            m.get("serverCommitsPerSecond").asDouble(),
            r.out());
    System.err.println(seen);
    // exact up to the ops in flight at a window's edges: each client has at most one op that the
    // server committed inside a window but the client saw complete after its end (or the other
    // way round at its start), however slow the machine makes that moment
    int windows = m.get("windows").size();
    long edge = 2L * clients * windows;
    if (Math.abs(ok - wal) > edge) {
      fail("|ops - WAL commits| <= " + edge + ": " + windowsSeen(m) + seen);
    }
    if (m.get("serverCommitsPerSecond").isNull()) {
      // the tool withholds the server's rate when reading its counter took so long that the time
      // between the reads is not the window: a busy machine's doing, not a figure to assert (the
      // WAL count above is the exact check)
      System.err.println("server rate withheld: " + m.get("windows"));
      assertTrue(r.out().contains("server commits/s: not shown ("), r.out());
    } else {
      double server = m.get("serverCommitsPerSecond").asDouble();
      // xact_commit: a busy backend publishes its commits at most once a second, so each of the
      // two reads per window may miss up to a second of them
      double windowSeconds = seconds / windows;
      assertTrue(Math.abs(tps - server) <= 2.0 / windowSeconds * server + edge / seconds, seen);
    }
    // the per-second samples are the window's ops, second by second
    long sum = 0;
    for (JsonNode n : m.get("opsPerSecond")) {
      sum += n.asLong();
    }
    assertEquals(10, m.get("opsPerSecond").size());
    assertEquals(ok, sum);
    // the result carries the latency histogram of exactly the counted ops
    Histogram h = Histograms.decode(m.get("latencyHistogram").asText());
    assertEquals(ok, h.getTotalCount());
    assertTrue(
        r.out().contains("server commits/s = ") || r.out().contains("server commits/s: not shown"),
        r.out());
    return r;
  }

  /**
   * A URL's sslmode=disable is reported as asked, with what the connections negotiated beside it
   * (pg_stat_ssl), not as pgjdbc's default.
   */
  @Test
  void theSslmodeAskedAndTheOneNegotiatedAreReported() throws Exception {
    Path json = tmp.resolve("ssl.json");
    StringWriter o = new StringWriter();
    int exit =
        Main.execute(
            new PrintWriter(o, true),
            new PrintWriter(System.err, true),
            "--target",
            server.url() + "&sslmode=disable",
            "--forks",
            "0",
            "--workload",
            "select_only",
            "--clients",
            "2",
            "--warmup",
            "0",
            "--duration",
            "1s",
            "--iterations",
            "1",
            "--output",
            json.toString());
    String out = o.toString();
    assertEquals(0, exit, out);
    JsonNode client = new ObjectMapper().readTree(json.toFile()).get("trials").get(0).get("client");
    assertEquals("disable (in the URL)", client.get("sslmode").asText());
    assertEquals("off", client.get("ssl").asText());
    assertTrue(out.contains("connection: ssl off (sslmode disable (in the URL))"), out);
  }

  /** Each op commits once on the server: one UPDATE in autocommit. */
  private Path script(String aid) throws Exception {
    Path f = tmp.resolve("update" + System.nanoTime() + ".sql");
    Files.writeString(
        f,
        "\\set aid "
            + aid
            + "\nUPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;\n");
    return f;
  }

  /**
   * The database's commit counter once every backend of the last run has exited (each publishes its
   * counts as it exits), read by one probe whose own commit lands in the next reading.
   */
  private long serverCommits() throws Exception {
    // this class's own server: every other session of the tool is one of its runs'
    Await.toolBackendsGone(ExactThroughputTest::scalar, null);
    try (Connection c = server.connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * A count for {@link Await#toolBackendsGone}, asked from another database: each poll commits, and
   * how many polls the wait takes depends on how fast the backends exit, so polls in this database
   * changed the count around a run by a few commits from one run to the next.
   */
  private static long scalar(String sql) {
    try (Connection c = server.connect("template1");
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (java.sql.SQLException e) {
      throw new AssertionError(sql + ": " + e.getMessage(), e);
    }
  }

  /** Commits the server counted during a run, minus the ops the tool counted over the trial. */
  private long overhead(Path script, boolean failures, String... extra) throws Exception {
    long before = serverCommits();
    List<String> args =
        new ArrayList<>(
            List.of(
                "--script",
                script.toString(),
                "--isolation",
                "repeatable-read",
                "--clients",
                "4",
                "--warmup",
                "500ms",
                "--duration",
                "2s",
                "--iterations",
                "2"));
    args.addAll(List.of(extra));
    Run r = run(args.toArray(new String[0]));
    String kind = extra.length > 0 ? extra[extra.length - 1] : "platform";
    assertEquals(kind, r.trial().get("client").get("threads").get("kind").asText(), r.out());
    long after = serverCommits();
    JsonNode m = r.trial().get("measurement");
    long failed = m.get("totalFailedOps").asLong();
    if (failures) {
      assertTrue(failed > 100, "the hot rows must make serialization failures: " + r.out());
      assertEquals(m.get("failedOps").asLong(), m.get("failures").get("serialization").asLong());
    } else {
      assertEquals(0, failed, r.out());
    }
    return after - before - m.get("totalOps").asLong();
  }

  @Test
  void serverCommitsMinusToolOpsIsTheSameWithAndWithoutFailures() throws Exception {
    long clean = overhead(script(":client_id + 1"), false);
    long failing = overhead(script("random(1, 2)"), true);
    long cleanAgain = overhead(script(":client_id + 1"), false);
    assertEquals(clean, cleanAgain, "the tool's own set-up commits are a constant");
    assertEquals(
        clean, failing, "a failed op must not cost a commit (no health check after 40001)");
    assertNotNull(server);
  }

  /**
   * Virtual threads change nothing the server sees: commits minus the tool's ops over the trial is
   * the same constant as on platform threads, with and without failing ops.
   */
  @Test
  @Tag("java21")
  @EnabledForJreRange(min = JRE.JAVA_21)
  void onVirtualThreadsServerCommitsMinusToolOpsIsThePlatformConstant() throws Exception {
    long platform = overhead(script(":client_id + 1"), false, "--threads", "platform");
    long virtual = overhead(script(":client_id + 1"), false, "--threads", "virtual");
    long failing = overhead(script("random(1, 2)"), true, "--threads", "virtual");
    assertEquals(platform, virtual, "virtual threads must not change the tool's own commits");
    assertEquals(platform, failing, "a failed op must not cost a commit on virtual threads either");
  }
}
