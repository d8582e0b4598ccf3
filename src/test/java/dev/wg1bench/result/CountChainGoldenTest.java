package dev.wg1bench.result;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.wg1bench.api.EngineRecords;
import dev.wg1bench.fork.ForkReport;
import dev.wg1bench.jmh.JmhLaunch;
import dev.wg1bench.jmh.TrialSpec;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.SessionKnobs;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.Timing;
import dev.wg1bench.plan.WorkloadKnobs;
import dev.wg1bench.report.ConsoleReport;
import dev.wg1bench.report.CsvReport;
import dev.wg1bench.report.ReportFixtures;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ExternalTarget;
import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.workload.OpCounts;
import dev.wg1bench.workload.ScriptOutline;
import dev.wg1bench.workload.WorkloadRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * A count's whole way out, on fixed figures: clients' counts (a script mix with per-command parts,
 * a workload class with steps, histograms, failures, retries, rollbacks by design) as their forks
 * hand them over, mapped into a trial, merged across agents, and written by every writer (JSON,
 * console, CSV files, the API's trials), compared with files written by the code as it stood before
 * the count became one value. Regenerate them (only for a deliberate change of an output) with
 * {@code -Dwg1bench.golden.write=true}.
 */
class CountChainGoldenTest {
  private static final Path GOLDEN = Path.of("src/test/resources/golden/count-chain");

  @TempDir Path tmp;

  @Test
  void aScriptMixWithPerCommandFiguresOverTwoForks() throws IOException {
    TrialResult t = map(mixPlan(true, 2), List.of(mixFork(1, true), mixFork(2, true)));
    assertOutputs("mix-commands", mixPlan(true, 2), t);
  }

  @Test
  void aScriptMixWithoutPerCommandFigures() throws IOException {
    TrialResult t = map(mixPlan(false, 1), List.of(mixFork(3, false)));
    assertOutputs("mix-scripts", mixPlan(false, 1), t);
  }

  @Test
  void aWorkloadClassWithStepsOverTwoForks() throws IOException {
    TrialResult t = map(classPlan(2), List.of(classFork(1), classFork(2)));
    assertOutputs("class-steps", classPlan(2), t);
  }

  @Test
  void agentsMergedFromTheirParts() throws IOException {
    ForkReport fa = classFork(1);
    ForkReport fb = classFork(2);
    // the run's 8 clients, 4 on each agent
    fa.clientsRan = 4;
    fb.clientsRan = 4;
    TrialResult a = map(classPlan(1), List.of(fa));
    TrialResult b = map(classPlan(1), List.of(fb));
    List<AgentRun.Part> parts =
        List.of(
            part(a, fa, "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:04.100Z"),
            part(b, fb, "2026-01-01T00:00:00.050Z", "2026-01-01T00:00:04.200Z"));
    assertOutputs("agents-class", classPlan(1), Merge.trial(List.of(a, b), parts, 8));
    ForkReport fc = mixFork(1, true);
    ForkReport fd = mixFork(2, true);
    fc.clientsRan = 4;
    fd.clientsRan = 4;
    TrialResult c = map(mixPlan(true, 1), List.of(fc));
    TrialResult d = map(mixPlan(true, 1), List.of(fd));
    List<AgentRun.Part> mixParts =
        List.of(
            part(c, fc, "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:04.100Z"),
            part(d, fd, "2026-01-01T00:00:00.050Z", "2026-01-01T00:00:04.200Z"));
    assertOutputs("agents-mix", mixPlan(true, 1), Merge.trial(List.of(c, d), mixParts, 8));
  }

  /** An agent's part of a trial, as AgentSession records it: its fork's counts. */
  private static AgentRun.Part part(TrialResult t, ForkReport f, String start, String end)
      throws IOException {
    // through JSON, as the merge reads an agent's result
    ForkReport wire = Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(f), ForkReport.class);
    return new AgentRun.Part(
        1,
        Map.of(),
        1,
        start,
        start,
        end,
        t.measurement().ops(),
        t.measurement().failedOps(),
        null,
        t.measurement().latencyHistogram(),
        wire.measured,
        wire.whole);
  }

  // the plans

  private static RunPlan mixPlan(boolean perCommand, int forks) {
    return plan("insert_batch", perCommand, forks);
  }

  private static RunPlan classPlan(int forks) {
    return plan("tpcc", true, forks);
  }

  private static RunPlan plan(String workload, boolean perCommand, int forks) {
    return new RunPlan(
        workload,
        List.of(),
        List.of(target()),
        8,
        null,
        new Timing(
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            2,
            forks,
            null,
            null,
            Duration.ofMillis(50),
            null,
            null,
            perCommand),
        new SessionKnobs(null, QueryMode.SIMPLE, Map.of(), 3, false),
        DriverKnobs.defaults(),
        new WorkloadKnobs(10, Map.of(), 10, 42L),
        Path.of("results/x.json"));
  }

  private static TargetSpec target() {
    return new TargetSpec(
        "local",
        ExternalTarget.EXTERNAL,
        "jdbc:postgresql://127.0.0.1:5432/bench?sslmode=disable",
        "bench",
        null,
        null);
  }

  private static TrialResult map(RunPlan plan, List<ForkReport> forks) {
    Map<String, String> point = new LinkedHashMap<>();
    point.put("target", "local");
    TrialSpec trial =
        new TrialSpec(
            plan,
            target(),
            10,
            ClientSettings.of(plan, null),
            Path.of("trial"),
            null,
            point,
            1,
            1,
            null);
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("default_transaction_isolation", "read committed");
    ServerInfo server = new ServerInfo("15.8", 150008, "PostgreSQL 15.8", settings, "off");
    Instant started = Instant.parse("2026-01-01T00:00:00Z");
    return JmhResultMapper.map(
        trial,
        new JmhLaunch.Outcome(null, forks, List.of()),
        server,
        WorkloadRegistry.resolve(plan),
        "pgbench scale 10",
        List.of(),
        started,
        started.plusSeconds(9));
  }

  // the clients' counts, as a fork's clients add them up

  private static final List<ScriptOutline> MIX =
      List.of(
          new ScriptOutline(
              "tpcb",
              2,
              List.of(
                  new ScriptOutline.Command(1, "\\set aid random(1, 100000 * :scale)"),
                  new ScriptOutline.Command(2, "BEGIN;"),
                  new ScriptOutline.Command(3, "UPDATE t SET x = x + 1;"),
                  new ScriptOutline.Command(4, "END;")),
              new int[] {0, 1, 2, 3}),
          new ScriptOutline(
              "select", 1, List.of(new ScriptOutline.Command(1, "SELECT 1;")), new int[] {0}));

  private static final List<ScriptOutline> CLASS =
      List.of(new ScriptOutline("tpcc", 1, List.of(), new int[0]));

  /** A script mix's fork: every figure follows from {@code n}. */
  private static ForkReport mixFork(int n, boolean perCommand) {
    OpCounts measured = new OpCounts();
    OpCounts whole = new OpCounts();
    String[] keys = ScriptOutline.keys(MIX);
    for (int s = 0; s < MIX.size(); s++) {
      OpCounts script = new OpCounts();
      for (int op = 0; op < 300 * n + 17 * s; op++) {
        script.completed(1_000_000L + 3_717L * op + 11L * s);
      }
      script.failed("serialization");
      if (n % 2 == 0) {
        script.failed("deadlock");
      }
      script.retries = 5L * n + s;
      script.retriedOps = 2L * n;
      script.retriedAll = 2L * n + 1;
      script.statements = 4 * script.ok + s;
      if (perCommand) {
        for (int c = 0; c < MIX.get(s).commands().size(); c++) {
          OpCounts cmd = script.part(ScriptOutline.commandKey(c));
          for (int i = 0; i < script.ok + c; i++) {
            cmd.completed(100_003L * (c + 1) + 7L * i);
          }
          cmd.failed = c == 2 ? 1 : 0;
          cmd.retries = c == 2 ? script.retries : 0;
          // the runner's statements (none for the \set); what the socket saw during each
          // execution, on the first script's connections alone: the second's are null per
          // execution, never 0
          cmd.statements = c == 0 ? 0 : cmd.ok;
          if (s == 0) {
            cmd.wireOps = cmd.ok + cmd.failed + cmd.retries;
            cmd.protocolOps = cmd.wireOps;
            cmd.roundTrips = c == 0 ? 0 : cmd.wireOps;
            cmd.rows = c == 0 ? 0 : (long) c * n;
            cmd.bytesSent = (40L + 9 * c) * cmd.wireOps + n;
            cmd.bytesReceived = (20L + 31 * c) * cmd.wireOps + 3L * n;
          }
        }
      }
      OpCounts window = new OpCounts();
      window.ok = script.ok;
      window.failed = script.failed;
      window.retries = script.retries;
      window.retriedOps = script.retriedOps;
      window.retriedAll = script.retriedAll;
      window.statements = script.statements;
      window.latencyNanos = script.latencyNanos;
      window.latencySquares = script.latencySquares;
      script.failures.forEach((k, v) -> window.failures.merge(k, v, Long::sum));
      window.part(keys[s]).add(script);
      measured.add(window);
      whole.add(window);
      whole.ok += 100;
    }
    return fork(n, measured, whole, MIX, perCommand, false);
  }

  /** A workload class's fork: steps with histograms, a rollback by design, warmup-only steps. */
  private static ForkReport classFork(int n) {
    OpCounts measured = new OpCounts();
    OpCounts whole = new OpCounts();
    OpCounts cls = measured.part("tpcc");
    OpCounts wholeCls = whole.part("tpcc");
    String[] steps = {"new order", "payment", n == 2 ? "delivery" : "order status"};
    for (int s = 0; s < steps.length; s++) {
      OpCounts step = cls.timedPart(steps[s]);
      for (int i = 0; i < 200 * n + 31 * s; i++) {
        long nanos = 2_000_000L + 91_331L * i * (s + 1);
        step.completed(nanos);
        step.histogram.recordValue(nanos / 1000);
      }
      step.rolledBack = s == 0 ? 3L * n : 0;
      step.failed = s == 1 ? n : 0;
      step.retries = s == 1 ? 2L * n : 0;
      // what the socket saw during each execution, completed or not; "delivery" (fork 2's) on
      // connections whose protocol it could not read (TLS): its statements and rows not counted
      step.wireOps = step.ok + step.failed + step.retries;
      step.protocolOps = n == 2 && s == 2 ? 0 : step.wireOps;
      step.roundTrips = (s + 1L) * step.wireOps + n;
      step.statements = (s + 2L) * step.protocolOps;
      step.rows = (7L * s + 1) * step.protocolOps + n;
      step.bytesSent = (100L + 50 * s) * step.wireOps;
      step.bytesReceived = (300L + 70 * s) * step.wireOps + n;
      OpCounts w = wholeCls.part(steps[s]);
      w.ok = step.ok + 50;
      w.rolledBack = step.rolledBack + 1;
      w.failed = step.failed;
      w.retries = step.retries + 1;
    }
    // ran in warmup only
    OpCounts stock = wholeCls.part("stock level");
    stock.ok = 5;
    stock.retries = 1;
    cls.ok = 200L * n + 31 + 62;
    cls.failed = n;
    cls.retries = 2L * n;
    cls.retriedOps = n;
    cls.retriedAll = n + 1;
    cls.latencyNanos = 7_000_000L * cls.ok;
    cls.latencySquares = 4.9e13 * cls.ok;
    measured.ok = cls.ok;
    measured.failed = cls.failed;
    measured.failures.put("other", (long) n);
    measured.retries = cls.retries;
    measured.retriedOps = cls.retriedOps;
    measured.retriedAll = cls.retriedAll;
    measured.latencyNanos = cls.latencyNanos;
    measured.latencySquares = cls.latencySquares;
    // the ops that reported a rollback by design (on the New-Order step)
    measured.rolledBack = 3L * n;
    whole.ok = measured.ok + 150;
    whole.rolledBack = 3L * n + 1;
    whole.failed = measured.failed;
    wholeCls.ok = whole.ok;
    wholeCls.failed = whole.failed;
    return fork(n, measured, whole, CLASS, false, true);
  }

  /**
   * The fork's report of its clients' counts, as the fork writes it (jmh.ForkTally and its
   * Breakdown): the per-script figures named from the outline.
   */
  private static ForkReport fork(
      int n,
      OpCounts measured,
      OpCounts whole,
      List<ScriptOutline> outline,
      boolean commands,
      boolean steps) {
    ForkReport f = new ForkReport();
    Histogram h = new Histogram(3);
    for (int i = 1; i <= 200; i++) {
      h.recordValue(900 + (long) i * i * n);
    }
    // the sockets' counts (server.wire): every op that ran counted there, the protocol readable; a
    // workload class's statements are the socket's, a script's the runner's
    measured.wireOps = measured.attempted();
    measured.protocolOps = measured.wireOps;
    measured.roundTrips = 3 * measured.wireOps + n;
    measured.bytesSent = 211 * measured.wireOps + n;
    measured.bytesReceived = 1_013 * measured.wireOps + 7L * n;
    measured.rows = 5 * measured.wireOps + n;
    measured.statements = steps ? 7 * measured.wireOps + n : measured.statements;
    measured.histogram = h;
    f.measured = measured;
    f.whole = whole;
    f.measuredNanos = 2_000_000_000L;
    f.measuredCpuNanos = 300_000_000L * n;
    f.cores = 4;
    f.clientsRan = 8; // every client of the plan's 8 started, as in a fork that ran as asked
    for (int i = 0; i < 2; i++) {
      ForkReport.Window w = new ForkReport.Window();
      w.startEpochMicros = 1_767_225_600_000_000L + (n * 10L + i * 3L) * 1_000_000L;
      w.nanos = 1_000_000_000L;
      w.counts.ok = measured.ok / 2 + i * (measured.ok % 2);
      w.counts.failed = i == 0 ? measured.failed : 0;
      w.okPerSecond = new long[] {w.counts.ok};
      w.serverCommits = 100L * n;
      w.serverNanos = w.nanos + 1000;
      w.cpuNanos = 10L * n;
      f.windows.add(w);
    }
    f.connectNanos = 4_000_000L * n;
    f.connects = 4;
    if (steps) {
      // a step that ran in warmup only is listed among the measured ones (jmh.ForkTally)
      whole.part("tpcc").parts.keySet().forEach(measured.part("tpcc")::part);
    }
    f.scripts = new ArrayList<>();
    for (ScriptOutline o : outline) {
      f.scripts.add(new ForkReport.Script(o.name(), o.weight(), commands ? o.commands() : null));
    }
    f.steps = steps;
    // through JSON, as the parent reads a fork's report
    try {
      return Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(f), ForkReport.class);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  // the writers

  private void assertOutputs(String name, RunPlan plan, TrialResult t) throws IOException {
    BenchmarkRun fixture = ReportFixtures.run();
    List<TrialResult> trials = List.of(t);
    BenchmarkRun run =
        new BenchmarkRun(
            fixture.madeBy(),
            fixture.ran(),
            plan,
            fixture.matrix(),
            fixture.machine(),
            trials,
            Summaries.of(trials),
            fixture.advice(),
            null,
            fixture.rttSweep());
    assertGolden(name + ".json", masked(Json.MAPPER.writeValueAsString(t)));
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(console, true, UTF_8)) {
      ConsoleReport.trial(run, t, out);
    }
    assertGolden(name + ".console.txt", masked(console.toString(UTF_8)));
    StringBuilder csv = new StringBuilder();
    for (Path f : CsvReport.write(run, tmp.resolve(name + ".csv"))) {
      csv.append("== ").append(f.getFileName()).append('\n').append(Files.readString(f, UTF_8));
    }
    assertGolden(name + ".csv.txt", masked(csv.toString()));
    assertGolden(name + ".api.txt", EngineRecords.result(run).trials().toString());
  }

  private static String masked(String s) {
    return s.replace(org.postgresql.util.DriverInfo.DRIVER_VERSION, "PGJDBC-VERSION")
        .replaceAll("\"HikariCP [^\"]*\"", "\"HikariCP VERSION\"")
        .replace(Path.of("").toAbsolutePath().toUri().toString(), "file:///CWD/")
        .replaceAll("\"runtime\" : \"[^\"]*\"", "\"runtime\" : \"JAVA-RUNTIME\"");
  }

  private static void assertGolden(String name, String text) throws IOException {
    Path file = GOLDEN.resolve(name);
    if (Boolean.getBoolean("wg1bench.golden.write")) {
      Files.createDirectories(GOLDEN);
      Files.writeString(file, text.strip() + "\n", UTF_8);
    }
    assertEquals(Files.readString(file, UTF_8).strip(), text.strip(), name);
  }
}
