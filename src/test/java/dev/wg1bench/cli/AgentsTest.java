package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.json.Histograms;
import dev.wg1bench.json.Json;
import dev.wg1bench.result.AgentRun;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.support.Await;
import dev.wg1bench.support.TestJava;
import dev.wg1bench.support.TestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three agents as three separate JVMs (each forking its own JMH JVM) against one server, as on
 * three machines: disjoint global client ids, one window, an exact merge; an agent that is late
 * fails them all, one that is killed is reported missing.
 */
class AgentsTest {
  @TempDir Path tmp;

  /** Each op inserts one row naming its client: what the agents did is in the table. */
  static final String SCRIPT =
      "\\set d random(1, 100)\n"
          + "INSERT INTO agents_ops (client_id, nclients, d) VALUES (:client_id, :nclients, :d);\n";

  @BeforeAll
  static void table() throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE IF NOT EXISTS agents_ops (client_id int, nclients int, d int)");
    }
  }

  private Process agent(String runId, int i, int n, Path script, String... extra)
      throws IOException {
    List<String> cmd = TestJava.command();
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(
        List.of(
            "--target",
            TestServer.url(),
            "--script",
            script.toString(),
            "--clients",
            "6",
            "--duration",
            extra.length > 0 && extra[0].equals("long") ? "4s" : "3s",
            "--warmup",
            "1s",
            "--iterations",
            "1",
            "--agent",
            i + "/" + n,
            "--run-id",
            runId,
            "--output",
            tmp.resolve(runId + "-" + i + ".json").toString()));
    cmd.addAll(
        List.of(extra).subList(extra.length > 0 && extra[0].equals("long") ? 1 : 0, extra.length));
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(tmp.resolve(runId + "-" + i + ".log").toFile())
        .start();
  }

  private Path script() throws IOException {
    Path s = tmp.resolve("ops.sql");
    Files.writeString(s, SCRIPT);
    return s;
  }

  private static long query(String sql) throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The test's start on the server's clock: sessions from before it are not waited for. */
  private String since;

  @org.junit.jupiter.api.BeforeEach
  void markStart() throws Exception {
    try (Connection c = TestServer.connect()) {
      since = Await.serverNow(c);
    }
  }

  void awaitNoToolBackends() throws Exception {
    Await.toolBackendsGone(AgentsTest::query, since);
  }

  private static long commits() throws SQLException {
    return query("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()");
  }

  private String log(String runId, int i) throws IOException {
    return Files.readString(tmp.resolve(runId + "-" + i + ".log"));
  }

  private String agentLogs(String runId, List<Process> ps) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < ps.size(); i++) {
      String out;
      try {
        out = log(runId, i);
      } catch (IOException e) {
        out = "(no log: " + e.getMessage() + ")";
      }
      b.append("\n--- agent ")
          .append(i)
          .append(ps.get(i).isAlive() ? ", running" : ", exited " + ps.get(i).exitValue())
          .append('\n')
          .append(out);
    }
    return b.toString();
  }

  private static int exit(Process p) throws InterruptedException {
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "agent did not finish");
    return p.exitValue();
  }

  @Test
  void threeAgentsMeasureTogetherAndMergeExactly() throws Exception {
    String run = "t-" + System.nanoTime();
    Path script = script();
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("TRUNCATE agents_ops");
    }
    // a backend publishes its commits as it exits: the counter is settled once no client of the
    // tool is connected any more
    awaitNoToolBackends();
    long before = commits();
    List<Process> ps = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      // the network as a knob reaches every agent's forked clients (issue 43)
      ps.add(agent(run, i, 3, script, "--rtt", "2ms"));
    }
    for (int i = 0; i < 3; i++) {
      assertEquals(0, exit(ps.get(i)), log(run, i));
    }
    awaitNoToolBackends();
    long commitDelta = commits() - before;
    Path merged = tmp.resolve("merged.json");
    assertEquals(
        0,
        Main.execute(
            "merge",
            tmp.resolve(run + "-0.json").toString(),
            tmp.resolve(run + "-1.json").toString(),
            tmp.resolve(run + "-2.json").toString(),
            "-o",
            merged.toString()));
    BenchmarkRun m = Json.MAPPER.readValue(merged.toFile(), BenchmarkRun.class);
    List<BenchmarkRun> parts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      parts.add(
          Json.MAPPER.readValue(tmp.resolve(run + "-" + i + ".json").toFile(), BenchmarkRun.class));
    }
    Measurement mm = m.trials().get(0).measurement();
    long ops = 0;
    long total = 0;
    Histogram union = new Histogram(3);
    for (BenchmarkRun p : parts) {
      Measurement pm = p.trials().get(0).measurement();
      ops += pm.ops();
      total += pm.totalOps();
      union.add(Histograms.decode(pm.latencyHistogram()));
    }
    assertEquals(ops, mm.ops(), "merged ops = the agents' ops summed");
    assertEquals(total, mm.totalOps());
    // every op of every agent is a row; the clients' ids are the global 0..5, each one agent's
    assertEquals(total, query("SELECT count(*) FROM agents_ops"));
    assertEquals(6, query("SELECT count(DISTINCT client_id) FROM agents_ops"));
    assertEquals(5, query("SELECT max(client_id) FROM agents_ops"));
    assertEquals(0, query("SELECT count(*) FROM agents_ops WHERE nclients <> 6"));
    // the server's commit counter: every op plus the agents' set-up and rendezvous queries
    // (141 in the run that set this bound)
    long overhead = commitDelta - total;
    System.err.printf(
        "agents: %d ops, %d server commits (%d others)%n", total, commitDelta, overhead);
    assertTrue(overhead >= 0 && overhead < 500, "commits " + commitDelta + " vs ops " + total);
    assertEquals(
        union.getValueAtPercentile(99) / 1000.0,
        mm.latencyMs().p99(),
        0.0015,
        "merged p99 = p99 of the union of the agents' latencies");
    assertEquals(union.getTotalCount(), mm.latencyMs().count());
    AgentRun a = m.agents();
    assertEquals(3, a.members().size());
    assertEquals(List.of(), a.missing());
    assertEquals(6, a.clients());
    // the windows agree on the server's clock to well within a second
    List<java.time.Instant> starts =
        a.members().stream()
            .map(x -> java.time.Instant.parse(x.trials().get(0).windowStart()))
            .sorted()
            .toList();
    long spreadMs = java.time.Duration.between(starts.get(0), starts.get(2)).toMillis();
    assertTrue(spreadMs < 500, "window starts spread " + spreadMs + " ms");
    assertEquals(ops / mm.measuredSeconds(), mm.tps(), 1e-6);
    for (BenchmarkRun p : parts) {
      assertEquals(2.0, p.trials().get(0).client().rttMs(), "each agent recorded its --rtt");
    }
    assertEquals(2.0, m.trials().get(0).client().rttMs(), "the merge keeps it");
    // every op is one INSERT: one round trip at least (0.1% for the histogram's precision)
    assertTrue(mm.latencyMs().p50() >= 2.0 * 0.999, "p50 " + mm.latencyMs().p50());
  }

  @Test
  void anAgentLateBeyondTheTimeoutFailsThemAll() throws Exception {
    String run = "late-" + System.nanoTime();
    Path script = script();
    Process a0 = agent(run, 0, 3, script, "--rendezvous-timeout", "3s");
    Process a1 = agent(run, 1, 3, script, "--rendezvous-timeout", "3s");
    assertEquals(1, exit(a0));
    assertEquals(1, exit(a1));
    for (int i = 0; i < 2; i++) {
      String out = log(run, i);
      assertTrue(
          out.contains("of 3 agents arrived within --rendezvous-timeout 3 s (missing: agent")
              && out.lines().noneMatch(l -> l.startsWith("\tat ")),
          out);
    }
  }

  @Test
  void aKilledAgentIsReportedMissing() throws Exception {
    String run = "kill-" + System.nanoTime();
    Path script = script();
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("TRUNCATE agents_ops");
    }
    List<Process> ps = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ps.add(agent(run, i, 3, script, "long"));
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!log(run, 2).contains("measurement starts") && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    // killed mid-measurement: once the victim's own ops reach the table (its clients are 4 and 5)
    Await.until(
        java.time.Duration.ofMinutes(1),
        "agent 2's ops",
        () -> {
          try {
            return query("SELECT count(*) FROM agents_ops WHERE client_id >= 4") > 0;
          } catch (SQLException e) {
            return false;
          }
        },
        // the agents' own words when they never got there (each log is the agent's whole output)
        () -> agentLogs(run, ps));
    Process victim = ps.get(2);
    victim.descendants().forEach(ProcessHandle::destroyForcibly);
    victim.destroyForcibly();
    assertEquals(0, exit(ps.get(0)), log(run, 0));
    assertEquals(0, exit(ps.get(1)), log(run, 1));
    Path merged = tmp.resolve("merged.json");
    int rc =
        Main.execute(
            "merge",
            "--from-target",
            "--target",
            TestServer.url(),
            "--run-id",
            run,
            "-o",
            merged.toString());
    assertEquals(1, rc, "a merge with an agent missing says so in its exit code");
    BenchmarkRun m = Json.MAPPER.readValue(merged.toFile(), BenchmarkRun.class);
    assertEquals(1, m.agents().missing().size());
    assertEquals(2, m.agents().missing().get(0).index());
    assertTrue(m.agents().missing().get(0).why().contains("killed or lost"));
    long ops = 0;
    for (int i = 0; i < 2; i++) {
      BenchmarkRun p =
          Json.MAPPER.readValue(tmp.resolve(run + "-" + i + ".json").toFile(), BenchmarkRun.class);
      ops += p.trials().get(0).measurement().ops();
    }
    assertEquals(ops, m.trials().get(0).measurement().ops());
  }
}
