package dev.wg1bench.run;

import dev.wg1bench.BuildInfo;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Machine;
import dev.wg1bench.result.MatrixInfo;
import dev.wg1bench.result.Summaries;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The run's result from its trials so far: the workloads, the matrix, the machine, summaries. */
final class ResultAssembler {
  private final Matrix m;
  private final List<Workload> workloads;
  private final Machine machine;

  /** {@code workloads} holds the workload of each point, in the matrix's point order. */
  ResultAssembler(Matrix m, List<Workload> workloads, Machine machine) {
    this.m = m;
    this.workloads = workloads;
    this.machine = machine;
  }

  BenchmarkRun assemble(List<TrialResult> trials) {
    List<Workload> distinct = new ArrayList<>();
    for (Workload w : workloads) {
      if (distinct.stream().noneMatch(d -> d.name().equals(w.name()))) {
        distinct.add(w);
      }
    }
    String names = String.join(",", distinct.stream().map(Workload::name).toList());
    String descriptions = String.join("; ", distinct.stream().map(Workload::description).toList());
    String seeds = String.join("; ", distinct.stream().map(Workload::seed).distinct().toList());
    return new BenchmarkRun(
        new BenchmarkRun.Tool("wg1bench", BuildInfo.version(), BuildInfo.jmh()),
        new BenchmarkRun.WorkloadRun(names, descriptions, seeds),
        m.points().get(0).plan(),
        new MatrixInfo(
            m.points().size(),
            m.repeat(),
            m.order().name().toLowerCase(Locale.ROOT),
            m.seed(),
            m.between().name().toLowerCase(Locale.ROOT)),
        machine,
        List.copyOf(trials),
        Summaries.of(trials),
        List.of());
  }
}
