package dev.wg1bench.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.wg1bench.plan.RunPlan;
import java.util.List;

/**
 * Everything one invocation measured (with --agent: one agent's part, or the agents' merged): the
 * plan (no passwords), the machine, every trial (one per target, knob value and repetition, in the
 * order they ran) and the summary per matrix point. This is the JSON result file.
 *
 * @param madeBy the tool that wrote it, written into the JSON in its place
 * @param ran the workload it ran, written into the JSON in its place
 * @param rttSweep advise --rtt's claims per round-trip time, null otherwise
 */
public record BenchmarkRun(
    @JsonUnwrapped Tool madeBy,
    @JsonUnwrapped WorkloadRun ran,
    RunPlan plan,
    MatrixInfo matrix,
    Machine machine,
    List<TrialResult> trials,
    List<PointSummary> summary,
    List<AdviceResult> advice,
    @JsonInclude(JsonInclude.Include.NON_NULL) AgentRun agents,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<RttSweepRow> rttSweep) {

  /** The tool's name and version, and the JMH it measured with. */
  public record Tool(String tool, String version, String jmh) {}

  /** The workload, what it does, and the seed its random values came from. */
  public record WorkloadRun(String workload, String workloadDescription, String seed) {}

  /** A run without agents. */
  public BenchmarkRun(
      Tool madeBy,
      WorkloadRun ran,
      RunPlan plan,
      MatrixInfo matrix,
      Machine machine,
      List<TrialResult> trials,
      List<PointSummary> summary,
      List<AdviceResult> advice) {
    this(madeBy, ran, plan, matrix, machine, trials, summary, advice, null, null);
  }

  /** A run with agents, or a merge's, which is never an RTT sweep of advice. */
  public BenchmarkRun(
      Tool madeBy,
      WorkloadRun ran,
      RunPlan plan,
      MatrixInfo matrix,
      Machine machine,
      List<TrialResult> trials,
      List<PointSummary> summary,
      List<AdviceResult> advice,
      AgentRun agents) {
    this(madeBy, ran, plan, matrix, machine, trials, summary, advice, agents, null);
  }

  /** This advise run with its claims' verdicts per round-trip time (advise --rtt). */
  public BenchmarkRun withRttSweep(List<RttSweepRow> rows) {
    return new BenchmarkRun(
        madeBy, ran, plan, matrix, machine, trials, summary, advice, agents, rows);
  }

  /** This run as one agent's (or a merge's) part of a distributed run. */
  public BenchmarkRun withAgents(AgentRun a, List<TrialResult> t, List<PointSummary> s) {
    return new BenchmarkRun(madeBy, ran, plan, matrix, machine, t, s, advice, a, rttSweep);
  }

  public String tool() {
    return madeBy.tool();
  }

  public String version() {
    return madeBy.version();
  }

  public String jmh() {
    return madeBy.jmh();
  }

  public String workload() {
    return ran.workload();
  }

  public String workloadDescription() {
    return ran.workloadDescription();
  }

  public String seed() {
    return ran.seed();
  }
}
