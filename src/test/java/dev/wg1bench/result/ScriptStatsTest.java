package dev.wg1bench.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.wg1bench.fork.ForkReport;
import dev.wg1bench.json.Histograms;
import dev.wg1bench.workload.OpCounts;
import dev.wg1bench.workload.ScriptOutline;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Per-script and per-command figures are views of the counts: parts' counts added by their one
 * {@code add} give the figures of one client that measured them all.
 */
class ScriptStatsTest {
  private static final List<ForkReport.Script> SCRIPT =
      List.of(
          new ForkReport.Script("a.sql", 3, List.of(new ScriptOutline.Command(3, "SELECT 1;"))));

  private static final List<ForkReport.Script> CLASS =
      List.of(new ForkReport.Script("acme.Orders", 1, null));

  /** A part's counts of script a.sql: an op and its one command per latency (ms). */
  private static OpCounts script(long... ms) {
    OpCounts all = new OpCounts();
    OpCounts s = all.part("a.sql");
    OpCounts c = s.part(ScriptOutline.commandKey(0));
    for (long x : ms) {
      s.completed(x * 1_000_000);
      c.completed(x * 1_000_000);
    }
    s.failed("serialization");
    s.retries = 2;
    s.retriedOps = 1;
    s.retriedAll = 2;
    c.failed = 1;
    c.retries = 2;
    return all;
  }

  @Test
  void addedPartsGiveTheFiguresOfAllSamplesTogether() {
    OpCounts merged = script(1, 2, 3).add(script(10, 20));
    OpCounts all = script(1, 2, 3, 10, 20);
    ScriptStats m = ScriptStats.of(SCRIPT, false, merged, new OpCounts(), 10).get(0);
    ScriptStats one = ScriptStats.of(SCRIPT, false, all, new OpCounts(), 10).get(0);
    assertEquals(5, m.ops());
    assertEquals(2, m.failedOps());
    assertEquals(4, m.retries());
    assertEquals(2, m.retriedOps());
    assertEquals(4, m.retriedOpsAll());
    assertEquals(0.5, m.tps(), 1e-12);
    assertEquals(one.latencyMeanMs(), m.latencyMeanMs(), 1e-12);
    assertEquals(one.latencyStddevMs(), m.latencyStddevMs(), 1e-9);
    CommandStats c = m.commands().get(0);
    assertEquals(5, c.count());
    assertEquals(2, c.failures());
    assertEquals(4, c.retries());
    assertEquals(7.2, c.avgMs(), 1e-12);
    // population stddev of 1, 2, 3, 10, 20
    assertEquals(Math.sqrt((1 + 4 + 9 + 100 + 400) / 5.0 - 7.2 * 7.2), c.stddevMs(), 1e-9);
    assertEquals("a.sql:3", c.location());
  }

  /** A part's counts of a workload class's steps, each with its latencies (µs). */
  private static OpCounts steps(Object... nameThenMicros) {
    OpCounts all = new OpCounts();
    OpCounts cls = all.part("acme.Orders");
    OpCounts step = null;
    for (Object o : nameThenMicros) {
      if (o instanceof String name) {
        step = cls.timedPart(name);
        step.failed = 1;
      } else {
        long us = (Long) o;
        step.completed(us * 1000);
        step.histogram.recordValue(us);
      }
    }
    return all;
  }

  /** Agents' and forks' whole-trial counts of a step add up as its windows' figures do. */
  @Test
  void aStepsWholeTrialCountsAddUpAcrossParts() {
    OpCounts whole = new OpCounts();
    for (long[] w : new long[][] {{10, 1, 2, 3}, {5, 0, 1, 0}, {0, 0, 0, 0}}) {
      OpCounts part = new OpCounts();
      OpCounts s = part.part("acme.Orders").part("new_order");
      s.ok = w[0];
      s.rolledBack = w[1];
      s.failed = w[2];
      s.retries = w[3];
      whole.add(part);
    }
    OpCounts measured = steps("new_order", 1000L).add(steps("new_order", 2000L));
    measured.add(steps("new_order", 3000L));
    CommandStats m = ScriptStats.of(CLASS, true, measured, whole, 1).get(0).commands().get(0);
    assertEquals(new StepCounts(15, 1, 3, 3), m.wholeTrial());
    assertEquals(3, m.count());
  }

  @Test
  void stepsAddByNameWithTheirHistogramsWhateverOrderEachPartRanThemIn() {
    // one agent ran "load" first, the other "save" first, and only the second ran "audit"
    OpCounts a = steps("load", 1000L, 3000L, "save", 10_000L);
    OpCounts b = steps("save", 20_000L, 30_000L, "load", 2000L, "audit", 500L);
    List<CommandStats> m =
        ScriptStats.of(CLASS, true, a.add(b), new OpCounts(), 1).get(0).commands();
    assertEquals(List.of("load", "save", "audit"), m.stream().map(CommandStats::text).toList());
    assertEquals(List.of(1, 2, 3), m.stream().map(CommandStats::line).toList());
    CommandStats load = m.get(0);
    assertEquals(3, load.count());
    assertEquals(2, load.failures());
    assertEquals(2.0, load.avgMs(), 1e-12);
    assertEquals(2.0, load.p50Ms(), 0.01);
    assertEquals(3.0, load.p99Ms(), 0.01);
    assertEquals(3, Histograms.decode(load.histogram()).getTotalCount());
    CommandStats save = m.get(1);
    assertEquals(3, save.count());
    assertEquals(20.0, save.avgMs(), 1e-12);
    assertEquals(30.0, save.p99Ms(), 0.05);
    assertEquals(1, m.get(2).count());
    assertEquals(true, m.get(2).step());
  }

  @Test
  void noOutlineIsNoFigures() {
    assertNull(ScriptStats.of(null, false, new OpCounts(), new OpCounts(), 1));
    assertNull(ScriptStats.Times.of(0, 0, 0).latencyMeanMs());
  }
}
