package dev.wg1bench.run;

import dev.wg1bench.json.OutputFile;
import dev.wg1bench.plan.AgentSpec;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.ConsoleTables;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Machine;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.Targets;
import dev.wg1bench.workload.ClientContext;
import dev.wg1bench.workload.Workload;
import dev.wg1bench.workload.WorkloadRegistry;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * The run stage's entry: checks a plan or matrix, starts its targets, runs every trial, writes the
 * JSON and prints the summary. The CLI, the advise command and the Java API all call this.
 */
public final class RunStage {
  private final PrintStream out;
  private final boolean verbose;
  private boolean check;
  private AgentSpec agent;
  private IntConsumer onPoint = i -> {};

  public RunStage(PrintStream out, boolean verbose) {
    this.out = out;
    this.verbose = verbose;
  }

  /** --check: verify the workload's data guarantees against the database after each trial. */
  public RunStage check(boolean on) {
    this.check = on;
    return this;
  }

  /**
   * --agent I/N: this process is one of N agents of a run; they meet through the target before each
   * trial and each stores its result there.
   */
  public RunStage agent(AgentSpec spec) {
    this.agent = spec;
    return this;
  }

  /**
   * Told the index of the matrix point whose workload, target or trial is taken up next, so that a
   * caller whose arms are points (a comparison) can say which arm a failure belongs to.
   */
  public RunStage onPoint(IntConsumer c) {
    this.onPoint = c;
    return this;
  }

  /** Runs the plan on every target and writes the JSON result to the plan's output path. */
  public BenchmarkRun run(RunPlan plan) {
    return run(Matrix.of(plan));
  }

  /**
   * Runs every trial of the matrix: targets are started once and kept for the whole run; trials run
   * in the matrix's order with its hygiene before each; the JSON holds every trial and a summary
   * per point.
   */
  public BenchmarkRun run(Matrix m) {
    List<Workload> workloads = checkedWorkloads(m);
    validate(m);
    ResultAssembler assembler = new ResultAssembler(m, workloads, Machine.current());
    Set<String> varying = PointLabels.varying(m);
    int connections = m.points().stream().mapToInt(p -> p.plan().connections()).max().orElse(1);
    Map<String, LiveTarget> live = new LinkedHashMap<>();
    BenchmarkRun run;
    AgentSession session = null;
    try {
      for (TargetSpec spec : m.targets()) {
        onPoint.accept(firstPointOn(m, spec));
        live.put(spec.key(), LiveTarget.open(spec, connections, out));
      }
      if (agent != null) {
        session = AgentSession.join(agent, m, live.values().iterator().next().target.admin(), out);
      }
      TrialExecution execution = new TrialExecution(out, verbose, check, m, session);
      List<TrialResult> trials;
      try {
        trials =
            new TrialSequence(m, workloads, live, execution, assembler, out)
                .executeAll(varying, onPoint);
      } catch (RuntimeException e) {
        if (session != null) {
          // the others stop waiting for this agent instead of running out their timeout
          session.fail(ConnectionFactory.oneLine(e));
        }
        throw e;
      }
      run = assembler.assemble(trials);
      if (session != null) {
        run = session.deliver(run);
      }
    } finally {
      if (session != null) {
        session.close();
      }
      live.values().forEach(LiveTarget::close);
    }
    report(run, m, varying);
    return run;
  }

  /**
   * Every mistake in the options found before any server is started: the output must be writable,
   * each target must accept each point, and an agent's run must be one the agents can share.
   */
  private void validate(Matrix m) {
    String unwritable = JsonReport.unwritable(m.output());
    if (unwritable != null) {
      throw new UsageException("--output " + m.output() + ": " + unwritable);
    }
    for (TargetSpec spec : m.targets()) {
      for (int i = 0; i < m.points().size(); i++) {
        onPoint.accept(i);
        Targets.of(spec).validate(m.points().get(i).plan());
      }
    }
    if (agent != null) {
      AgentSession.validate(agent, m);
      if (check) {
        throw new UsageException(
            "--check cannot be used with --agent: each agent counts only its own ops, the tables"
                + " hold every agent's");
      }
    }
  }

  /**
   * The JSON written, then the console's summary: a sweep's table or the targets compared. A JSON
   * that could not be written (saved elsewhere, see {@link JsonReport#write}) fails the run after
   * the summary is shown.
   */
  private void report(BenchmarkRun run, Matrix m, Set<String> varying) {
    OutputFile.Written written = null;
    RunFailure lost = null;
    try {
      written = JsonReport.write(run, m.output());
    } catch (RunFailure e) {
      lost = e;
    }
    if (m.isSweep()) {
      ConsoleTables.summary(run, varying, out);
    } else {
      ConsoleTables.comparison(run, out);
    }
    if (lost != null) {
      throw lost;
    }
    out.println("result written to " + written);
  }

  /** Each point's workload; every script error surfaces here, before any server is touched. */
  private List<Workload> checkedWorkloads(Matrix m) {
    List<Workload> out = new ArrayList<>();
    for (Matrix.Point p : m.points()) {
      onPoint.accept(out.size());
      Workload w = WorkloadRegistry.resolve(p.plan());
      Set<String> predefined = new HashSet<>(ClientContext.BUILTIN_VARIABLES);
      predefined.addAll(p.plan().params().defines().keySet());
      w.check(predefined);
      out.add(w);
    }
    return out;
  }

  /** The first point that runs on this target. */
  private static int firstPointOn(Matrix m, TargetSpec spec) {
    for (int i = 0; i < m.points().size(); i++) {
      if (m.points().get(i).target().key().equals(spec.key())) {
        return i;
      }
    }
    return 0;
  }
}
