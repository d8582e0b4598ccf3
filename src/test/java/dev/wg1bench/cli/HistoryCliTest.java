package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.history.store.FreshDatabase;
import dev.wg1bench.history.store.HistoryStore;
import dev.wg1bench.history.store.HistoryStores;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.json.Json;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs into a history from the command line: a real run stored with --history and read back with
 * the result's own figures; bad input refused in one line with nothing stored; an unreachable
 * history losing nothing.
 */
class HistoryCliTest {
  @TempDir Path dir;
  Path home;

  @BeforeEach
  void ownHome() {
    // the default history lives under this test's own home, never the user's
    home = dir.resolve("home");
    System.setProperty("wg1bench.home", home.toString());
  }

  @AfterEach
  void noHome() {
    System.clearProperty("wg1bench.home");
  }

  private Path script() throws Exception {
    Path s = dir.resolve("one.sql");
    Files.writeString(s, "SELECT 1;\n");
    return s;
  }

  @Test
  void aRealRunIsStoredWithTheResultsOwnFigures() throws Exception {
    Path json = dir.resolve("run.json");
    Cli r =
        Cli.run(
            "--script",
            script().toString(),
            "-c",
            "1",
            "-T",
            "6s",
            "--warmup",
            "1s",
            "--iterations",
            "1",
            "--forks",
            "0",
            "--target",
            TestServer.url(),
            "-o",
            json.toString(),
            "--history",
            "--attr",
            "commit=abc",
            "--attr",
            "team=db");
    assertEquals(0, r.exit, r.toString());
    Matcher stored = Pattern.compile("history: stored run (\\S+) in (.+)").matcher(r.out);
    assertTrue(stored.find(), r.out);
    String id = stored.group(1);
    assertEquals(home.resolve("history").toString(), stored.group(2).trim());
    assertTrue(r.out.indexOf("result written to") < r.out.indexOf("history: stored run"));

    Cli list = Cli.run("history", "list");
    assertEquals(0, list.exit, list.toString());
    String row = list.out.lines().filter(l -> l.startsWith(id)).findFirst().orElseThrow();
    assertTrue(row.matches(id + "\\s+\\S+ \\S+\\s+run\\s+abc\\s+\\S+\\s+11"), row);
    assertTrue(list.out.contains("1 run(s) in " + home.resolve("history")), list.out);

    JsonNode m = Json.MAPPER.readTree(json.toFile()).get("trials").get(0).get("measurement");
    try (HistoryStore h = HistoryStores.open("", home)) {
      StoredRun run = h.runs().get(0);
      assertEquals(id, run.id());
      assertEquals("abc", run.commit());
      assertEquals("db", run.attributes().get("team"));
      assertEquals(json.toAbsolutePath().normalize().toString(), run.attributes().get("source"));
      assertTrue(run.attributes().containsKey("serverVersion"), run.attributes().toString());
      SeriesPoint tps = only(h.series("*/tps"));
      assertEquals(m.get("tps").asDouble(), tps.value());
      assertEquals("abc", tps.commit());
      if (m.get("tpsError").isNull()) {
        assertFalse(tps.hasInterval(), "no interval in the result, none in the history");
      } else {
        assertEquals(m.get("tps").asDouble() - m.get("tpsError").asDouble(), tps.low(), 1e-9);
        assertEquals(m.get("tps").asDouble() + m.get("tpsError").asDouble(), tps.high(), 1e-9);
      }
      assertEquals(m.get("latencyMs").get("p99").asDouble(), only(h.series("*/p99")).value());
      assertEquals(m.get("latencyMs").get("p50").asDouble(), only(h.series("*/p50")).value());
      assertEquals(m.get("latencyMs").get("p999").asDouble(), only(h.series("*/p99.9")).value());
      assertEquals(m.get("failedOps").asDouble(), only(h.series("*/failedOps")).value());
      assertEquals(m.get("retries").asDouble(), only(h.series("*/retries")).value());
      // the ops the windows attempted, failed included: what failed ops are a rate of
      double attempted = m.get("ops").asDouble() + m.get("failedOps").asDouble();
      assertEquals(attempted, only(h.series("*/failedOps")).attempts());
      assertEquals(attempted, only(h.series("*/retries")).attempts());
      assertTrue(h.series("*/attemptedOps").isEmpty(), "attempted ops are no series of their own");
      assertEquals(
          m.get("clientCpuMicrosPerOp").asDouble(), only(h.series("*/clientCpuPerOp")).value());
      assertEquals(
          m.get("serverCommitsPerSecond").asDouble(),
          only(h.series("*/serverCommitsPerSec")).value());
      // per op, as counted at the clients' sockets: one statement in one round trip
      JsonNode perOp = m.get("perOp");
      assertEquals(perOp.get("roundTrips").asDouble(), only(h.series("*/roundTripsPerOp")).value());
      assertEquals(perOp.get("statements").asDouble(), only(h.series("*/statementsPerOp")).value());
      Series s = h.series("*/tps").get(0);
      assertTrue(s.name().matches("one\\.sql clients=1 queryMode=simple .*@\\S+/tps"), s.name());
    }
  }

