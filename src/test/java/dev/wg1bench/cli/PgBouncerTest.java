package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.support.Docker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --via pgbouncer:transaction} in front of a container target, tpcb in prepared mode: with
 * PgBouncer 1.24's prepared-statement tracking the run is clean and the data checks out; with it
 * turned off ({@code max_prepared_statements=0}) pgjdbc's named statements meet server connections
 * that do not have them, and those failures are counted as kind "pooler". Skipped without Docker;
 * the PgBouncer image is built from Debian's package when the engine does not have it.
 */
@EnabledIf(value = "dockerAnswers", disabledReason = "no Docker engine answers")
class PgBouncerTest {
  @TempDir Path tmp;

  static boolean dockerAnswers() {
    return Docker.available();
  }

  private static JsonNode run(Path json, String via, boolean check, int exit) throws Exception {
    return run(json, via, check, exit, 8, List.of("--workload", "tpcb"));
  }

  private static JsonNode run(
      Path json, String via, boolean check, int exit, int clients, List<String> workload)
      throws Exception {
    return run(json, "container:postgres:17", via, check, exit, clients, workload);
  }

  private static JsonNode run(
      Path json,
      String target,
      String via,
      boolean check,
      int exit,
      int clients,
      List<String> workload)
      throws Exception {
    List<String> args = new ArrayList<>(workload);
    args.addAll(
        List.of(
            "--target",
            target,
            "--via",
            via,
            "--query-mode",
            "prepared",
            "--clients",
            Integer.toString(clients),
            "--duration",
            "2s",
            "--iterations",
            "2",
            "--warmup",
            "1s",
            "--forks",
            "0",
            "--output",
            json.toString()));
    if (check) {
      args.add("--check");
    }
    Cli r = Cli.run(args.toArray(new String[0]));
    if (exit != ANY_EXIT) {
      assertEquals(exit, r.exit, r.toString());
    }
    assertTrue(r.out.contains("PgBouncer 1."), r.out);
    JsonNode t = new ObjectMapper().readTree(json.toFile()).get("trials").get(0);
    return exit != ANY_EXIT
        ? t
        : ((com.fasterxml.jackson.databind.node.ObjectNode) t).put("exit", r.exit);
  }

  /** run(...)'s exit for a run whose exit the test judges itself: the trial then holds "exit". */
  private static final int ANY_EXIT = -1;

  @Test
  void transactionModeWithPreparedStatementTracking() throws Exception {
    JsonNode t = run(tmp.resolve("tracked.json"), "pgbouncer:transaction", true, 0);
    JsonNode pooler = t.get("provision").get("pooler");
    assertTrue(pooler.get("version").asText().startsWith("1."), pooler.toString());
    assertEquals("transaction", pooler.get("pool_mode").asText());
    assertTrue(pooler.get("max_prepared_statements").asInt() > 0, pooler.toString());
    assertEquals("pgbouncer:transaction", t.get("provision").get("via").asText());
    // clients went through PgBouncer, not to the container's own port
    assertTrue(t.get("url").asText().startsWith("jdbc:postgresql://127.0.0.1:"), t.toString());
    JsonNode m = t.get("measurement");
    assertTrue(m.get("totalOps").asLong() > 0, m.toString());
    assertEquals(0, m.get("totalFailedOps").asLong(), t.get("errors").toString());
    assertTrue(t.get("check").get("passed").asBoolean(), t.get("check").toString());
    // the pids the clients are told are PgBouncer's and their transactions run on any server
    // connection: no wait profile, one line why; the statements are still the server's
    JsonNode side = m.get("serverSide");
    assertTrue(side.get("waits").isNull(), side.toString());
    assertEquals(
        "through pgbouncer in transaction mode the clients' backends are the pooler's (a client's"
            + " transactions run on whichever server connection is free)",
        side.get("waitsWhy").asText());
    assertEquals(side.get("waitsWhy").asText(), side.get("waitSamplingWhy").asText());
    // a stock image has no pg_stat_statements: one line, and the run as clean as without it
    assertTrue(
        side.get("statementsWhy").asText().startsWith("pg_stat_statements is not installed"),
        side.toString());
    assertTrue(m.get("perOp").get("serverMs").isNull(), m.get("perOp").toString());
  }

