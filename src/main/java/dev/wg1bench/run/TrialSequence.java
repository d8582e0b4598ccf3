package dev.wg1bench.run;

import dev.wg1bench.plan.Matrix;
import dev.wg1bench.report.ConsoleReport;
import dev.wg1bench.report.WallTime;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.workload.Workload;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * Runs the matrix's trials in its order (shuffled or not, repeats included) on targets that stay up
 * for the whole run, printing a line per trial in a sweep or the full block otherwise.
 */
final class TrialSequence {
  private final Matrix m;
  private final List<Workload> workloads;
  private final Map<String, LiveTarget> live;
  private final TrialExecution execution;
  private final ResultAssembler assembler;
  private final PrintStream out;

  TrialSequence(
      Matrix m,
      List<Workload> workloads,
      Map<String, LiveTarget> live,
      TrialExecution execution,
      ResultAssembler assembler,
      PrintStream out) {
    this.m = m;
    this.workloads = workloads;
    this.live = live;
    this.execution = execution;
    this.assembler = assembler;
    this.out = out;
  }

  /** Every trial of the schedule, in the order run. */
  List<TrialResult> executeAll(Set<String> varying, IntConsumer onPoint) {
    List<Matrix.TrialRef> schedule = m.schedule();
    if (m.isSweep()) {
      out.printf(
          "%d trials: %d points x %d repeats, %s order%s%n",
          schedule.size(),
          m.points().size(),
          m.repeat(),
          m.order().name().toLowerCase(Locale.ROOT),
          m.order() == Matrix.Order.RANDOM ? " (--seed " + m.seed() + ")" : "");
    }
    out.println(WallTime.expected(m.points().get(0).plan().timing(), schedule.size()));
    List<TrialResult> trials = new ArrayList<>();
    for (Matrix.TrialRef ref : schedule) {
      Matrix.Point p = m.points().get(ref.point());
      onPoint.accept(ref.point());
      LiveTarget lt = live.get(p.target().key());
      TrialResult r =
          execution.measure(p, workloads.get(ref.point()), lt, ref.repeat(), trials.size() + 1);
      trials.add(r);
      if (m.isSweep()) {
        ConsoleReport.trialLine(r, schedule.size(), varying, out);
      } else {
        ConsoleReport.trial(assembler.assemble(trials), r, out);
        out.println();
      }
    }
    return trials;
  }
}