  private static SeriesPoint only(List<Series> series) {
    assertEquals(1, series.size(), series.toString());
    assertEquals(1, series.get(0).points().size());
    return series.get(0).points().get(0);
  }

  @Test
  void aReplayIsStoredWithItsThroughput() throws Exception {
    Path log = dir.resolve("a.csv");
    Files.writeString(
        log,
        "2024-05-01 12:00:00.100 UTC,\"alice\",\"app\",1,,1.a,1,,,,0,LOG,00000,"
            + "\"statement: SELECT 1\",,,,,,,,,\"psql\",\"client backend\",,0\n");
    String db =
        TestServer.target().jdbcUrl().replaceFirst("jdbc:postgresql://[^/]+/([^?]*).*", "$1");
    Path json = dir.resolve("replay.json");
    Cli r =
        Cli.run(
            "replay",
            log.toString(),
            "--target",
            TestServer.url(),
            "--speed",
            "max",
            "--map-database",
            "app=" + db,
            "-o",
            json.toString(),
            "--history",
            "--attr",
            "commit=r1");
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("history: stored run "), r.out);
    JsonNode t = Json.MAPPER.readTree(json.toFile()).get("throughput");
    try (HistoryStore h = HistoryStores.open("", home)) {
      StoredRun run = h.runs().get(0);
      assertEquals("replay", run.kind());
      assertEquals("r1", run.commit());
      SeriesPoint tps = only(h.series("replay a.csv speed=max */tps"));
      assertEquals(t.get("tps").asDouble(), tps.value());
    }
  }

  @Test
  void anUnreachableHistoryExits1AndKeepsTheResult() throws Exception {
    Path json = dir.resolve("kept.json");
    Cli r =
        Cli.run(
            "--script",
            script().toString(),
            "-c",
            "1",
            "-T",
            "1s",
            "--warmup",
            "0s",
            "--iterations",
            "1",
            "--forks",
            "0",
            "--target",
            TestServer.url(),
            "-o",
            json.toString(),
            "--history",
            "jdbc:postgresql://127.0.0.1:1/x");
    assertEquals(1, r.exit, r.toString());
    assertEquals(1, r.err.lines().count(), r.err);
    assertTrue(
        r.err.startsWith("wg1bench: history jdbc:postgresql://127.0.0.1:1/x: cannot be"), r.err);
    assertTrue(r.err.contains("the result is kept in " + json), r.err);
    assertTrue(Json.MAPPER.readTree(json.toFile()).get("trials").get(0).has("measurement"));
  }

  @Test
  void aFileThatIsNotAResultStoresNothingOfTheCall() throws Exception {
    Path good = sweep();
    Path bad = dir.resolve("notes.json");
    Files.writeString(bad, "{\"notes\": true}");
    Cli r = Cli.run("history", "add", good.toString(), bad.toString());
    assertEquals(2, r.exit, r.toString());
    assertEquals(
        "wg1bench: "
            + bad
            + ": not a wg1bench result; expected the JSON result of a wg1bench run, sweep,"
            + " advise, merge or replay",
        r.err.strip());
    Cli list = Cli.run("history", "list");
    assertEquals(0, list.exit, list.toString());
    assertTrue(list.out.startsWith("no runs in "), list.out);

    Cli ok = Cli.run("history", "add", good.toString(), "--attr", "commit=def");
    assertEquals(0, ok.exit, ok.toString());
    assertTrue(ok.out.startsWith("history: stored run "), ok.out);
    try (HistoryStore h = HistoryStores.open("", home)) {
      assertEquals("def", h.runs().get(0).commit());
      assertEquals("sweep", h.runs().get(0).kind());
    }
  }

  /** The golden agent result made a plain sweep with repeats (its agents section removed). */
  private Path sweep() throws Exception {
    ObjectNode tree =
        (ObjectNode)
            Json.MAPPER.readTree(Path.of("src/test/resources/golden/agent-run.json").toFile());
    tree.remove("agents");
    Path f = dir.resolve("sweep.json");
    Json.MAPPER.writeValue(f.toFile(), tree);
    return f;
  }

  @Test
  void badLocationsAndAttributesAreUsageErrorsBeforeAnythingRuns() throws Exception {
    Path json = dir.resolve("never.json");
    String[][] cases = {
      {"--history", "mysql://db/x"},
      {"--attr", "commit=abc"},
      {"--history", "--attr", "bad key=1"},
    };
    String[] expected = {
      "wg1bench: --history 'mysql://db/x' is not a history location; valid: no value (the default"
          + " folder under $WG1BENCH_HOME, default ~/.wg1bench) or a"
          + " jdbc:postgresql://HOST[:PORT]/DATABASE URL",
      "wg1bench: --attr is stored with the run: it needs --history",
      "wg1bench: --attr 'bad key': a KEY starts with a letter and has only letters, digits, '_',"
          + " '.' or '-'",
    };
    for (int i = 0; i < cases.length; i++) {
      List<String> args =
          new java.util.ArrayList<>(
              List.of(
                  "--script",
                  script().toString(),
                  "-T",
                  "1s",
                  "--target",
                  TestServer.url(),
                  "-o",
                  json.toString()));
      args.addAll(List.of(cases[i]));
      Cli r = Cli.run(args.toArray(String[]::new));
      assertEquals(2, r.exit, r.toString());
      assertEquals(expected[i], r.err.strip());
      assertFalse(Files.exists(json), "nothing ran");
    }
    Cli add = Cli.run("history", "add", sweep().toString(), "--history", "file:/tmp/h");
    assertEquals(2, add.exit, add.toString());
    assertTrue(add.err.startsWith("wg1bench: --history 'file:/tmp/h' is not a history"), add.err);
  }

  @Test
  void aSharedHistoryOfANewerSchemaExits1InOneLine() throws Exception {
    try (FreshDatabase db = new FreshDatabase()) {
      Cli first = Cli.run("history", "add", sweep().toString(), "--history", db.url);
      assertEquals(0, first.exit, first.toString());
      assertTrue(first.out.contains("(schema wg1bench_history)"), first.out);
      try (Connection c = db.connect();
          Statement st = c.createStatement()) {
        st.execute("INSERT INTO wg1bench_history.schema_version (version) VALUES (999)");
      }
      Cli r = Cli.run("history", "add", sweep().toString(), "--history", db.url);
      assertEquals(1, r.exit, r.toString());
      assertEquals(1, r.err.lines().count(), r.err);
      assertTrue(r.err.contains("is at version 999, newer than this wg1bench knows"), r.err);
      try (Connection c = db.connect();
          Statement st = c.createStatement();
          var rs = st.executeQuery("SELECT count(*) FROM wg1bench_history.run")) {
        rs.next();
        assertEquals(1, rs.getInt(1), "nothing written by the refused call");
      }
    }
  }
}
