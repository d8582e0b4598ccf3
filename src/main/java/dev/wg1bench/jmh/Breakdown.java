package dev.wg1bench.jmh;

import dev.wg1bench.fork.ForkReport;
import dev.wg1bench.workload.CommandTimes;
import dev.wg1bench.workload.ScriptOutline;
import dev.wg1bench.workload.StepTimes;
import java.util.ArrayList;
import java.util.List;

/**
 * A fork's per-script and per-command figures: each client's measured iterations summed, then
 * written into the {@link ForkReport} with the scripts' names, weights and command texts.
 */
final class Breakdown {
  private List<ScriptOutline> outline;
  private ScriptTally scripts;
  private CommandTimes commands;
  private StepTimes steps;

  /** Adds a client's measured iteration (called under the benchmark's lock). */
  void absorb(Client c) {
    if (c.scripts == null) {
      return;
    }
    if (outline == null) {
      outline = c.session.outline();
      scripts = new ScriptTally(outline.size());
      commands = c.times == null ? null : new CommandTimes(outline);
      steps = c.steps == null ? null : new StepTimes();
    }
    scripts.add(c.scripts);
    if (commands != null && c.times != null) {
      commands.add(c.times);
    }
    if (steps != null && c.steps != null) {
      steps.add(c.steps);
    }
  }

  void into(ForkReport r) {
    if (outline == null || (commands == null && steps != null && steps.names().isEmpty())) {
      // a workload class whose ops name no steps: its one "script" is the headline
      return;
    }
    r.scripts = new ArrayList<>();
    for (int s = 0; s < outline.size(); s++) {
      ScriptOutline o = outline.get(s);
      ForkReport.ScriptFigures f = new ForkReport.ScriptFigures();
      f.name = o.name();
      f.weight = o.weight();
      f.ok = scripts.ok[s];
      f.failed = scripts.failed[s];
      f.retries = scripts.retries[s];
      f.retriedOps = scripts.retriedOps[s];
      f.retriedOpsAll = scripts.retriedAll[s];
      f.latencyNanos = scripts.latencyNanos[s];
      f.latencySquares = scripts.latencySquares[s];
      if (commands != null) {
        f.commands = new ArrayList<>();
        for (int i = 0; i < o.commands().size(); i++) {
          ForkReport.CommandFigures x = new ForkReport.CommandFigures();
          x.line = o.commands().get(i).line();
          x.text = o.commands().get(i).text();
          x.count = commands.count(s, i);
          x.sumNanos = commands.sumNanos(s, i);
          x.sumSquares = commands.sumSquares(s, i);
          x.failures = commands.failures(s, i);
          x.retries = commands.retries(s, i);
          f.commands.add(x);
        }
      } else if (steps != null) {
        f.commands = new ArrayList<>();
        for (int i = 0; i < steps.names().size(); i++) {
          ForkReport.CommandFigures x = new ForkReport.CommandFigures();
          x.line = i + 1;
          x.text = steps.names().get(i);
          x.step = true;
          x.count = steps.count(i);
          x.sumNanos = steps.sumNanos(i);
          x.sumSquares = steps.sumSquares(i);
          x.failures = steps.failures(i);
          x.retries = steps.retries(i);
          x.histogram = ForkReport.encode(steps.histogram(i));
          f.commands.add(x);
        }
      }
      r.scripts.add(f);
    }
  }
}
