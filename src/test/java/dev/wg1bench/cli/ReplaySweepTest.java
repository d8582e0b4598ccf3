package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.EmbeddedServer;
import dev.wg1bench.server.EmbeddedTarget;
import dev.wg1bench.support.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay as a source of trials, on a database of its own on the test server: the README's example
 * csvlog (config/replay/example.csv) (two sessions, 8 statements, 5 transactions, 2 INSERTs and an
 * UPDATE of the rows the INSERT adds, one division by zero) swept over query modes, restored with
 * --fresh before each trial, written as CSV and HTML, and run as an advise claim.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplaySweepTest {
  private static final Path LOG = Path.of("config/replay/example.csv").toAbsolutePath();
  private static final Path SQL = Path.of("config/replay/example.sql");
  private static final int BASE_ROWS = 3;

  @TempDir Path dir;
  private String db;

  /** The test's own database, made again before each test with BASE_ROWS rows. */
  @BeforeEach
  void database() throws Exception {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement();
        ResultSet r = st.executeQuery("SELECT current_database()")) {
      r.next();
      db = r.getString(1) + "_sweep";
    }
    admin("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
    admin("CREATE DATABASE " + db);
    try (Connection c = connect(db);
        Statement st = c.createStatement()) {
      st.execute(Files.readString(SQL));
    }
  }

  @AfterAll
  void drop() throws SQLException {
    if (db != null) {
      admin("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
      admin("DROP DATABASE IF EXISTS " + db + "_wg1bench_template");
    }
  }

  private static void admin(String sql) throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private static Connection connect(String db) throws SQLException {
    return java.sql.DriverManager.getConnection(url(db));
  }

  private static String url(String db) {
    return TestServer.url().replaceFirst("(jdbc:postgresql://[^/]+/)[^?]*", "$1" + db);
  }

  private long rows() throws SQLException {
    try (Connection c = connect(db);
        Statement st = c.createStatement();
        ResultSet r = st.executeQuery("SELECT count(*) FROM replay_t")) {
      r.next();
      return r.getLong(1);
    }
  }

  private Cli sweep(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "replay",
                LOG.toString(),
                "--target",
                url(db),
                "--speed",
                "max",
                "-M",
                "simple,prepared",
                "-o",
                dir.resolve("sweep.json").toString()));
    args.addAll(List.of(extra));
    if (args.stream().anyMatch(a -> a.startsWith("--fresh")) && !args.contains("--warmup")) {
      // the client's warm-up, a second of it rather than the default ten
      args.addAll(List.of("--warmup", "1s"));
    }
    return Cli.run(args.toArray(new String[0]));
  }

  private static JsonNode fidelity(JsonNode trial, String what) {
    for (JsonNode f : trial.get("fidelity")) {
      if (f.get("what").asText().equals(what)) {
        return f;
      }
    }
    throw new AssertionError("no fidelity line " + what);
  }

  /** Statements and transactions replayed equal the log's, in each trial of the sweep. */
  private JsonNode assertTwoFaithfulTrials() throws Exception {
    JsonNode run = Json.MAPPER.readTree(dir.resolve("sweep.json").toFile());
    assertEquals("replay-sweep", run.get("kind").asText());
    assertEquals(List.of("queryMode"), Json.MAPPER.convertValue(run.get("varying"), List.class));
    JsonNode trials = run.get("trials");
    assertEquals(2, trials.size(), run.toString());
    String[] modes = {"simple", "prepared"};
    for (int i = 0; i < 2; i++) {
      JsonNode t = trials.get(i);
      assertEquals(modes[i], t.get("point").get("queryMode").asText());
      assertEquals(modes[i], t.get("settings").get("queryMode").asText());
      for (String what : new String[] {"sessions", "statements", "transactions", "errors"}) {
        JsonNode f = fidelity(t, what);
        assertEquals(f.get("log").asLong(), f.get("replay").asLong(), what + ": " + t);
      }
      assertEquals(8, fidelity(t, "statements").get("replay").asLong());
      assertEquals(5, fidelity(t, "transactions").get("replay").asLong());
      assertEquals(2, t.get("dataChanges").get("INSERT").asLong());
      assertEquals(1, t.get("dataChanges").get("UPDATE").asLong());
    }
    return trials;
  }

  @Test
  void aSweepWithFreshStartsEachTrialFromTheSameRows() throws Exception {
    Cli r =
        sweep(
            "--fresh",
            "--warmup",
            "1s",
            "--csv",
            dir.resolve("sweep.csv").toString(),
            "--html",
            dir.resolve("sweep.html").toString());
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("changes data: 2 INSERT, 1 UPDATE"), r.out);
    JsonNode trials = assertTwoFaithfulTrials();
    // the client's warm-up (--warmup's default with --fresh) played the whole log once before
    // the trials; its writes are gone: each trial still starts from the restored rows
    assertTrue(r.out.contains("warm-up: "), r.out);
    for (JsonNode t : trials) {
      assertTrue(t.get("fresh").asText().startsWith("template"), t.toString());
      // the UPDATE finds only the row its own trial inserted: 2 inserted + 1 updated
      assertEquals(3, fidelity(t, "rows affected").get("replay").asLong(), t.toString());
      // passes of the whole log (8 statements each) until --warmup is spent: at most two cut, the
      // one at --speed max under way at the half and the one at the trial's speed at the end
      JsonNode w = t.get("warmup");
      assertTrue(w.get("passes").asInt() >= 1, t.toString());
      assertTrue(w.get("statements").asLong() >= 8L * (w.get("passes").asInt() - 2), t.toString());
      assertTrue(w.get("seconds").asDouble() >= 1.0, "no sooner than --warmup: " + w);
      assertEquals(0.0, w.get("laterSpeed").asDouble(), "a trial at --speed max: both halves");
    }
    assertEquals(BASE_ROWS + 2, rows(), "the last trial's rows on the restored copy");
    assertTemplateDropped();

    String csv = Files.readString(dir.resolve("sweep.csv"));
    assertTrue(csv.startsWith("trial,target,queryMode,class,log_count,replay_count,"), csv);
    for (String mode : new String[] {"simple", "prepared"}) {
      assertTrue(
          csv.contains(mode + ",\"INSERT INTO replay_t (n, note) VALUES ($1, $2)\",2,2,0,0,2,0,"),
          csv);
      assertTrue(csv.contains(mode + ",\"SELECT $1/$2\",1,1,1,1,"), csv);
    }
    String fid = Files.readString(dir.resolve("sweep-fidelity.csv"));
    assertTrue(fid.startsWith("trial,target,queryMode,table,what,log,replay"), fid);
    assertTrue(fid.contains("simple,fidelity,statements,8,8"), fid);
    assertTrue(fid.contains("prepared,fidelity,transactions,5,5"), fid);
    assertTrue(fid.contains("prepared,errors,22012,1,1"), fid);
    assertTrue(fid.contains(",throughput,transactions_per_s,,"), fid);
    String html = Files.readString(dir.resolve("sweep.html"));
    assertTrue(html.contains("<td>fidelity</td><td>statements</td>"), html);
    assertTrue(html.contains("<td>errors</td><td>22012</td>"), html);
    assertTrue(html.contains("INSERT INTO replay_t (n, note) VALUES ($1, $2)"), html);
    assertTrue(html.contains("Trial 2: "), html);

    // the report command renders the JSON alike
    Path report = dir.resolve("report");
    Cli rep = Cli.run("report", dir.resolve("sweep.json").toString(), "--html", report.toString());
    assertEquals(0, rep.exit, rep.toString());
    assertEquals(html, Files.readString(report.resolve("index.html")));
    assertEquals(csv, Files.readString(report.resolve("replay.csv")));
    assertEquals(fid, Files.readString(report.resolve("replay-fidelity.csv")));
  }

  @Test
  void warmupZeroPlaysNothingBeforeTheTrials() throws Exception {
    Cli r = sweep("--fresh", "--warmup", "0");
    assertEquals(0, r.exit, r.toString());
    assertFalse(r.out.contains("warm-up"), r.out);
    for (JsonNode t : assertTwoFaithfulTrials()) {
      assertTrue(t.path("warmup").isNull() || t.path("warmup").isMissingNode(), t.toString());
      assertEquals(3, fidelity(t, "rows affected").get("replay").asLong(), t.toString());
    }
    assertEquals(BASE_ROWS + 2, rows());
  }

  @Test
  void withoutFreshTheSecondTrialFindsTheFirstOnesRows() throws Exception {
    Cli r = sweep();
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("without --fresh each trial starts from the data"), r.out);
    JsonNode trials = assertTwoFaithfulTrials();
    // no warm-up without --fresh: it would leave its writes behind
    assertFalse(r.out.contains("warm-up"), r.out);
    assertTrue(
        trials.get(0).path("warmup").isNull() || trials.get(0).path("warmup").isMissingNode());
    assertEquals(3, fidelity(trials.get(0), "rows affected").get("replay").asLong());
    // the UPDATE ... WHERE n = 1 now also finds the row trial 1 inserted
    assertEquals(4, fidelity(trials.get(1), "rows affected").get("replay").asLong());
    assertEquals(BASE_ROWS + 4, rows());
  }

  /**
   * A custom-format dump restored with pg_restore before each trial. pg_dump refuses a server newer
   * than itself (Debian's pg_dump 15 against the embedded 17, say): the same base is then dumped
   * from an embedded server of pg_dump's own major, as a dump taken from an older production server
   * is, and restored into the test server, so the test runs wherever pg_dump and pg_restore are.
   */
  @Test
  void freshFromACustomFormatPgDump() throws Exception {
    String pgDump = ReplayCaptureTest.onPath("pg_dump");
    assumeTrue(
        pgDump != null && ReplayCaptureTest.onPath("pg_restore") != null,
        "pg_dump and pg_restore on PATH");
    Path dump = dir.resolve("base.dump");
    int dumpMajor = major(run(pgDump, "--version"));
    if (dumpMajor >= serverMajor()) {
      pgDump(pgDump, url(db).replace("jdbc:", ""), dump);
    } else {
      assumeTrue(
          EmbeddedMajorsTest.majors().contains(dumpMajor),
          "pg_dump " + dumpMajor + " is older than the server and no embedded major");
      try (EmbeddedServer older =
          EmbeddedServer.start(EmbeddedTarget.spec(Integer.toString(dumpMajor)), 1)) {
        TargetSpec t = older.target();
        try (Connection c = DriverManager.getConnection(t.jdbcUrl(), t.user(), "");
            Statement st = c.createStatement()) {
          st.execute(Files.readString(SQL));
        }
        pgDump(pgDump, t.jdbcUrl().replace("jdbc:", "") + "?user=" + t.user(), dump);
      }
    }
    assertFreshFrom(dump);
  }

  private static void pgDump(String pgDump, String uri, Path dump) throws Exception {
    run(pgDump, "-Fc", "-f", dump.toString(), "-d", uri);
  }

  /** Runs a client tool; its output, or a failure with it when the tool fails. */
  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", command));
    assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + out);
    return out;
  }

  /** The major of "pg_dump (PostgreSQL) 15.20 (Debian ...)". */
  private static int major(String version) {
    Matcher m = Pattern.compile("\\) (\\d+)").matcher(version);
    assertTrue(m.find(), version);
    return Integer.parseInt(m.group(1));
  }

  private int serverMajor() throws SQLException {
    try (Connection c = connect(db);
        Statement st = c.createStatement();
        ResultSet r = st.executeQuery("SHOW server_version_num")) {
      r.next();
      return r.getInt(1) / 10000;
    }
  }

  /** Side by side: one trial per target, each named in its point. */
  @Test
  void severalTargetsGiveOneTrialEach() throws Exception {
    Path out = dir.resolve("targets.json");
    Cli r =
        Cli.run(
            "replay",
            LOG.toString(),
            "--target",
            "a=" + url(db),
            "--target",
            "b=" + url(db),
            "--speed",
            "max",
            "-o",
            out.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode run = Json.MAPPER.readTree(out.toFile());
    assertEquals(List.of("target"), Json.MAPPER.convertValue(run.get("varying"), List.class));
    String[] names = {"a", "b"};
    for (int i = 0; i < 2; i++) {
      JsonNode t = run.get("trials").get(i);
      assertEquals(names[i], t.get("point").get("target").asText());
      assertEquals(names[i], t.get("target").asText());
      assertEquals(8, fidelity(t, "statements").get("replay").asLong());
      // every result records the server it ran on and the machine
      assertTrue(t.get("server").get("version").asText().matches("\\d+.*"), t.toString());
      assertTrue(t.get("server").get("settings").has("shared_buffers"), t.toString());
      assertTrue(t.get("machine").get("cores").asInt() > 0, t.toString());
    }
    assertEquals(BASE_ROWS + 4, rows(), "both replays wrote to the one database");
  }

  @Test
  void freshRefusesWhatItWouldNotRestore() {
    Cli none = sweep("--fresh=template=" + db + "_no_such_template");
    assertEquals(2, none.exit, none.toString());
    assertEquals(
        "wg1bench: --fresh template="
            + db
            + "_no_such_template: no such database on "
            + none.err.substring(none.err.lastIndexOf(' ') + 1).strip(),
        none.err.strip());
    Cli postgres =
        Cli.run(
            "replay",
            LOG.toString(),
            "--target",
            url("postgres"),
            "--fresh",
            "-o",
            dir.resolve("p.json").toString());
    assertEquals(2, postgres.exit, postgres.toString());
    assertTrue(
        postgres.err.startsWith(
            "wg1bench: --fresh drops and re-creates the target's database, which is postgres"),
        postgres.err);
  }

  /** A template the user made: restored from before each trial, and left in place after. */
  @Test
  void freshFromANamedTemplate() throws Exception {
    String template = db + "_tpl";
    admin("DROP DATABASE IF EXISTS " + template);
    admin("CREATE DATABASE " + template + " TEMPLATE " + db);
    try {
      Cli r = sweep("--fresh=template=" + template);
      assertEquals(0, r.exit, r.toString());
      for (JsonNode t : assertTwoFaithfulTrials()) {
        assertEquals("template " + template, t.get("fresh").asText());
        assertEquals(3, fidelity(t, "rows affected").get("replay").asLong(), t.toString());
      }
      assertEquals(BASE_ROWS + 2, rows());
      try (Connection c = TestServer.connect();
          Statement st = c.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT count(*) FROM pg_database WHERE datname = '" + template + "'")) {
        rs.next();
        assertEquals(1, rs.getLong(1), "a named template is the user's: left as it is");
      }
    } finally {
      admin("DROP DATABASE IF EXISTS " + template);
    }
  }

  /** A plain SQL dump (as pg_dump -Fp writes one) restored with psql before each trial. */
  @Test
  void freshFromAPlainSqlDump() throws Exception {
    assumeTrue(ReplayCaptureTest.onPath("psql") != null, "psql on PATH");
    assertFreshFrom(SQL);
  }

  private void assertFreshFrom(Path dump) throws Exception {
    Cli r = sweep("--fresh=dump=" + dump);
    assertEquals(0, r.exit, r.toString());
    for (JsonNode t : assertTwoFaithfulTrials()) {
      assertEquals("dump " + dump, t.get("fresh").asText());
      assertEquals(3, fidelity(t, "rows affected").get("replay").asLong(), t.toString());
    }
    assertEquals(BASE_ROWS + 2, rows());
  }

  @Test
  void anAdviseClaimOnALogGivesAVerdict() throws Exception {
    Path advice = Files.createDirectories(dir.resolve("advice"));
    Files.writeString(
        advice.resolve("replay-prepared.properties"),
        String.join(
            "\n",
            "claim=prepared statements speed up the captured traffic",
            "seed=a test log",
            "expect=higher",
            "common=--replay " + LOG + " --speed max --fresh",
            "baseline=--query-mode simple",
            "treatment=--query-mode prepared",
            ""));
    Path out = dir.resolve("advise.json");
    Cli r =
        Cli.run(
            "advise",
            "--advice-dir",
            advice.toString(),
            "--blocks",
            "2",
            "--seed",
            "1",
            "--target",
            url(db),
            "-o",
            out.toString());
    assertEquals(0, r.exit, r.toString());
    assertTrue(
        r.out
            .lines()
            .anyMatch(
                l ->
                    l.startsWith("replay-prepared ")
                        && l.matches(".*(confirms|contradicts|equivalent|inconclusive).*")),
        r.out);
    JsonNode run = Json.MAPPER.readTree(out.toFile());
    assertEquals(4, run.get("trials").size(), "2 blocks of 2 trials");
    for (JsonNode t : run.get("trials")) {
      JsonNode m = t.get("measurement");
      assertEquals(8, m.get("statements").asLong(), "every trial replays the whole log: " + t);
      assertEquals(5, m.get("totalOps").asLong(), "an op is a transaction: " + t);
      // the log's division by zero happened in the replay too: the capture's traffic as it was,
      // not a failed op (only errors beyond the log's own fail ops, and so break an arm)
      assertNull(m.get("failures").get("22012"), "the log's division by zero: " + t);
      assertEquals(0, m.get("totalFailedOps").asLong(), t.toString());
      // counted at the sessions' sockets, per op (a transaction): each of the 8 statements is one
      // round trip in either query mode; the division by zero completes no statement
      JsonNode perOp = m.get("perOp");
      assertEquals(8 / 5.0, perOp.get("roundTrips").asDouble(), 1e-9, perOp.toString());
      assertEquals(7 / 5.0, perOp.get("statements").asDouble(), 1e-9, perOp.toString());
    }
    assertEquals(2, run.get("advice").get(0).get("blocks").asInt(), run.get("advice").toString());
    assertEquals(BASE_ROWS + 2, rows(), "each trial started from the template");
    assertTemplateDropped();

    // a run option that does not apply to a replay is refused, naming the valid ones
    Files.writeString(
        advice.resolve("replay-prepared.properties"),
        "claim=c\nseed=s\ncommon=--replay "
            + LOG
            + " --clients 4\nbaseline=\ntreatment=-M prepared\n");
    Cli bad = Cli.run("advise", "--advice-dir", advice.toString(), "--target", url(db));
    assertEquals(2, bad.exit, bad.toString());
    assertTrue(
        bad.err.startsWith(
            "wg1bench: advice replay-prepared (baseline): --clients does not apply to a replay"
                + " arm"),
        bad.err);
  }

  private void assertTemplateDropped() throws SQLException {
    try (Connection c = TestServer.connect();
        var ps = c.prepareStatement("SELECT count(*) FROM pg_database WHERE datname = ?")) {
      ps.setString(1, db + "_wg1bench_template");
      try (ResultSet r = ps.executeQuery()) {
        r.next();
        assertEquals(0, r.getLong(1), "the template --fresh made is dropped at the end");
      }
    }
  }
}
