package dev.wg1bench.jmh;

import dev.wg1bench.fork.ForkReport;
import dev.wg1bench.workload.OpCounts;
import dev.wg1bench.workload.ScriptOutline;
import dev.wg1bench.workload.StepCounts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fork's per-script and per-command figures, written into the {@link ForkReport} with the
 * scripts' names, weights and command texts. The figures are the parts of the fork's measured
 * {@link OpCounts} (each client's window adds its own in); this only names them.
 */
final class Breakdown {
  private List<ScriptOutline> outline;
  private boolean commands;
  private boolean steps;

  /** Notes a client's scripts (called under the benchmark's lock). */
  void absorb(Client c) {
    if (c.scripts != null && outline == null) {
      outline = c.session.outline();
      commands = c.times != null;
      steps = c.steps != null;
    }
  }

  void into(ForkReport r) {
    if (outline == null) {
      return;
    }
    String[] keys = ScriptOutline.keys(outline);
    if (!commands && steps && r.measured.partOrEmpty(keys[0]).parts.isEmpty()) {
      // a workload class whose ops name no steps: its one "script" is the headline
      return;
    }
    r.scripts = new ArrayList<>();
    for (int s = 0; s < outline.size(); s++) {
      ScriptOutline o = outline.get(s);
      OpCounts p = r.measured.partOrEmpty(keys[s]);
      ForkReport.ScriptFigures f = new ForkReport.ScriptFigures();
      f.name = o.name();
      f.weight = o.weight();
      f.ok = p.ok;
      f.failed = p.failed;
      f.retries = p.retries;
      f.retriedOps = p.retriedOps;
      f.retriedOpsAll = p.retriedAll;
      f.latencyNanos = p.latencyNanos;
      f.latencySquares = p.latencySquares;
      if (commands) {
        f.commands = new ArrayList<>();
        for (int i = 0; i < o.commands().size(); i++) {
          ForkReport.CommandFigures x =
              figures(p.partOrEmpty(ScriptOutline.commandKey(i)), o.commands().get(i).line());
          x.text = o.commands().get(i).text();
          f.commands.add(x);
        }
      } else if (steps) {
        f.commands = steps(p, r.whole.partOrEmpty(keys[s]));
      }
      r.scripts.add(f);
    }
  }

  /**
   * A workload class's steps: each with its measured figures and its whole trial's counts; a step
   * that ran only outside the windows (in warmup) follows with its counts alone.
   */
  private static List<ForkReport.CommandFigures> steps(OpCounts measured, OpCounts whole) {
    List<ForkReport.CommandFigures> out = new ArrayList<>();
    Map<String, OpCounts> all = new LinkedHashMap<>(measured.parts);
    whole.parts.keySet().forEach(k -> all.putIfAbsent(k, new OpCounts()));
    int line = 1;
    for (Map.Entry<String, OpCounts> e : all.entrySet()) {
      ForkReport.CommandFigures x = figures(e.getValue(), line++);
      x.text = e.getKey();
      x.step = true;
      x.histogram =
          e.getValue().histogram == null ? null : ForkReport.encode(e.getValue().histogram);
      OpCounts w = whole.partOrEmpty(e.getKey());
      x.whole = new StepCounts(w.ok, w.rolledBack, w.failed, w.retries);
      out.add(x);
    }
    return out;
  }

  /** A command's or a step's part: its completions, their latency sums, its failures, retries. */
  private static ForkReport.CommandFigures figures(OpCounts c, int line) {
    ForkReport.CommandFigures x = new ForkReport.CommandFigures();
    x.line = line;
    x.count = c.ok;
    x.rolledBack = c.rolledBack;
    x.sumNanos = c.latencyNanos;
    x.sumSquares = c.latencySquares;
    x.failures = c.failed;
    x.retries = c.retries;
    return x;
  }
}