  /**
   * Through the pooler the statements pg_stat_statements saw are the clients', forwarded one by
   * one: each of tpcb's five statements once an op (the window's own SET is not sent through a
   * pooler, where it would stay on a server connection the clients are then given and leave their
   * statements untracked).
   */
  private static void assertStatementsAreTheClients(JsonNode t, int clients) {
    JsonNode m = t.get("measurement");
    JsonNode side = m.get("serverSide");
    assertTrue(side.get("statementsWhy").isNull(), side.get("statementsWhy").toString());
    long ops = m.get("ops").asLong();
    assertTrue(ops > 0, m.toString());
    // each of tpcb's five statements ran once for every op measured in the windows, but for an op
    // a window opened on after its statement ran (one per client per window, 2 iterations): a
    // server connection left untracked by a stray SET would lose a share of them
    for (String text :
        List.of(
            "UPDATE pgbench_accounts",
            "SELECT abalance",
            "UPDATE pgbench_tellers",
            "UPDATE pgbench_branches",
            "INSERT INTO pgbench_history")) {
      long calls = 0;
      for (JsonNode s : side.get("statements")) {
        if (s.get("query").asText().startsWith(text)) {
          calls += s.get("calls").asLong();
        }
      }
      assertTrue(
          calls >= ops - 2L * clients,
          text + ": " + calls + " calls for " + ops + " ops: " + side.get("statements"));
    }
  }

  /**
   * In front of the embedded server (pg_stat_statements preloaded and created), in both modes: the
   * statements are the server's, the clients' all counted. Session mode: each client keeps its
   * server connection, whose pid was read through the pooler, so the waits are the clients'
   * sessions and their line says where the pids came from; transaction mode: no wait profile and
   * its line.
   */
  @Test
  void throughThePoolerWaitsAreOneLineAndStatementsTheServers() throws Exception {
    JsonNode t =
        run(tmp.resolve("session.json"), "embedded", "pgbouncer:session", false, 0, 4, TPCB);
    JsonNode side = t.get("measurement").get("serverSide");
    assertTrue(side.get("waits").isArray(), side.toString());
    assertEquals(SESSION_NOTE, side.get("waitsWhy").asText());
    assertStatementsAreTheClients(t, 4);
    t =
        run(
            tmp.resolve("transaction.json"),
            "embedded",
            "pgbouncer:transaction",
            false,
            0,
            4,
            TPCB);
    side = t.get("measurement").get("serverSide");
    assertTrue(side.get("waits").isNull(), side.toString());
    assertEquals(
        "through pgbouncer in transaction mode the clients' backends are the pooler's (a client's"
            + " transactions run on whichever server connection is free)",
        side.get("waitsWhy").asText());
    assertStatementsAreTheClients(t, 4);
  }

  private static final String SESSION_NOTE =
      "through pgbouncer in session mode the clients' server sessions, their pids read through the"
          + " pooler (pg_backend_pid()) as each connected";

  /**
   * Session mode, a pg_sleep planted in the clients' op: the samples found the clients' server
   * sessions sleeping (as a direct run's do, PlainRoleServerSideTest), so the pids sampled were
   * theirs, not the pooler's; the read of them is the connections' start-up, in no op's round trips
   * and in none of the window's statements.
   */
  @Test
  void sessionModeSamplesTheClientsServerSessions() throws Exception {
    Path script = tmp.resolve("sleep.sql");
    Files.writeString(script, "SELECT pg_sleep(0.002) AS through_pooler;\n");
    JsonNode t =
        run(
            tmp.resolve("sleep.json"),
            "embedded",
            "pgbouncer:session",
            false,
            0,
            2,
            List.of("--script", script.toString()));
    JsonNode m = t.get("measurement");
    JsonNode side = m.get("serverSide");
    assertTrue(side.get("waits").isArray(), side.toString());
    assertEquals(SESSION_NOTE, side.get("waitsWhy").asText());
    boolean sleeping = false;
    for (JsonNode w : side.get("waits")) {
      assertTrue(!w.get("name").asText().equals("unknown"), side.get("waits").toString());
      sleeping |= w.get("name").asText().equals("Timeout:PgSleep");
    }
    assertTrue(sleeping, side.get("waits").toString());
    assertEquals(1.0, m.get("perOp").get("roundTrips").asDouble(), m.get("perOp").toString());
    for (JsonNode s : side.get("statements")) {
      assertTrue(!s.get("query").asText().contains("pg_backend_pid"), s.toString());
    }
  }

