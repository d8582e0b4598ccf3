package dev.wg1bench.result;

import dev.wg1bench.plan.RunPlan;
import java.util.List;

/**
 * Everything one invocation measured (with --agent: one agent's part, or the agents' merged): the
 * plan (no passwords), the machine, every trial (one per target, knob value and repetition, in the
 * order they ran) and the summary per matrix point. This is the JSON result file.
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
    List<AdviceResult> advice,
    @com.fasterxml.jackson.annotation.JsonInclude(
            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        AgentRun agents) {

  /** A run with advice and without agents. */
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
      List<PointSummary> summary,
      List<AdviceResult> advice) {
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
        advice,
        null);
  }

  /** This run as one agent's (or a merge's) part of a distributed run. */
  public BenchmarkRun withAgents(AgentRun a, List<TrialResult> t, List<PointSummary> s) {
    return new BenchmarkRun(
        tool,
        version,
        jmh,
        workload,
        workloadDescription,
        seed,
        plan,
        matrix,
        machine,
        t,
        s,
        advice,
        a);
  }

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
