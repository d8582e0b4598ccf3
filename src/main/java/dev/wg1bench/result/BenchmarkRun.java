package dev.wg1bench.result;

import dev.wg1bench.plan.RunPlan;
import java.util.List;

/**
 * Everything one invocation measured: the plan (no passwords), the machine, every trial (one per
 * target, knob value and repetition, in the order they ran) and the summary per matrix point. This
 * is the JSON result file.
 */
public record BenchmarkRun(
    String tool,
    String version,
    String jmh,
    String workload,
    String workloadDescription,
    String seed,
    RunPlan plan,
    MatrixInfo matrix,
    Machine machine,
    List<TrialResult> trials,
    List<PointSummary> summary,
    List<AdviceResult> advice) {

  /** A run without advice. */
  public BenchmarkRun(
      String tool,
      String version,
      String jmh,
      String workload,
      String workloadDescription,
      String seed,
      RunPlan plan,
      MatrixInfo matrix,
      Machine machine,
      List<TrialResult> trials,
      List<PointSummary> summary) {
    this(
        tool,
        version,
        jmh,
        workload,
        workloadDescription,
        seed,
        plan,
        matrix,
        machine,
        trials,
        summary,
        List.of());
  }
}
