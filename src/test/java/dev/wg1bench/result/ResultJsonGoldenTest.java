package dev.wg1bench.result;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.fork.ForkReport;
import dev.wg1bench.jmh.JmhLaunch;
import dev.wg1bench.jmh.TrialSpec;
import dev.wg1bench.json.Histograms;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.SessionKnobs;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.Timing;
import dev.wg1bench.plan.WorkloadKnobs;
import dev.wg1bench.report.ReportFixtures;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ExternalTarget;
import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.server.ServerSampler;
import dev.wg1bench.workload.OpCounts;
import dev.wg1bench.workload.ScriptOutline;
import dev.wg1bench.workload.WorkloadRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * What a trial measured reaches the JSON unchanged, however the result is assembled: fixed fork
 * reports mapped, and fixed agents' results merged, compared with files written by the mapping as
 * it stood. Regenerate them (only for a deliberate change of the format) with {@code
 * -Dwg1bench.golden.write=true}.
 */
class ResultJsonGoldenTest {
  private static final Path GOLDEN = Path.of("src/test/resources/golden");

  @Test
  void mappedForksGiveTheSameJson() throws IOException {
    TrialResult paced = map(true, forks(true));
    TrialResult plain = map(false, forks(false));
    assertGolden("mapped-paced.json", paced);
    assertGolden("mapped-plain.json", plain);
  }

  @Test
  void aResultReadBackIsTheSameResult() throws IOException {
    for (TrialResult t : List.of(map(true, forks(true)), map(false, forks(false)))) {
      String json = Json.MAPPER.writeValueAsString(t);
      TrialResult back = Json.MAPPER.readValue(json, TrialResult.class);
      assertEquals(json, Json.MAPPER.writeValueAsString(back));
      assertEquals(t.measurement().counts(), back.measurement().counts());
    }
  }

  @Test
  void mergedAgentsGiveTheSameJson() throws IOException {
    TrialResult a = map(false, forks(false));
    TrialResult b = map(false, List.of(fork(7, false, true)));
    List<AgentRun.Part> parts =
        List.of(
            part("2026-01-01T00:00:00.000Z", "2026-01-01T00:00:04.100Z", forks(false)),
            part(
                "2026-01-01T00:00:00.050Z",
                "2026-01-01T00:00:04.200Z",
                List.of(fork(7, false, true))));
    assertGolden("merged-trial.json", Merge.trial(List.of(a, b), parts, 12));
    assertGolden("merged-one.json", Merge.trial(List.of(b), parts.subList(1, 2), 4));
    BenchmarkRun run = Merge.of(List.of(agent(0), agent(2)), Map.of(1, "failed: no space left"));
    assertGolden("merged-run.json", run.trials());
    assertGolden("agent-run.json", agent(2));
  }

  /** An agent's part of a trial: its window, and the counts its forks handed over. */
  private static AgentRun.Part part(String start, String end, List<ForkReport> forks) {
    OpCounts measured = new OpCounts();
    OpCounts whole = new OpCounts();
    for (ForkReport f : forks) {
      measured.add(f.measured);
      whole.add(f.whole);
    }
    return new AgentRun.Part(1, Map.of(), 1, start, start, end, 0, 0, null, null, measured, whole);
  }

  private static BenchmarkRun agent(int index) {
    BenchmarkRun r = ReportFixtures.run();
    List<TrialResult> local = r.trials().stream().filter(t -> t.target().equals("local")).toList();
    AgentRun.Member m =
        new AgentRun.Member(index, "h" + index, 1, 0, 1, 0, 0, ReportFixtures.parts(local));
    return r.withAgents(new AgentRun("a", 3, 3, List.of(m), List.of()), local, Summaries.of(local));
  }

