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

/** Short, in-process (forks 0) plans against the test server. */
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
        // short: these tests check what the ops did to the data, not their rate; two windows so a
        // per-iteration fold is exercised
        timing(Duration.ofMillis(200), Duration.ofMillis(600), 2, 0),
        new SessionKnobs(isolation, mode, Map.of(), maxTries, false),
        DriverKnobs.defaults(),
        new WorkloadKnobs(null, defines, WorkloadKnobs.DEFAULT_BATCH_SIZE, 42L),
        output);
  }

  /**
   * A duration-based timing and nothing else: no progress lines, pacing, latency limit, -t, log or
   * per-command figures.
   */
  public static Timing timing(Duration warmup, Duration duration, int iterations, int forks) {
    return new Timing(warmup, duration, iterations, forks, null, null, null, null, null, false);
  }
}
