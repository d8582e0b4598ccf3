package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Errors that won't heal stop the client as pgbench aborts it, instead of being repeated for the
 * whole run; the run ends when no client is left, unless --continue-on-error.
 */
class ClientStopsTest {
  @TempDir Path tmp;

  private Cli run(String script, String url, String... extra) throws Exception {
    Path f = tmp.resolve("bad.sql");
    Files.writeString(f, script);
    String[] base = {
      "--script",
      f.toString(),
      "--target",
      url,
      "--warmup",
      "0",
      "--iterations",
      "1",
      "--output",
      tmp.resolve("r.json").toString()
    };
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return Cli.run(args);
  }

  private JsonNode measurement() throws Exception {
    return new ObjectMapper()
        .readTree(tmp.resolve("r.json").toFile())
        .get("trials")
        .get(0)
        .get("measurement");
  }

  @Test
  void aSyntaxErrorStopsEveryClientAndTheRunWithinSeconds() throws Exception {
    Cli r =
        run(
            "\\set a 1\nSELECT 1\n  FRM pg_class;\n",
            TestServer.url(),
            "--clients",
            "3",
            "--duration",
            "60s",
            "--forks",
            "1");
    assertEquals(1, r.exit, r.toString());
    JsonNode m = measurement();
    // the run's own record: it measured less than the 60 s asked for, as it stopped at the errors
    assertTrue(m.get("measuredSeconds").asDouble() < 60, "should stop at the first error: " + m);
    assertEquals(3, m.get("clientsStopped").asInt(), m.toString());
    // one failed op per client over the trial; the measurement counts those that ended inside
    // its window (a client may fail before the last one is ready and the window opens), and the
    // console says the same as the JSON
    assertEquals(3, m.get("totalFailedOps").asLong(), m.toString());
    long measured = m.get("failedOps").asLong();
    assertTrue(measured >= 1 && measured <= 3, m.toString());
    assertTrue(r.out.contains("number of ops: 0 successful, " + measured + " failed"), r.out);
    String why = m.get("stoppedBy").asText();
    assertTrue(
        why.startsWith("all 3 clients stopped on an error that won't heal")
            && why.contains("bad.sql:2: SELECT 1 FRM pg_class: ERROR: syntax error"),
        why);
    assertTrue(r.out.contains("STOPPED EARLY: " + why), r.out);
  }

  @Test
  void continueOnErrorKeepsTheClientsRunning() throws Exception {
    Cli r =
        run(
            "SELECT * FROM no_such_table_here;\n",
            TestServer.url(),
            "--clients",
            "2",
            "--duration",
            "1s",
            "--forks",
            "0",
            "--continue-on-error");
    assertEquals(Main.COMPLETED_WITH_FAILURES, r.exit, r.toString());
    JsonNode m = measurement();
    assertEquals(0, m.get("clientsStopped").asInt());
    assertTrue(m.get("failedOps").asLong() > 10, m.toString());
  }

  @Test
  void clientsBeyondTheConnectionLimitStopAtTheStartAndTheOthersRun() throws Exception {
    String role = "wg1_limited";
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      dropRole(st, role);
      // the parent holds no connection of this role during the trial, so two clients get one
      st.execute("CREATE ROLE " + role + " LOGIN CONNECTION LIMIT 2");
      // it reads what the parent looks at before a run (pgbench_branches, if other tests made it)
      st.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + role);
    }
    try {
      String url = TestServer.url().replaceAll("([?&])user=[^&]*", "$1user=" + role);
      url = url.replaceAll("([?&])password=[^&]*", "$1password=x");
      Cli r = run("SELECT 1;\n", url, "--clients", "4", "--duration", "1s", "--forks", "1");
      assertEquals(0, r.exit, r.toString());
      JsonNode m = measurement();
      // at least the two beyond the limit; a backend of the parent's closed sessions still
      // counts against the role's limit until its process has exited, so on a busy machine a
      // third client can meet it (the server's accounting, not the tool's)
      int stopped = m.get("clientsStopped").asInt();
      assertTrue(stopped >= 2 && stopped < 4, m.toString());
      assertTrue(m.get("ops").asLong() > 0, m.toString());
      assertEquals(0, m.get("failedOps").asLong(), m.toString());
      assertTrue(
          r.out.contains(
              "clients stopped: "
                  + stopped
                  + " of 4, on an error that won't heal (--continue-on-error keeps"
                  + " them running): could not connect (53300): FATAL: too many connections"),
          r.out);
    } finally {
      try (Connection c = TestServer.connect();
          Statement st = c.createStatement()) {
        dropRole(st, role);
      }
    }
  }

  private static void dropRole(Statement st, String role) throws java.sql.SQLException {
    try (java.sql.ResultSet rs =
        st.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = '" + role + "'")) {
      if (!rs.next()) {
        return;
      }
    }
    st.execute("DROP OWNED BY " + role);
    st.execute("DROP ROLE " + role);
  }
}
