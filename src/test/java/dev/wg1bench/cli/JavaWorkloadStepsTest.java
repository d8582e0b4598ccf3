package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.api.EngineRecords;
import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import dev.wg1bench.api.Trial;
import dev.wg1bench.json.Json;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workload class's steps ({@code op.step}), timed and counted as pgbench -r counts a script's
 * statements: each step's completions, the retries and failures it threw, over the ops the headline
 * counts, in the JSON, the console, the commands CSV and the HTML page.
 */
class JavaWorkloadStepsTest {
  @TempDir Path dir;

  /**
   * One transaction per op: a step that throws a serialization failure on every third attempt
   * (before anything is written), an insert, a read-back that returns the row's id, and a
   * validation that fails every fifth op after the insert (so that op's row is rolled back).
   */
  public static class Stepped implements JdbcWorkload {
    private long attempts;
    private long validations;

    @Override
    public void setUp(DataSource ds) throws SQLException {
      try (Connection c = ds.getConnection();
          Statement st = c.createStatement()) {
        st.execute("DROP TABLE IF EXISTS jws_rows");
        st.execute("CREATE TABLE jws_rows (id bigserial PRIMARY KEY, client int)");
      }
    }

    @Override
    public void op(Op op) throws Exception {
      Connection c = op.connection();
      c.setAutoCommit(false);
      op.step(
          "conflict",
          () -> {
            if (++attempts % 3 == 0) {
              throw new SQLException("could not serialize access (simulated)", "40001");
            }
          });
      long id =
          op.step(
              "insert",
              () -> {
                try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO jws_rows (client) VALUES (?) RETURNING id")) {
                  ps.setInt(1, op.client());
                  try (ResultSet r = ps.executeQuery()) {
                    r.next();
                    return r.getLong(1);
                  }
                }
              });
      op.step(
          "validate",
          () -> {
            if (++validations % 5 == 0) {
              throw new IllegalStateException("order " + id + " is not valid");
            }
          });
      c.commit();
      c.setAutoCommit(true);
    }
  }

  @Test
  void stepsAreCountedAndTimedOverTheHeadlinesOps() throws Exception {
    Path out = dir.resolve("steps.json");
    Cli r =
        Cli.run(
            "--workload-class",
            Stepped.class.getName(),
            "-c",
            "2",
            "-T",
            "1s",
            "--warmup",
            "500ms",
            "--iterations",
            "2",
            "--forks",
            "0",
            "--max-tries",
            "3",
            "--target",
            TestServer.url(),
            "-o",
            out.toString(),
            "--csv",
            dir.resolve("steps.csv").toString());
    assertEquals(3, r.exit, "failed ops make exit 3: " + r);
    JsonNode m = Json.MAPPER.readTree(out.toFile()).get("trials").get(0).get("measurement");
    long ops = m.get("ops").asLong();
    long failed = m.get("failedOps").asLong();
    long retries = m.get("retries").asLong();
    assertTrue(ops > 0 && failed > 0 && retries > 0, m.toString());
    JsonNode scripts = m.get("scripts");
    assertEquals(1, scripts.size(), m.toString());
    assertEquals(Stepped.class.getName(), scripts.get(0).get("name").asText());
    Map<String, JsonNode> steps = new LinkedHashMap<>();
    for (JsonNode c : scripts.get(0).get("commands")) {
      assertTrue(c.get("step").asBoolean(), c.toString());
      steps.put(c.get("text").asText(), c);
    }
    assertEquals(List.of("conflict", "insert", "validate"), new ArrayList<>(steps.keySet()));
    // every counted op passed "conflict" once (plus its retried attempts), inserted once, and
    // either validated or failed validating: the retries are "conflict"'s, the failures
    // "validate"'s
    assertEquals(ops + failed, steps.get("conflict").get("count").asLong());
    assertEquals(retries, steps.get("conflict").get("retries").asLong());
    assertEquals(0, steps.get("conflict").get("failures").asLong());
    assertEquals(ops + failed, steps.get("insert").get("count").asLong());
    assertEquals(0, steps.get("insert").get("failures").asLong());
    assertEquals(ops, steps.get("validate").get("count").asLong());
    assertEquals(failed, steps.get("validate").get("failures").asLong());
    for (JsonNode c : steps.values()) {
      // every step ran and was timed: a step never timed would show 0 (its mean sums
      // nanoseconds; its percentiles are whole microseconds, so the in-memory "conflict" step may
      // have a p99 of 0 on a fast machine, as may "validate")
      assertTrue(c.get("avgMs").asDouble() > 0, c.toString());
      assertNotNull(c.get("histogram").asText(null), c.toString());
    }
    for (String server : List.of("insert")) {
      assertTrue(steps.get(server).get("p99Ms").asDouble() > 0, steps.get(server).toString());
    }
    // the failed validations' inserts were rolled back: rows are the trial's successful ops
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM jws_rows")) {
      rs.next();
      assertEquals(m.get("totalOps").asLong(), rs.getLong(1));
    }
    assertTrue(r.out.contains("step latencies in milliseconds, failures and retries;"), r.out);
    // a step's line ends with its name and its count, none of it rolled back by design, and,
    // where the warmup completed ops, its counts over the whole trial
    assertTrue(
        r.out
            .lines()
            .anyMatch(
                l ->
                    l.strip()
                        .matches(
                            ".* validate \\(count \\d+; [\\d.]+/min(; whole trial: count \\d+"
                                + "(, failures \\d+)?(, retries \\d+)?)?\\)")),
        r.out);
    // every op of the trial, warmup included, is in its steps' whole-trial counts: each op runs
    // the insert step once, and its failures are the trial's failed ops
    JsonNode insert = steps.get("insert").get("wholeTrial");
    assertEquals(
        m.get("totalOps").asLong() + m.get("totalFailedOps").asLong(),
        insert.get("count").asLong(),
        insert.toString());
    // what the connection's socket saw per execution of each step, failed and retried ones
    // included: the insert is one round trip (pgjdbc sends the transaction's BEGIN with it), two
    // statements completed (BEGIN, INSERT) and the one row RETURNING gave; the steps that send
    // nothing counted 0, not "not counted"
    assertPerExecution(steps.get("insert"), 1.0, 2.0, 1.0);
    assertTrue(steps.get("insert").get("bytesSent").asDouble() > 0, steps.get("insert").toString());
    assertTrue(steps.get("insert").get("bytesReceived").asDouble() > 0);
    for (String none : List.of("conflict", "validate")) {
      assertPerExecution(steps.get(none), 0.0, 0.0, 0.0);
      assertEquals(0.0, steps.get(none).get("bytesSent").asDouble(), none);
    }
    // the console's step lines: round trips, statements, rows after pgbench's columns
    assertTrue(
        r.out.contains("; round trips, statements and rows per execution (- where not counted):"),
        r.out);
    assertTrue(
        r.out
            .lines()
            .anyMatch(
                l -> l.matches(" +[\\d.]+ +\\d+ +\\d+ +1\\.00 +2\\.00 +1\\.00  insert \\(.*")),
        r.out);
    assertTrue(
        r.out
            .lines()
            .anyMatch(
                l -> l.matches(" +[\\d.]+ +\\d+ +\\d+ +0\\.00 +0\\.00 +0\\.00  conflict \\(.*")),
        r.out);
    // the API's view of the same result
    Trial trial = EngineRecords.result(JsonReport.read(out)).trials().get(0);
    assertEquals(1.0, trial.step("insert").roundTrips());
    assertEquals(2.0, trial.step("insert").statements());
    assertEquals(1.0, trial.step("insert").rows());
    assertEquals(0.0, trial.step("validate").roundTrips());
    assertEquals(steps.get("insert").get("bytesSent").asDouble(), trial.step("insert").bytesSent());
    String csv = Files.readString(dir.resolve("steps-commands.csv"));
    List<String> header = List.of(csv.lines().findFirst().orElseThrow().split(","));
    String insertRow = csv.lines().filter(l -> l.contains(",insert,")).findFirst().orElseThrow();
    List<String> cells = List.of(insertRow.split(","));
    assertEquals("1", cells.get(header.indexOf("roundTrips")), csv);
    assertEquals("2", cells.get(header.indexOf("statements")), csv);
    assertEquals("1", cells.get(header.indexOf("rows")), csv);
    Cli report = Cli.run("report", out.toString(), "--html", dir.resolve("html").toString());
    assertEquals(0, report.exit, report.toString());
    String html = Files.readString(dir.resolve("html").resolve("index.html"));
    assertTrue(html.contains("<code>validate</code>"), "the HTML commands table lists the steps");
    assertTrue(html.contains("round trips/execution"), "and their round trips per execution");
  }

  private static void assertPerExecution(
      JsonNode step, double roundTrips, double statements, double rows) {
    assertEquals(roundTrips, step.get("roundTrips").asDouble(-1), step.toString());
    assertEquals(statements, step.get("statements").asDouble(-1), step.toString());
    assertEquals(rows, step.get("rows").asDouble(-1), step.toString());
  }
}
