package dev.wg1bench.report;

import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.SessionKnobs;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.Timing;
import dev.wg1bench.plan.WorkloadKnobs;
import dev.wg1bench.result.AgentRun;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.ClientInfo;
import dev.wg1bench.result.ErrorRecord;
import dev.wg1bench.result.Latency;
import dev.wg1bench.result.Machine;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.ProgressPoint;
import dev.wg1bench.result.Summaries;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.server.ExternalTarget;
import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.workload.OpCounts;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A realistic tpcb_like result without a database: 2 targets x 3 client counts x 2 query modes x 3
 * repeats, with --progress series (warmup and measurement) and a few errors.
 */
public final class ReportFixtures {
  static final List<String> TARGETS = List.of("local", "remote");
  static final List<Integer> CLIENTS = List.of(1, 8, 32);
  static final List<String> MODES = List.of("simple", "prepared");
  static final int REPEATS = 3;

  /** A value with a comma, a quote and a space, kept by every trial (so it does not vary). */
  static final String APP_NAME = "wg1 \"bench\", run";

  private ReportFixtures() {}

  public static BenchmarkRun run() {
    return run(TARGETS, Map.of());
  }

  static BenchmarkRun run(List<String> targets, Map<String, String> extraPoint) {
    return run(targets, CLIENTS, extraPoint);
  }

  static BenchmarkRun run(
      List<String> targets, List<Integer> clientCounts, Map<String, String> extraPoint) {
    Random rnd = new Random(7);
    List<TrialResult> trials = new ArrayList<>();
    Instant t0 = Instant.parse("2025-06-01T10:00:00Z");
    int seq = 0;
    for (int r = 1; r <= REPEATS; r++) {
      for (String target : targets) {
        for (int c : clientCounts) {
          for (String mode : MODES) {
            seq++;
            Map<String, String> p = new LinkedHashMap<>();
            p.put("target", target);
            p.put("workload", "tpcb_like");
            p.put("clients", Integer.toString(c));
            p.put("queryMode", mode);
            p.put("isolation", "default");
            p.put("set.application_name", APP_NAME);
            p.putAll(extraPoint);
            double base = (target.equals("local") ? 900 : 450) * Math.pow(c, 0.7);
            double tps =
                base * (mode.equals("prepared") ? 1.25 : 1.0) * (1 + 0.04 * rnd.nextGaussian());
            double p99 = 1000.0 * c / tps * (3 + rnd.nextDouble());
            Instant start = t0.plusSeconds(20L * seq);
            trials.add(trial(p, r, seq, target, c, mode, tps, p99, rnd, start));
          }
        }
      }
    }
    RunPlan plan =
        new RunPlan(
            "tpcb_like",
            List.of(),
            targets.stream()
                .map(
                    t ->
                        new TargetSpec(
                            t,
                            ExternalTarget.EXTERNAL,
                            "jdbc:postgresql://" + t + ":5432/bench",
                            "bench",
                            null,
                            null))
                .toList(),
            8,
            null,
            new Timing(
                Duration.ofSeconds(3),
                Duration.ofSeconds(10),
                5,
                1,
                Duration.ofSeconds(1),
                null,
                null,
                null,
                null,
                false),
            new SessionKnobs(null, QueryMode.SIMPLE, Map.of(), 1, false),
            DriverKnobs.defaults(),
            new WorkloadKnobs(10, Map.of(), WorkloadKnobs.DEFAULT_BATCH_SIZE, 42L),
            Path.of("results/x.json"));
    Machine m =
        new Machine(
            "bench-client",
            "Linux",
            "6.1.0-18-amd64",
            "amd64",
            16,
            64L * 1024 * 1024 * 1024,
            "AMD EPYC 7B13",
            "OpenJDK 64-Bit Server VM",
            "17.0.15+6",
            "autogroup on");
    return new BenchmarkRun(
        new BenchmarkRun.Tool("wg1bench", "0.1.0", "1.37"),
        new BenchmarkRun.WorkloadRun("tpcb_like", "pgbench's built-in TPC-B (sort of)", "2.2"),
        plan,
        new dev.wg1bench.result.MatrixInfo(12, 3, "random", 42, "auto"),
        m,
        trials,
        Summaries.of(trials),
        List.of());
  }

