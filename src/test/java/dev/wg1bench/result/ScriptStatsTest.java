package dev.wg1bench.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Agents' per-script and per-command figures merge as if one client had measured them all. */
class ScriptStatsTest {
  private static CommandStats command(double... ms) {
    double total = Arrays.stream(ms).sum();
    double squares = Arrays.stream(ms).map(x -> x * x).sum();
    return CommandStats.of(
        1,
        3,
        "a.sql:3",
        "SELECT 1;",
        false,
        new CommandStats.Sums(ms.length, total, squares, 1, 2, 0, null, null));
  }

  private static ScriptStats script(double seconds, double... ms) {
    double total = Arrays.stream(ms).sum();
    double squares = Arrays.stream(ms).map(x -> x * x).sum();
    return new ScriptStats(
        1,
        "a.sql",
        3,
        ms.length,
        1,
        2,
        1,
        2,
        ms.length / seconds,
        ScriptStats.Times.of(ms.length, total, squares),
        List.of(command(ms)));
  }

  @Test
  void mergedFiguresEqualThoseOfAllSamplesTogether() {
    ScriptStats a = script(10, 1, 2, 3);
    ScriptStats b = script(10, 10, 20);
    ScriptStats all = script(10, 1, 2, 3, 10, 20);
    ScriptStats m = ScriptStats.merge(List.of(List.of(a), List.of(b)), 10).get(0);
    assertEquals(5, m.ops());
    assertEquals(2, m.failedOps());
    assertEquals(4, m.retries());
    assertEquals(2, m.retriedOps());
    assertEquals(4, m.retriedOpsAll());
    assertEquals(0.5, m.tps(), 1e-12);
    assertEquals(all.latencyMeanMs(), m.latencyMeanMs(), 1e-12);
    assertEquals(all.latencyStddevMs(), m.latencyStddevMs(), 1e-9);
    CommandStats c = m.commands().get(0);
    assertEquals(5, c.count());
    assertEquals(2, c.failures());
    assertEquals(4, c.retries());
    assertEquals(7.2, c.avgMs(), 1e-12);
    // population stddev of 1, 2, 3, 10, 20
    assertEquals(Math.sqrt((1 + 4 + 9 + 100 + 400) / 5.0 - 7.2 * 7.2), c.stddevMs(), 1e-9);
  }

  private static CommandStats step(int line, String name, long... micros) {
    return step(line, name, null, micros);
  }

  private static CommandStats step(
      int line, String name, dev.wg1bench.workload.StepCounts whole, long... micros) {
    org.HdrHistogram.Histogram h = new org.HdrHistogram.Histogram(3);
    double total = 0;
    double squares = 0;
    for (long us : micros) {
      h.recordValue(us);
      total += us / 1000.0;
      squares += (us / 1000.0) * (us / 1000.0);
    }
    return CommandStats.of(
        1,
        line,
        "step " + line,
        name,
        true,
        new CommandStats.Sums(micros.length, total, squares, 1, 0, 0, h, whole));
  }

  private static ScriptStats steps(CommandStats... steps) {
    return new ScriptStats(
        1, "acme.Orders", 1, 3, 0, 0, 0, 0, 0, ScriptStats.Times.of(0, 0, 0), List.of(steps));
  }

  /** Agents' and forks' whole-trial counts of a step add up as its windows' figures do. */
  @Test
  void aStepsWholeTrialCountsAddUpAcrossParts() {
    var w = new dev.wg1bench.workload.StepCounts(10, 1, 2, 3);
    ScriptStats a = steps(step(1, "new_order", w, 1000));
    ScriptStats b =
        steps(step(1, "new_order", new dev.wg1bench.workload.StepCounts(5, 0, 1, 0), 2000));
    ScriptStats c = steps(step(1, "new_order", 3000));
    CommandStats m =
        ScriptStats.merge(List.of(List.of(a), List.of(b), List.of(c)), 1).get(0).commands().get(0);
    assertEquals(new dev.wg1bench.workload.StepCounts(15, 1, 3, 3), m.wholeTrial());
    assertEquals(3, m.count());
  }

  @Test
  void stepsMergeByNameWithTheirHistogramsWhateverOrderEachPartRanThemIn() {
    // one agent ran "load" first, the other "save" first, and only the second ran "audit"
    ScriptStats a = steps(step(1, "load", 1000, 3000), step(2, "save", 10_000));
    ScriptStats b =
        steps(step(1, "save", 20_000, 30_000), step(2, "load", 2000), step(3, "audit", 500));
    List<CommandStats> m = ScriptStats.merge(List.of(List.of(a), List.of(b)), 1).get(0).commands();
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
  void nothingToMergeIsNull() {
    assertNull(ScriptStats.merge(Arrays.asList(null, null), 1));
    assertNull(ScriptStats.Times.of(0, 0, 0).latencyMeanMs());
  }
}