  /** One trial mapped from the given forks, with a pool and --rate when paced. */
  private static TrialResult map(boolean paced, List<ForkReport> forks) {
    TargetSpec target =
        new TargetSpec(
            "local",
            ExternalTarget.EXTERNAL,
            "jdbc:postgresql://127.0.0.1:5432/bench?sslmode=disable",
            "bench",
            null,
            null);
    RunPlan plan =
        new RunPlan(
            "insert_batch",
            List.of(),
            List.of(target),
            8,
            paced ? 4 : null,
            new Timing(
                Duration.ofSeconds(1),
                Duration.ofSeconds(2),
                2,
                forks.size(),
                null,
                paced ? 500.0 : null,
                null,
                null,
                null,
                false),
            new SessionKnobs(
                paced ? Isolation.REPEATABLE_READ : null,
                paced ? QueryMode.PREPARED : QueryMode.SIMPLE,
                Map.of("work_mem", "8MB"),
                3,
                false),
            paced
                ? new DriverKnobs(
                    null,
                    3,
                    Map.of("socketTimeout", "30"),
                    Map.of(
                        "binaryTransfer", "false",
                        "defaultRowFetchSize", "100",
                        "reWriteBatchedInserts", "true"))
                : DriverKnobs.defaults(),
            new WorkloadKnobs(10, Map.of(), 10, 42L),
            Path.of("results/x.json"));
    TrialSpec trial =
        new TrialSpec(
            plan,
            target,
            10,
            ClientSettings.of(plan, null),
            Path.of("trial"),
            null,
            point(),
            1,
            paced ? 2 : 1,
            null);
    List<JsonNode> progress = new ArrayList<>();
    progress.add(
        Json.MAPPER
            .createObjectNode()
            .put("t", 1.0)
            .put("phase", "measurement")
            .put("ops", 120)
            .put("opsPerSecond", 120.5)
            .put("p50Ms", 1.5)
            .putNull("p99Ms")
            .put("retries", 2)
            .put("failures", 1)
            .put("skipped", 0));
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("shared_buffers", "128MB");
    settings.put("default_transaction_isolation", "read committed");
    ServerInfo server = new ServerInfo("15.8", 150008, "PostgreSQL 15.8", settings, "off");
    List<ServerSampler.Sample> samples = List.of(new ServerSampler.Sample(1.0, Map.of(), 3));
    Instant started = Instant.parse("2026-01-01T00:00:00Z");
    return JmhResultMapper.map(
        trial,
        new JmhLaunch.Outcome(null, forks, progress),
        server,
        WorkloadRegistry.resolve(plan),
        "pgbench scale 10",
        samples,
        started,
        started.plusSeconds(9));
  }

