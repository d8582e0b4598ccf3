package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.json.Histograms;
import dev.wg1bench.json.Json;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.support.Await;
import dev.wg1bench.support.TestJava;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * Three agents as on three machines: each the packaged jar in its own container (its own network
 * namespace, host name and clock reading) on the JRE image, reaching a postgres:15 container by
 * name over one user-defined bridge network; the merge runs on the host against the published port.
 * The engine CI starts forwards nothing between networks (--iptables=false --ip-forward=false), so
 * the agents and the server share one bridge, as they would share a LAN. Skipped without an engine
 * (Testcontainers' check) or without the two images (ci/images.sh builds them).
 */
@Testcontainers(disabledWithoutDocker = true)
@EnabledIf(
    value = "imagesPresent",
    disabledReason =
        "images wg1bench/jre:trixie and postgres:15 not both in the engine: ci/images.sh")
class AgentsIT {
  static final String JRE = "wg1bench/jre:trixie";
  static final String PG = "postgres:15";
  static final String JAR_IN = "/opt/wg1bench/wg1bench.jar";

  static Network network;
  static PostgreSQLContainer server;

  @TempDir Path tmp;

  /** Both images in the engine: it cannot pull here, and ci/images.sh builds them. */
  static boolean imagesPresent() {
    try {
      for (String image : List.of(JRE, PG)) {
        DockerClientFactory.instance().client().inspectImageCmd(image).exec();
      }
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  @BeforeAll
  static void engineAndServer() throws SQLException {
    network = Network.newNetwork();
    server = new PostgreSQLContainer(PG).withNetwork(network).withNetworkAliases("pg");
    server.start();
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE agents_ops (client_id int, nclients int, d int)");
    }
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.stop();
    }
    if (network != null) {
      network.close();
    }
  }

  static Connection connect() throws SQLException {
    return DriverManager.getConnection(
        server.getJdbcUrl(), server.getUsername(), server.getPassword());
  }

  static long query(String sql) throws SQLException {
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  static long commits() throws SQLException {
    return query("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()");
  }

  /** Agent I of N in its own container; the password in its environment, as in the manifests. */
  @SuppressWarnings("resource")
  GenericContainer<?> agent(String run, int i, int n, String duration) throws IOException {
    Path script = tmp.resolve("ops.sql");
    Files.writeString(script, AgentsTest.SCRIPT);
    GenericContainer<?> c =
        new GenericContainer<>(DockerImageName.parse(JRE))
            .withNetwork(network)
            .withCopyFileToContainer(MountableFile.forHostPath(jar()), JAR_IN)
            .withCopyFileToContainer(MountableFile.forHostPath(script), "/tmp/ops.sql")
            .withEnv("PGPASSWORD", server.getPassword())
            .withCommand(
                "java",
                "-jar",
                JAR_IN,
                "--target",
                "jdbc:postgresql://pg:5432/"
                    + server.getDatabaseName()
                    + "?user="
                    + server.getUsername(),
                "--script",
                "/tmp/ops.sql",
                "--clients",
                "6",
                "--duration",
                duration,
                "--warmup",
                "1s",
                "--iterations",
                "1",
                "--agent",
                i + "/" + n,
                "--run-id",
                run,
                "--output",
                "/tmp/agent.json");
    c.start();
    return c;
  }

  static Path jar() {
    return Path.of(System.getProperty("wg1bench.jar", "target/wg1bench.jar")).toAbsolutePath();
  }

  /** The container's exit code once it has exited; its log is in the failure message. */
  /** The test's start on the server's clock: sessions from before it are not waited for. */
  private String since;

  @org.junit.jupiter.api.BeforeEach
  void markStart() throws Exception {
    try (Connection c = connect()) {
      since = Await.serverNow(c);
    }
  }

  void awaitNoToolBackends() throws Exception {
    Await.toolBackendsGone(AgentsIT::query, since);
  }

  static long exit(GenericContainer<?> c) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      var state = c.getDockerClient().inspectContainerCmd(c.getContainerId()).exec().getState();
      if (!Boolean.TRUE.equals(state.getRunning())) {
        return state.getExitCodeLong();
      }
      Thread.sleep(200);
    }
    throw new AssertionError("agent did not finish: " + c.getLogs());
  }

  BenchmarkRun result(GenericContainer<?> c, String name) throws IOException {
    Path f = tmp.resolve(name);
    c.copyFileFromContainer("/tmp/agent.json", f.toString());
    return Json.MAPPER.readValue(f.toFile(), BenchmarkRun.class);
  }

  /** `merge` as a user runs it on another machine: the jar, reading the target's table. */
  int merge(String run, Path out, StringBuilder log) throws Exception {
    Path logFile = tmp.resolve("merge.log");
    List<String> cmd = TestJava.command();
    cmd.addAll(
        List.of(
            "-jar",
            jar().toString(),
            "merge",
            "--from-target",
            "--target",
            server.getJdbcUrl() + "&user=" + server.getUsername(),
            "--run-id",
            run,
            "-o",
            out.toString()));
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(logFile.toFile());
    pb.environment().put("PGPASSWORD", server.getPassword());
    Process p = pb.start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "merge did not finish");
    log.append(Files.readString(logFile));
    return p.exitValue();
  }

  @Test
  void threeAgentContainersMergeExactlyAndReconcileWithTheServer() throws Exception {
    String run = "it-" + System.nanoTime();
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute("TRUNCATE agents_ops");
    }
    // a backend publishes its commits as it exits: the counter is settled once no client of the
    // tool is connected any more, on both sides of the run
    awaitNoToolBackends();
    long before = commits();
    List<GenericContainer<?>> agents = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        agents.add(agent(run, i, 3, "3s"));
      }
      List<BenchmarkRun> parts = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        assertEquals(0, exit(agents.get(i)), agents.get(i).getLogs());
        parts.add(result(agents.get(i), "agent" + i + ".json"));
      }
      awaitNoToolBackends();
      long commitDelta = commits() - before;
      Path merged = tmp.resolve("merged.json");
      StringBuilder log = new StringBuilder();
      assertEquals(0, merge(run, merged, log), log.toString());
      BenchmarkRun m = Json.MAPPER.readValue(merged.toFile(), BenchmarkRun.class);
      Measurement mm = m.trials().get(0).measurement();
      long ops = 0;
      long total = 0;
      Histogram union = new Histogram(3);
      List<String> hosts = new ArrayList<>();
      for (BenchmarkRun p : parts) {
        Measurement pm = p.trials().get(0).measurement();
        ops += pm.ops();
        total += pm.totalOps();
        union.add(Histograms.decode(pm.latencyHistogram()));
        hosts.add(p.agents().members().get(0).host());
        System.err.printf(
            "agent %d on %s: %d ops, p99 %.3f ms%n",
            p.agents().members().get(0).index(),
            hosts.get(hosts.size() - 1),
            pm.ops(),
            pm.latencyMs().p99());
      }
      assertEquals(3, hosts.stream().distinct().count(), "three hosts: " + hosts);
      assertEquals(ops, mm.ops(), "merged ops = the agents' ops summed");
      assertEquals(total, mm.totalOps());
      assertEquals(total, query("SELECT count(*) FROM agents_ops"), "every op is a row");
      assertEquals(6, query("SELECT count(DISTINCT client_id) FROM agents_ops"));
      assertEquals(0, query("SELECT count(*) FROM agents_ops WHERE nclients <> 6"));
      // the server's commits: every op, plus the agents' set-up and rendezvous queries and this
      // test's own; the same bound as AgentsTest, whose three agents do the same
      long overhead = commitDelta - total;
      System.err.printf(
          "merged %d ops (window), %d over the trial, %d server commits (%d others), p99 %.3f ms%n",
          mm.ops(), total, commitDelta, overhead, mm.latencyMs().p99());
      assertTrue(overhead >= 0 && overhead < 500, "commits " + commitDelta + " vs ops " + total);
      assertEquals(
          union.getValueAtPercentile(99) / 1000.0,
          mm.latencyMs().p99(),
          0.0015,
          "merged p99 = p99 of the union of the agents' latencies");
      assertEquals(union.getTotalCount(), mm.latencyMs().count());
      assertEquals(3, m.agents().members().size());
      assertEquals(List.of(), m.agents().missing());
    } finally {
      agents.forEach(GenericContainer::stop);
    }
  }

  @Test
  void anAgentContainerKilledMidRunIsReportedMissing() throws Exception {
    String run = "it-kill-" + System.nanoTime();
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute("TRUNCATE agents_ops");
    }
    List<GenericContainer<?>> agents = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        agents.add(agent(run, i, 3, "5s"));
      }
      GenericContainer<?> victim = agents.get(2);
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (!victim.getLogs().contains("measurement starts") && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertTrue(victim.getLogs().contains("measurement starts"), victim.getLogs());
      // killed mid-measurement: once the victim's own ops reach the table (its clients are 4, 5)
      Await.until(
          Duration.ofMinutes(1),
          "agent 2's ops",
          () -> {
            try {
              return query("SELECT count(*) FROM agents_ops WHERE client_id >= 4") > 0;
            } catch (SQLException e) {
              return false;
            }
          });
      // docker kill: SIGKILL to the agent's JVM and its JMH fork, as a lost machine
      victim.getDockerClient().killContainerCmd(victim.getContainerId()).exec();
      assertEquals(0, exit(agents.get(0)), agents.get(0).getLogs());
      assertEquals(0, exit(agents.get(1)), agents.get(1).getLogs());
      long ops = 0;
      for (int i = 0; i < 2; i++) {
        ops += result(agents.get(i), "k" + i + ".json").trials().get(0).measurement().ops();
      }
      Path merged = tmp.resolve("merged-kill.json");
      StringBuilder log = new StringBuilder();
      assertEquals(1, merge(run, merged, log), "a missing agent shows in the exit code: " + log);
      assertTrue(log.toString().contains("agent 2 MISSING"), log.toString());
      System.err.printf(
          "killed agent 2: the survivors' %d ops merged; %s%n",
          ops, log.toString().lines().filter(l -> l.contains("MISSING")).findFirst().orElse(""));
      BenchmarkRun m = Json.MAPPER.readValue(merged.toFile(), BenchmarkRun.class);
      assertEquals(1, m.agents().missing().size());
      assertEquals(2, m.agents().missing().get(0).index());
      assertTrue(m.agents().missing().get(0).why().contains("killed or lost"));
      assertEquals(ops, m.trials().get(0).measurement().ops(), "the two survivors' ops only");
    } finally {
      agents.forEach(GenericContainer::stop);
    }
  }
}
