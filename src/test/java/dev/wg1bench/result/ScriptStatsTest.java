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
    return CommandStats.of(1, 3, "a.sql:3", "SELECT 1;", ms.length, total, squares, 1, 2);
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

  @Test
  void nothingToMergeIsNull() {
    assertNull(ScriptStats.merge(Arrays.asList(null, null), 1));
    assertNull(ScriptStats.Times.of(0, 0, 0).latencyMeanMs());
  }
}