  /** In a fixed order: Map.of's differs from one JVM to the next. */
  private static Map<String, String> point() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("target", "local");
    p.put("clients", "8");
    return p;
  }

  private static List<ForkReport> forks(boolean paced) {
    return List.of(fork(1, paced, true), fork(2, paced, false));
  }

  /** A fork's report whose figures all follow from {@code n}. */
  private static ForkReport fork(int n, boolean paced, boolean scripts) {
    ForkReport f = new ForkReport();
    f.measured.histogram = Histograms.decode(histogram(n, 800));
    if (paced) {
      f.poolWaitHistogram = histogram(n, 50);
      f.lagHistogram = histogram(n, 120);
    }
    f.measured.ok = 1000L * n;
    f.measured.skipped = n;
    f.measured.late = 2L * n;
    f.measured.failed = 3L * n;
    f.measured.retries = 5L * n;
    f.measured.retriedOps = 4L * n;
    f.measured.statements = 7000L * n;
    f.measuredNanos = 2_000_000_000L;
    f.measuredCpuNanos = 300_000_000L * n;
    f.cores = 4;
    for (int i = 0; i < 2; i++) {
      ForkReport.Window w = new ForkReport.Window();
      w.startEpochMicros = 1_767_225_600_000_000L + (n * 10L + i * 3L) * 1_000_000L;
      w.nanos = i == 0 ? 1_000_000_000L : 1_000_400_000L;
      w.counts.ok = 500L * n;
      w.counts.failed = n;
      w.okPerSecond = new long[] {500L * n + i, 7};
      w.serverCommits = i == 1 && n == 2 ? null : 510L * n;
      w.serverNanos = w.nanos + 1000;
      w.walStart = "0/1" + n + i;
      w.walEnd = "0/2" + n + i;
      w.cpuNanos = 10L * n;
      f.windows.add(w);
    }
    f.whole.ok = 1500L * n;
    f.whole.failed = 4L * n;
    f.measured.failures.put("serialization", 2L * n);
    f.measured.failures.put(n % 2 == 0 ? "deadlock" : "connection", (long) n);
    ForkReport.ErrorEntry e = new ForkReport.ErrorEntry();
    e.kind = "serialization";
    e.sqlState = "40001";
    e.firstMessage = "could not serialize access (fork " + n + ")";
    e.firstAtEpochMs = 1_767_225_601_000L + n;
    e.lastAtEpochMs = n == 2 ? 0 : 1_767_225_605_000L + n;
    e.count = 2L * n;
    e.retried = n;
    e.phase = "measurement";
    f.errors.add(e);
    ForkReport.Outage o = new ForkReport.Outage();
    o.lostAtEpochMs = 1_767_225_602_000L;
    o.backAtEpochMs = n == 2 ? 0 : 1_767_225_603_500L;
    o.clientsLost = n;
    o.clientsReconnected = n == 2 ? 0 : n;
    o.failedOps = n;
    f.outages.add(o);
    f.clientSsl = "off";
    f.clientSettings = new LinkedHashMap<>(Map.of("work_mem", n + "MB"));
    f.stoppedBy = n == 2 ? "--exit-on-error: fork " + n : null;
    f.connectNanos = 4_000_000L * n;
    f.connects = 4;
    f.clientsStopped = n;
    f.clientsStoppedBy = n == 1 ? null : "could not connect (" + n + ")";
    f.clientsRan = n == 2 ? 3 : 4;
    f.notAsAsked = n == 2 ? "3 of 4 clients ran; 1 client could not start, the first: x" : null;
    if (scripts) {
      f.scripts = new ArrayList<>();
      for (int s = 0; s < 2; s++) {
        String name = s == 0 ? "tpcb" : "select";
        OpCounts a = f.measured.part(name);
        a.ok = 400L * n + s;
        a.failed = n;
        a.retries = 2L * n;
        a.retriedOps = n;
        a.retriedAll = n + 1;
        a.latencyNanos = 1_000_000L * a.ok;
        a.latencySquares = 1e12 * a.ok * 1.1;
        List<ScriptOutline.Command> commands = null;
        if (s == 0) {
          commands = List.of(new ScriptOutline.Command(3, "UPDATE t SET x = x + 1"));
          OpCounts c = a.part(ScriptOutline.commandKey(0));
          c.ok = a.ok;
          c.latencyNanos = 300_000L * a.ok;
          c.latencySquares = 1e11 * a.ok;
          c.failed = n;
          c.retries = n;
        }
        f.scripts.add(new ForkReport.Script(name, s + 1, commands));
      }
    }
    return f;
  }

  private static String histogram(int n, long base) {
    Histogram h = new Histogram(3);
    for (int i = 1; i <= 200; i++) {
      h.recordValue(base + (long) i * i * n);
    }
    return Histograms.encode(h);
  }

  /**
   * Compares with the committed file; the pgjdbc and HikariCP versions, the Java runtime and the
   * working directory (a relative --output becomes an absolute URI) are masked, so a dependency
   * update, another JDK or another clone does not read as a change of the format.
   */
  private static void assertGolden(String name, Object value) throws IOException {
    String json =
        Json.MAPPER
            .writeValueAsString(value)
            .replace(org.postgresql.util.DriverInfo.DRIVER_VERSION, "PGJDBC-VERSION")
            .replaceAll("\"HikariCP [^\"]*\"", "\"HikariCP VERSION\"")
            .replace(Path.of("").toAbsolutePath().toUri().toString(), "file:///CWD/")
            .replaceAll("\"runtime\" : \"[^\"]*\"", "\"runtime\" : \"JAVA-RUNTIME\"");
    Path file = GOLDEN.resolve(name);
    if (Boolean.getBoolean("wg1bench.golden.write")) {
      Files.createDirectories(GOLDEN);
      Files.writeString(file, json + "\n", UTF_8);
    }
    String expected = Files.readString(file, UTF_8);
    assertEquals(expected.strip(), json.strip(), name);
  }
}
