package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.support.LimitedRole;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

  /**
   * As pgbench exits 1 on "could not create connection for client N": a run whose clients did not
   * all start ran another workload than the one asked, so it fails, in one line naming how many ran
   * of how many and the server's reason; the clients that did start are measured and said to be the
   * ones that ran (console and JSON). In the forked JVM and in-process alike.
   */
  @ParameterizedTest
  @ValueSource(strings = {"1", "0"})
  void clientsBeyondTheConnectionLimitFailTheRunNamingHowManyRan(String forks) throws Exception {
    try (LimitedRole role = new LimitedRole("wg1_limited", 2)) {
      Cli r =
          run("SELECT 1;\n", role.url(), "--clients", "4", "--duration", "1s", "--forks", forks);
      assertEquals(1, r.exit, r.toString());
      JsonNode m = measurement();
      // at least the two beyond the limit; a backend of the parent's closed sessions still
      // counts against the role's limit until its process has exited, so on a busy machine a
      // third client can meet it (the server's accounting, not the tool's)
      int stopped = m.get("clientsStopped").asInt();
      assertTrue(stopped >= 2 && stopped < 4, m.toString());
      assertEquals(4 - stopped, m.get("clientsRan").asInt(), m.toString());
      assertEquals(0, m.get("failedOps").asLong(), m.toString());
      String line =
          (4 - stopped)
              + " of 4 clients ran; "
              + stopped
              + " clients could not start, the first: could not connect (53300): FATAL: too many"
              + " connections for role \"wg1_limited\"";
      assertEquals(line, m.get("notAsAsked").asText(), m.toString());
      assertTrue(r.out.contains("\nNOT RUN AS ASKED: " + line + "\n"), r.out);
      assertTrue(
          r.out.contains(
              "number of clients: "
                  + (4 - stopped)
                  + " of 4 asked (one connection each; "
                  + stopped
                  + " could not start)"),
          r.out);
      // one line says it: the stopped clients' own line would say the same again
      assertFalse(r.out.contains("clients stopped:"), r.out);
    }
  }

  /** A pool the server lets have fewer connections than --pool-size fails the run the same way. */
  @Test
  void aPoolThatCannotFillFailsTheRun() throws Exception {
    // the history folder of this test alone
    System.setProperty("wg1bench.home", tmp.resolve("home").toString());
    try (LimitedRole role = new LimitedRole("wg1_limited", 2)) {
      Cli r =
          run(
              "SELECT 1;\n",
              role.url(),
              "--clients",
              "4",
              "--pool-size",
              "3",
              "--duration",
              "1s",
              "--forks",
              "1",
              "--history");
      assertEquals(1, r.exit, r.toString());
      JsonNode m = measurement();
      assertEquals(4, m.get("clientsRan").asInt(), m.toString());
      String why = m.get("notAsAsked").asText();
      assertTrue(
          why.matches(
              "the pool opened [12] of 3 connections \\(--pool-size\\): could not connect"
                  + " \\(53300\\): FATAL: too many connections for role \"wg1_limited\""),
          why);
      assertTrue(r.out.contains("\nNOT RUN AS ASKED: " + why + "\n"), r.out);
      // another workload's figures stay out of the configuration's series, whoever adds them
      assertTrue(r.out.contains("history: not stored (the run did not run as asked"), r.out);
      Cli add = Cli.run("history", "add", tmp.resolve("r.json").toString());
      assertEquals(2, add.exit, add.toString());
      assertTrue(
          add.err.startsWith("wg1bench: ")
              && add.err.contains(": trial 1 did not run as asked (the pool opened ")
              && add.err.endsWith("; its figures are not the configuration's, nothing stored\n"),
          add.err);
    } finally {
      System.clearProperty("wg1bench.home");
    }
  }
}
