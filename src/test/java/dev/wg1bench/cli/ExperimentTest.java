package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three experiments end to end at tiny sizes on a real server: the JSON's structure and sane
 * values, the plots, their own tables gone afterwards and no other table touched, the safety rule,
 * bad input.
 */
class ExperimentTest {
  @TempDir Path tmp;

  private Cli run(String... args) {
    List<String> a = new ArrayList<>(List.of(args));
    a.addAll(List.of("--target", TestServer.url()));
    return Cli.run(a.toArray(String[]::new));
  }

  private static JsonNode json(Path p) throws Exception {
    return Json.MAPPER.readTree(p.toFile());
  }

  private static List<String> tablesLike(String prefix) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = TestServer.connect();
        PreparedStatement ps =
            c.prepareStatement("SELECT relname FROM pg_class WHERE starts_with(relname, ?)")) {
      ps.setString(1, prefix);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }

  private static void sql(String... statements) throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      for (String s : statements) {
        st.execute(s);
      }
    }
  }

  private static void assertCommon(JsonNode j, String experiment) throws java.io.IOException {
    assertEquals(experiment, j.path("experiment").asText());
    assertFalse(j.path("server").path("version").asText().isEmpty(), j.toString());
    assertTrue(j.path("machine").path("cores").asInt() > 0);
    assertEquals("on", j.path("sessionSettings").path("enable_seqscan").asText());
    assertFalse(j.path("findings").asText().isEmpty());
    assertTrue(j.path("options").has("rows") && j.path("options").has("repeat"));
    for (JsonNode p : j.path("plots")) {
      assertTrue(Files.size(Path.of(p.asText())) > 1000, p.asText());
    }
  }

  @Test
  void brinShowsTheSeedsFindingsAndCleansUp() throws Exception {
    sql("DROP TABLE IF EXISTS keep_me", "CREATE TABLE keep_me AS SELECT 1 AS x");
    Path out = tmp.resolve("brin.json");
    Cli r = run("experiment", "brin", "--rows", "100000", "--repeat", "2", "-o", out.toString());
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("findings: BRIN(128) is"), r.out);
    JsonNode j = json(out);
    assertCommon(j, "brin");
    assertEquals(4, j.path("plots").size());
    Map<String, JsonNode> by = new HashMap<>();
    for (JsonNode res : j.path("results")) {
      by.put(res.path("variant").asText() + "/" + res.path("table").asText(), res);
      assertEquals(2, res.path("point").path("executionMs").path("runsMs").size());
      assertEquals(1, res.path("point").path("rows").asLong(), res.toString());
      assertTrue(res.path("range").path("rows").asLong() > 30000, res.toString());
    }
    assertEquals(10, by.size(), by.keySet().toString());
    for (String t : List.of("t_mono", "t_random")) {
      long btree = by.get("btree/" + t).path("indexBytes").asLong();
      for (String b : List.of("brin(1)", "brin(128)", "brin(12800)")) {
        JsonNode brin = by.get(b + "/" + t);
        assertTrue(brin.path("indexBytes").asLong() < btree, brin + " vs btree " + btree);
        assertTrue(brin.path("buildMs").path("medianMs").asDouble() > 0);
      }
      assertTrue(by.get("none/" + t).path("buildMs").isNull());
      assertEquals("seq", by.get("none/" + t).path("range").path("scan").asText());
    }
    JsonNode monoRange = by.get("brin(128)/t_mono").path("range");
    assertTrue(monoRange.path("indexUsed").asBoolean(), monoRange.toString());
    assertEquals("exp_brin_t_mono_brin128", monoRange.path("index").asText());
    assertEquals(List.of(), tablesLike("exp_brin_"));
    assertEquals(List.of("keep_me"), tablesLike("keep_me"));
    sql("DROP TABLE keep_me");
  }

  @Test
  void logTableComparesTheFiveLayouts() throws Exception {
    Path out = tmp.resolve("log.json");
    Cli r =
        run(
            "experiment",
            "logtable",
            "--rows",
            "31000",
            "--repeat",
            "1",
            "-o",
            out.toString(),
            "--plots",
            tmp.resolve("plots").toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode j = json(out);
    assertCommon(j, "logtable");
    assertEquals(3, j.path("plots").size());
    assertEquals(10, j.path("results").size());
    for (JsonNode res : j.path("results")) {
      String v = res.path("variant").asText();
      assertTrue(res.path("loadMs").path("medianMs").asDouble() > 0, res.toString());
      assertEquals(v.startsWith("partitioned") ? 31 : 0, res.path("partitions").asInt());
      assertEquals(v.equals("single_brin"), !res.path("vacuumMs").isNull(), res.toString());
      // one day of 31 is read: partitions pruned to one
      if (v.startsWith("partitioned")) {
        assertEquals(1, res.path("day").path("scans").asInt(), res.toString());
        assertEquals(31, res.path("month").path("scans").asInt(), res.toString());
      }
      assertTrue(res.path("tableBytes").asLong() > 0);
      assertEquals(
          v.equals("single") || v.equals("partitioned"), res.path("indexBytes").asLong() == 0);
    }
    assertEquals(List.of(), tablesLike("exp_log_"));
  }

  @Test
  void vacuumRecordsASpeedupForEachJobCount() throws Exception {
    Path out = tmp.resolve("vac.json");
    Cli r =
        run(
            "experiment",
            "vacuum",
            "--rows",
            "20000",
            "--tables",
            "3",
            "--jobs",
            "1,2",
            "--repeat",
            "1",
            "-o",
            out.toString(),
            "--no-plots");
    assertEquals(0, r.exit, r.toString());
    JsonNode j = json(out);
    assertCommon(j, "vacuum");
    assertEquals(0, j.path("plots").size());
    JsonNode res = j.path("results");
    assertEquals(2, res.size());
    assertEquals(1, res.get(0).path("jobs").asInt());
    assertEquals(1.0, res.get(0).path("speedup").asDouble());
    assertEquals(2, res.get(1).path("jobs").asInt());
    assertTrue(res.get(1).path("speedup").asDouble() > 0);
    for (JsonNode jr : res) {
      JsonNode trial = jr.path("trials").get(0);
      assertEquals(3, trial.path("tableMs").size(), trial.toString());
      assertTrue(trial.path("deadTuplesBefore").asLong() > 0, trial.toString());
      assertTrue(
          trial.path("maxXidAgeAfter").asLong() < trial.path("maxXidAgeBefore").asLong(),
          trial.toString());
    }
    assertEquals(List.of(), tablesLike("exp_vac_"));
  }

  @Test
  void refusesToDropATableHoldingRowsWithoutForce() throws Exception {
    sql(
        "DROP TABLE IF EXISTS exp_vac_1",
        "CREATE TABLE exp_vac_1 (aid int)",
        "INSERT INTO exp_vac_1 VALUES (1)");
    try {
      Cli r = run("experiment", "vacuum", "--rows", "1000", "--tables", "1", "--jobs", "1");
      CliErrorsTest.assertOneLine(r, 2, "exp_vac_1", "holds rows", "--force");
      assertEquals(List.of("exp_vac_1"), tablesLike("exp_vac_"));
      Cli forced =
          run(
              "experiment",
              "vacuum",
              "--rows",
              "1000",
              "--tables",
              "1",
              "--jobs",
              "1",
              "--repeat",
              "1",
              "--force",
              "--no-plots",
              "-o",
              tmp.resolve("v.json").toString());
      assertEquals(0, forced.exit, forced.toString());
      assertEquals(List.of(), tablesLike("exp_vac_"));
    } finally {
      sql("DROP TABLE IF EXISTS exp_vac_1");
    }
  }

  @Test
  void keepLeavesTheTables() throws Exception {
    Cli r =
        run(
            "experiment",
            "vacuum",
            "--rows",
            "1000",
            "--tables",
            "2",
            "--jobs",
            "1",
            "--repeat",
            "1",
            "--keep",
            "--no-plots",
            "-o",
            tmp.resolve("v.json").toString());
    assertEquals(0, r.exit, r.toString());
    assertEquals(2, tablesLike("exp_vac_").stream().filter(t -> !t.endsWith("pkey")).count());
    sql("DROP TABLE exp_vac_1, exp_vac_2");
  }

  @Test
  void badInputIsOneLineAndExit2() {
    CliErrorsTest.assertOneLine(run("experiment", "brin", "--rows", "0"), 2, "--rows", "0");
    CliErrorsTest.assertOneLine(run("experiment", "vacuum", "--jobs", "0"), 2, "--jobs", "0");
    CliErrorsTest.assertOneLine(run("experiment", "vacuum", "--jobs", "1,x"), 2, "--jobs");
    CliErrorsTest.assertOneLine(run("experiment", "logtable", "--repeat", "0"), 2, "--repeat");
    CliErrorsTest.assertOneLine(run("experiment", "vacuum", "--tables", "0"), 2, "--tables");
    CliErrorsTest.assertOneLine(Cli.run("experiment", "brin"), 2, "--target");
    CliErrorsTest.assertOneLine(Cli.run("experiment"), 2, "brin, logtable or vacuum");
    CliErrorsTest.assertOneLine(
        run("experiment", "brin", "--set", "no_such_setting_x=1"), 2, "--set");
    assertNotNull(tmp);
  }
}