  private static TrialResult trial(
      Map<String, String> p,
      int repeat,
      int seq,
      String target,
      int clients,
      String mode,
      double tps,
      double p99,
      Random rnd,
      Instant start) {
    long ops = Math.round(tps * 10);
    Latency lat = new Latency(ops, p99 / 3, p99 / 6, p99 / 3.5, p99 / 1.6, p99, p99 * 1.8, p99 * 4);
    List<Double> iters = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      iters.add(tps * (1 + 0.03 * rnd.nextGaussian()));
    }
    long failed = clients == 32 && mode.equals("simple") ? 3 : 0;
    Measurement m =
        measurement(
            tps,
            tps * 0.05,
            tps + failed / 10.0,
            ops,
            failed,
            clients / 8,
            clients / 8,
            failed > 0 ? Map.of("serialization", failed) : Map.of(),
            ops * 7,
            tps * 7,
            null,
            "op start",
            lat,
            0,
            0,
            null,
            null,
            12.5,
            iters,
            Math.round(tps * 13),
            failed,
            null,
            0,
            null,
            3.2);
    List<ProgressPoint> progress = new ArrayList<>();
    for (int t = 1; t <= 13; t++) {
      boolean warm = t <= 3;
      double f = warm ? 0.6 + 0.12 * t : 1 + 0.05 * rnd.nextGaussian();
      progress.add(
          new ProgressPoint(
              t,
              warm ? "warmup" : "measurement",
              Math.round(tps * f),
              tps * f,
              p99 / 3.5 / f,
              p99 / f * (1 + 0.1 * rnd.nextDouble()),
              0,
              0,
              0));
    }
    List<ErrorRecord> errors =
        failed > 0
            ? List.of(
                new ErrorRecord(
                    "serialization",
                    "40001",
                    "ERROR: could not serialize access due to <concurrent> update",
                    start.plusSeconds(5).toString(),
                    failed,
                    0,
                    "measurement",
                    start.plusSeconds(9).toString()))
            : List.of();
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("shared_buffers", "4GB");
    settings.put("synchronous_commit", "on");
    settings.put("max_connections", "200");
    ServerInfo server =
        new ServerInfo(
            target.equals("local") ? "17.5" : "16.9",
            target.equals("local") ? 170005 : 160009,
            "PostgreSQL " + (target.equals("local") ? "17.5" : "16.9") + " on x86_64-pc-linux-gnu",
            settings,
            "off");
    ClientInfo client =
        new ClientInfo(
            new ClientInfo.Protocol(
                "42.7.14",
                mode,
                mode.equals("simple") ? "simple" : "extended",
                mode.equals("simple") ? 5 : 1),
            new ClientInfo.Session(
                "server default (read committed)",
                "prefer (pgjdbc default)",
                "off",
                Map.of("application_name", APP_NAME)),
            new ClientInfo.Driver(true, 0, false, Map.of(), 0),
            new ClientInfo.Connections(clients, clients, null),
            new ClientInfo.Timeouts(0, 10),
            null);
    return new TrialResult(
        new TrialResult.Position(p, repeat, seq),
        new TrialResult.Subject(
            target,
            "external",
            "jdbc:postgresql://" + target + ":5432/bench",
            null,
            10,
            "pgbench scale 10"),
        server,
        client,
        m,
        errors,
        progress,
        List.of(),
        start.toString(),
        start.plusSeconds(14).toString(),
        List.of(),
        null);
  }

  /** A measurement without per-second samples, server counter or histogram. */
  static Measurement measurement(
      double tps,
      Double tpsError,
      double attemptedOpsPerSecond,
      long ops,
      long failedOps,
      long retries,
      long retriedOps,
      Map<String, Long> failures,
      long statements,
      double statementsPerSecond,
      Double rowsPerSecond,
      String latencyFrom,
      Latency latencyMs,
      long skippedOps,
      long lateOps,
      Latency poolWaitMs,
      Latency scheduleLagMs,
      Double clientCpuMicrosPerOp,
      List<Double> iterationTps,
      long totalOps,
      long totalFailedOps,
      String stoppedBy,
      int clientsStopped,
      String clientsStoppedBy,
      Double initialConnectionMs) {
    return new Measurement(
        new Measurement.Throughput(
            tps,
            tpsError,
            tpsError == null ? "no interval" : "95% CI",
            attemptedOpsPerSecond,
            tps > 0 ? ops / tps : 0,
            null),
        new Measurement.Counts(
            ops,
            failedOps,
            retries,
            retriedOps,
            failures,
            statements,
            statementsPerSecond,
            rowsPerSecond),
        new Measurement.Latencies(
            latencyFrom, latencyMs, skippedOps, lateOps, poolWaitMs, scheduleLagMs),
        new Measurement.ClientCpu(clientCpuMicrosPerOp, null),
        new Measurement.Series(iterationTps, List.of(), List.of(), null),
        new Measurement.WholeTrial(
            totalOps,
            totalFailedOps,
            stoppedBy,
            clientsStopped,
            clientsStoppedBy,
            null,
            null,
            initialConnectionMs,
            0),
        null,
        null,
        null,
        null);
  }

  /**
   * An agent's parts of these trials, with the counts its fork would have handed over: built here
   * from the fixture's figures, which have no fork behind them.
   */
  public static List<AgentRun.Part> parts(List<TrialResult> trials) {
    List<AgentRun.Part> parts = new ArrayList<>();
    for (TrialResult t : trials) {
      Measurement m = t.measurement();
      OpCounts measured = new OpCounts();
      measured.ok = m.ops();
      measured.failed = m.failedOps();
      measured.retries = m.retries();
      measured.retriedOps = m.retriedOps();
      measured.statements = m.statements() == null ? 0 : m.statements();
      measured.skipped = m.skippedOps();
      measured.late = m.lateOps();
      if (m.failures() != null) {
        measured.failures.putAll(m.failures());
      }
      measured.histogram = m.latencyHistogramDecoded();
      OpCounts whole = new OpCounts();
      whole.ok = m.totalOps();
      whole.failed = m.totalFailedOps();
      parts.add(
          new AgentRun.Part(
              t.sequence(),
              t.point(),
              t.repeat(),
              t.startedAt(),
              null,
              null,
              m.ops(),
              m.failedOps(),
              null,
              m.latencyHistogram(),
              measured,
              whole));
    }
    return parts;
  }
}
