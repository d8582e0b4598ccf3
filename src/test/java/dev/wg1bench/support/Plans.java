package dev.wg1bench.support;

import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.plan.SessionKnobs;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.Timing;
import dev.wg1bench.plan.WorkloadKnobs;
import dev.wg1bench.workload.WorkloadRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Short, in-process (forks 0) plans against the test server, counted in ops per client. */
public final class Plans {
  private Plans() {}

  public static RunPlan builtin(String workload, int clients, QueryMode mode, Path output) {
    return plan(
        workload, WorkloadRegistry.sources(workload), clients, mode, null, 1, Map.of(), output);
  }

  public static RunPlan plan(
      String workload,
      List<ScriptSource> scripts,
      int clients,
      QueryMode mode,
      Isolation isolation,
      int maxTries,
      Map<String, String> defines,
      Path output) {
    return plan(
        workload,
        scripts,
        List.of(TestServer.target()),
        clients,
        mode,
        isolation,
        maxTries,
        defines,
        output);
  }

  public static RunPlan plan(
      String workload,
      List<ScriptSource> scripts,
      List<TargetSpec> targets,
      int clients,
      QueryMode mode,
      Isolation isolation,
      int maxTries,
      Map<String, String> defines,
      Path output) {
    return new RunPlan(
        workload,
        scripts,
        targets,
        clients,
        null,
        // these tests check what the ops did to the data, not their rate: a number of ops per
        // client (pgbench -t) rather than a window, which a loaded machine could leave without an
        // op (a 1 s trial of 4 clients once ended with "no successful op")
        transactions(OPS_PER_CLIENT),
        new SessionKnobs(isolation, mode, Map.of(), maxTries, false),
        DriverKnobs.defaults(),
        new WorkloadKnobs(null, defines, WorkloadKnobs.DEFAULT_BATCH_SIZE, 42L),
        output);
  }

  /** Ops each client of {@link #plan} runs: enough for the data checks' expectations. */
  public static final long OPS_PER_CLIENT = 30;

  /**
   * pgbench -t: {@code ops} per client in one single-shot iteration, no warmup, in this JVM; the
   * duration does not apply.
   */
  public static Timing transactions(long ops) {
    return new Timing(
        Duration.ZERO, Duration.ofSeconds(1), 1, 0, null, null, null, ops, null, false);
  }

  /**
   * A duration-based timing and nothing else: no progress lines, pacing, latency limit, -t, log or
   * per-command figures.
   */
  public static Timing timing(Duration warmup, Duration duration, int iterations, int forks) {
    return new Timing(warmup, duration, iterations, forks, null, null, null, null, null, false);
  }
}
