package dev.wg1bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one count value: what a client records adds up by one {@code add} at every level, its parts
 * by name, so a sum of parts' figures is the figure of the sum however the parts were split.
 */
class OpCountsTest {
  /** A client's iteration: two scripts, one of them with a step that keeps a histogram. */
  private static OpCounts client(long seed) {
    OpCounts c = new OpCounts();
    for (int i = 0; i < 10 + seed; i++) {
      boolean ok = i % 4 != 0;
      long nanos = 1_000_000L * (i + seed);
      c.part(i % 2 == 0 ? "a.sql" : "b.sql").add(one(ok, nanos, i % 3));
      if (ok) {
        c.completed(nanos);
      } else {
        c.failed(i % 8 == 0 ? "serialization" : "other");
      }
      c.part("a.sql").timedPart("step " + (i % 2)).histogram.recordValue(nanos / 1000);
    }
    c.statements = 3 * seed;
    return c;
  }

  /** One op's own counts, as a client's op path leaves them (see OpRunTest). */
  private static OpCounts one(boolean ok, long nanos, long retries) {
    OpCounts o = new OpCounts();
    if (ok) {
      o.completed(nanos);
      o.retriedOps = retries > 0 ? 1 : 0;
    } else {
      o.failed("other");
    }
    o.retries = retries;
    o.retriedAll = retries > 0 ? 1 : 0;
    return o;
  }

  @Test
  void addMergesCountsSumsHistogramsAndPartsByName() {
    OpCounts x = client(1);
    OpCounts y = client(2);
    OpCounts sum = x.copy().add(y);
    assertEquals(x.ok + y.ok, sum.ok);
    assertEquals(x.failed + y.failed, sum.failed);
    assertEquals(x.statements + y.statements, sum.statements);
    assertEquals(x.latencyNanos + y.latencyNanos, sum.latencyNanos);
    assertEquals(x.latencySquares + y.latencySquares, sum.latencySquares);
    assertEquals(
        x.failures.get("other") + y.failures.get("other"), (long) sum.failures.get("other"));
    assertEquals(List.of("a.sql", "b.sql"), List.copyOf(sum.parts.keySet()));
    for (String s : List.of("a.sql", "b.sql")) {
      OpCounts p = sum.parts.get(s);
      OpCounts px = x.parts.get(s);
      OpCounts py = y.parts.get(s);
      assertEquals(px.ok + py.ok, p.ok, s);
      assertEquals(px.failed + py.failed, p.failed, s);
      assertEquals(px.retries + py.retries, p.retries, s);
      assertEquals(px.retriedOps + py.retriedOps, p.retriedOps, s);
      assertEquals(px.retriedAll + py.retriedAll, p.retriedAll, s);
      assertEquals(px.latencyNanos + py.latencyNanos, p.latencyNanos, s);
    }
    OpCounts step = sum.parts.get("a.sql").parts.get("step 1");
    assertEquals(
        x.parts.get("a.sql").parts.get("step 1").histogram.getTotalCount()
            + y.parts.get("a.sql").parts.get("step 1").histogram.getTotalCount(),
        step.histogram.getTotalCount());
    // the sum does not depend on the order the parts come in
    OpCounts other = y.copy().add(x);
    assertEquals(sum.ok, other.ok);
    assertEquals(Map.copyOf(sum.failures), Map.copyOf(other.failures));
    assertEquals(
        sum.parts.get("b.sql").latencySquares, other.parts.get("b.sql").latencySquares, 1e-3);
  }

  @Test
  void opsAddUpWithTheirRetries() {
    OpCounts c = new OpCounts();
    c.add(one(true, 5, 2)).add(one(false, 7, 1)).add(one(true, 3, 0));
    assertEquals(2, c.ok);
    assertEquals(1, c.failed);
    assertEquals(3, c.retries);
    assertEquals(1, c.retriedOps);
    assertEquals(2, c.retriedAll, "retried at least once, the failed op included");
    assertEquals(8, c.latencyNanos, "the successful ops' latency only");
    assertEquals(34.0, c.latencySquares);
  }

  @Test
  void clearZeroesEverythingButKeepsThePartsForReuse() {
    OpCounts c = client(3);
    OpCounts a = c.parts.get("a.sql");
    OpCounts step = a.parts.get("step 0");
    c.clear();
    assertSame(a, c.part("a.sql"), "a client's references to its parts stay valid");
    assertSame(step, a.part("step 0"));
    assertEquals(0, c.ok + c.failed + c.statements + c.latencyNanos);
    assertEquals(0, a.ok + a.failed + a.retries + a.retriedAll);
    assertEquals(0, step.histogram.getTotalCount());
    assertEquals(Map.of(), c.failures);
    assertNull(c.histogram);
    assertEquals(0, c.partOrEmpty("none").ok);
  }
}