  private static final List<String> TPCB = List.of("--workload", "tpcb");

  /**
   * PgBouncer refusing clients beyond its max_client_conn (SQLSTATE 08P01): those clients stop at
   * the start as pgbench's would, their refusals counted as kind pooler in phase setup; the others
   * run and the run completes.
   *
   * <p>How many are refused depends on how the five connects interleave, not on the tool: PgBouncer
   * checks the limit when a client's startup packet arrives, against every client object it holds,
   * the ones accepted but not yet logged in included (client.c, {@code get_active_client_count() >
   * cf_max_client_conn}). Logged in one after another (as pgbench's single thread connects, and as
   * 40 clients connecting together were on an idle machine: 37 refused), two are refused; accepted
   * together before any has logged in, as a PgBouncer descheduled on a loaded machine may drain its
   * backlog, all five are (a full CI run once saw that), and the run then ends as one in which
   * every client stopped. Both are asserted.
   */
  @Test
  void clientsThePoolerRefusesStopAtTheStartCountedAsPooler() throws Exception {
    JsonNode t =
        run(
            tmp.resolve("refused.json"),
            "pgbouncer:session,max_client_conn=3",
            false,
            ANY_EXIT,
            5,
            List.of("--workload", "tpcb"));
    JsonNode m = t.get("measurement");
    int stopped = m.get("clientsStopped").asInt();
    assertTrue(stopped >= 2 && stopped <= 5, m.toString());
    assertTrue(
        m.get("clientsStoppedBy").asText().startsWith("could not connect (pooler, 08P01)"),
        m.toString());
    // a client the pooler refused never ran: the run is not the one asked for and exits 1, as
    // pgbench does when a client cannot connect
    assertEquals(1, t.get("exit").asInt(), m.toString());
    if (stopped < 5) {
      assertTrue(m.get("ops").asLong() > 0, m.toString());
      assertEquals(5 - stopped, m.get("clientsRan").asInt(), m.toString());
      assertTrue(
          m.get("notAsAsked")
              .asText()
              .startsWith(
                  (5 - stopped)
                      + " of 5 clients ran; "
                      + stopped
                      + " clients could not start, the first: could not connect (pooler, 08P01)"),
          m.toString());
    } else {
      assertEquals(1, t.get("exit").asInt(), m.toString());
      assertEquals(0, m.get("ops").asLong(), m.toString());
      assertTrue(
          m.get("stoppedBy").asText().contains("could not connect (pooler, 08P01)"), m.toString());
    }
    long refused = 0;
    for (JsonNode e : t.get("errors")) {
      if (e.get("phase").asText().equals("setup") && e.get("kind").asText().equals("pooler")) {
        refused += e.get("count").asLong();
      }
    }
    assertEquals(stopped, refused, t.get("errors").toString());
  }

  @Test
  void transactionModeWithoutItLosesNamedStatements() throws Exception {
    // two scripts drawn at random, so clients number their named statements differently (S_1 is
    // one client's BEGIN and another's SELECT): with tpcb alone every client numbers them alike,
    // and once every server connection holds them all, nothing fails (a soak run measured 1,026
    // ops and no failure once the tool's own statements were no longer named)
    JsonNode t =
        run(
            tmp.resolve("untracked.json"),
            "pgbouncer:transaction,max_prepared_statements=0",
            false,
            3, // the run completes; its failed ops make the exit code 3
            8,
            List.of("-b", "tpcb@1", "-b", "select-only@1", "--random-seed", "7"));
    assertEquals("0", t.get("provision").get("pooler").get("max_prepared_statements").asText());
    JsonNode failures = t.get("measurement").get("failures");
    assertTrue(
        failures.has("pooler") && failures.get("pooler").asLong() > 0,
        "failures " + failures + ", errors " + t.get("errors"));
    boolean named = false;
    for (JsonNode e : t.get("errors")) {
      named |=
          e.get("kind").asText().equals("pooler")
              && e.get("firstMessage").asText().contains("prepared statement");
    }
    assertTrue(named, t.get("errors").toString());
  }
}
