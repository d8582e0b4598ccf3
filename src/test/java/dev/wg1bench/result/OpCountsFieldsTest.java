package dev.wg1bench.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.wg1bench.fork.ForkReport;
import dev.wg1bench.json.Json;
import dev.wg1bench.workload.OpCounts;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Every field of the count value, walked by reflection, so that a field added later cannot be
 * missed by the wire forms or the merges: each survives the fork's and the agent's JSON, {@code
 * add} sums it, {@code clear} zeroes it, and N forks' or N agents' counts merged equal one part
 * that counted the same ops.
 */
class OpCountsFieldsTest {
  private static final int N = 3;

  /**
   * The value's fields: every instance field, whatever its kind, but the recording's scratch
   * (transient: an op's raw step latencies, the parts as arrays), which {@link
   * #theOnlyFieldsLeftOutAreTheRecordingsScratch} names, so that a figure cannot hide among them.
   */
  private static List<Field> fields() {
    List<Field> out = new ArrayList<>();
    for (Field f : OpCounts.class.getDeclaredFields()) {
      if (!Modifier.isStatic(f.getModifiers()) && !Modifier.isTransient(f.getModifiers())) {
        f.setAccessible(true);
        out.add(f);
      }
    }
    return out;
  }

  @Test
  void theOnlyFieldsLeftOutAreTheRecordingsScratch() {
    List<String> scratch = new ArrayList<>();
    for (Field f : OpCounts.class.getDeclaredFields()) {
      if (!Modifier.isStatic(f.getModifiers()) && Modifier.isTransient(f.getModifiers())) {
        scratch.add(f.getName());
      }
    }
    assertEquals(
        List.of("keepsLatencies", "latencies", "kept", "partValues", "partNames"), scratch);
  }

  /** A value with every field set, to figures that follow from {@code k} (parts two deep). */
  private static OpCounts filled(int k, int depth) {
    OpCounts c = new OpCounts();
    int i = 1;
    try {
      for (Field f : fields()) {
        i++;
        Class<?> t = f.getType();
        if (t == long.class) {
          f.setLong(c, 1000L * k + i);
        } else if (t == double.class) {
          f.setDouble(c, 1e6 * k + i + 0.5);
        } else if (f.getName().equals("failures")) {
          c.failures.put("serialization", (long) k + i);
          c.failures.put("kind " + k, 1L);
        } else if (t == Histogram.class) {
          Histogram h = new Histogram(3);
          for (int v = 1; v <= 50; v++) {
            h.recordValue(100L * k + v * v);
          }
          f.set(c, h);
        } else if (f.getName().equals("parts")) {
          if (depth < 2) {
            c.parts.put("script", filled(k + 7, depth + 1));
            c.parts.put("step " + k, filled(k + 11, depth + 1));
          }
        } else {
          fail("OpCounts." + f.getName() + " (" + t + ") is a kind of field this test cannot fill");
        }
      }
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
    return c;
  }

  /** Field by field, parts by name, histograms by their counts: whether two values are equal. */
  private static void assertSame(OpCounts want, OpCounts got, String where) {
    try {
      for (Field f : fields()) {
        String at = where + "." + f.getName();
        Object a = f.get(want);
        Object b = f.get(got);
        if (f.getType() == double.class) {
          assertEquals((double) a, (double) b, Math.abs((double) a) * 1e-12, at);
        } else if (a instanceof Histogram h) {
          assertNotNull(b, at);
          assertEquals(h, b, at);
        } else if (f.getName().equals("parts")) {
          Map<?, ?> pa = (Map<?, ?>) a;
          Map<?, ?> pb = (Map<?, ?>) b;
          assertEquals(List.copyOf(pa.keySet()), List.copyOf(pb.keySet()), at);
          for (Object k : pa.keySet()) {
            assertSame((OpCounts) pa.get(k), (OpCounts) pb.get(k), at + "[" + k + "]");
          }
        } else {
          assertEquals(a, b, at);
        }
      }
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }

  private static OpCounts viaJson(OpCounts c) throws IOException {
    return Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(c), OpCounts.class);
  }

  /** The parts 1..N, and one part that counted all their ops: their sum by hand, field by field. */
  private static OpCounts sumByHand() {
    OpCounts sum = new OpCounts();
    try {
      for (int k = 1; k <= N; k++) {
        OpCounts p = filled(k, 0);
        sumInto(sum, p);
      }
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
    return sum;
  }

  private static void sumInto(OpCounts sum, OpCounts p) throws IllegalAccessException {
    for (Field f : fields()) {
      Class<?> t = f.getType();
      if (t == long.class) {
        f.setLong(sum, f.getLong(sum) + f.getLong(p));
      } else if (t == double.class) {
        f.setDouble(sum, f.getDouble(sum) + f.getDouble(p));
      } else if (f.getName().equals("failures")) {
        p.failures.forEach((k, v) -> sum.failures.merge(k, v, Long::sum));
      } else if (t == Histogram.class) {
        if (sum.histogram == null) {
          sum.histogram = new Histogram(3);
        }
        sum.histogram.add(p.histogram);
      } else if (f.getName().equals("parts")) {
        for (Map.Entry<String, OpCounts> e : p.parts.entrySet()) {
          sumInto(sum.part(e.getKey()), e.getValue());
        }
      }
    }
  }

  @Test
  void everyFieldIsFilledAndSurvivesTheWireForm() throws IOException {
    OpCounts c = filled(1, 0);
    for (Field f : fields()) {
      try {
        Object v = f.get(c);
        assertNotNull(v, f.getName());
        assertFalse(v.equals(0L) || v.equals(0.0), f.getName() + " left at 0");
      } catch (IllegalAccessException e) {
        throw new AssertionError(e);
      }
    }
    assertSame(c, viaJson(c), "json");
    assertSame(c, c.copy(), "copy");
  }

  @Test
  void addSumsEveryFieldAndClearZeroesIt() {
    OpCounts added = new OpCounts();
    for (int k = 1; k <= N; k++) {
      added.add(filled(k, 0));
    }
    assertSame(sumByHand(), added, "add");
    added.clear();
    assertSame(new OpCounts().add(emptyLike(added)), added, "clear");
  }

  /** A value with the same parts, every count zero (what clear keeps). */
  private static OpCounts emptyLike(OpCounts c) {
    OpCounts e = new OpCounts();
    if (c.histogram != null) {
      e.histogram = new Histogram(3);
    }
    c.parts.forEach((k, v) -> e.parts.put(k, emptyLike(v)));
    return e;
  }

  @Test
  void forksMergedEqualOneForkOfTheSameOps() throws IOException {
    Tally forks = Tally.empty();
    for (int k = 1; k <= N; k++) {
      forks.after(Tally.of(fork(filled(k, 0), filled(k + 100, 0))));
    }
    OpCounts wholeSum = new OpCounts();
    for (int k = 1; k <= N; k++) {
      wholeSum.add(filled(k + 100, 0));
    }
    Tally one = Tally.empty().after(Tally.of(fork(sumByHand(), wholeSum)));
    assertSame(one.measured(), forks.measured(), "forks measured");
    assertSame(one.whole(), forks.whole(), "forks whole");
    assertSame(sumByHand(), forks.measured(), "forks measured by hand");
  }

  /** A fork's report holding these counts, read back as the parent reads it. */
  private static ForkReport fork(OpCounts measured, OpCounts whole) throws IOException {
    ForkReport f = new ForkReport();
    f.measured = measured;
    f.whole = whole;
    return Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(f), ForkReport.class);
  }

  @Test
  void agentsMergedEqualOneAgentOfTheSameOps() throws IOException {
    List<AgentRun.Part> parts = new ArrayList<>();
    OpCounts wholeSum = new OpCounts();
    for (int k = 1; k <= N; k++) {
      parts.add(part(filled(k, 0), filled(k + 100, 0)));
      wholeSum.add(filled(k + 100, 0));
    }
    Tally agents = Tally.empty();
    for (AgentRun.Part p : parts) {
      agents.count(p.measured(), p.whole());
    }
    AgentRun.Part all = part(sumByHand(), wholeSum);
    Tally one = Tally.empty().count(all.measured(), all.whole());
    assertSame(one.measured(), agents.measured(), "agents measured");
    assertSame(one.whole(), agents.whole(), "agents whole");
    assertSame(sumByHand(), agents.measured(), "agents measured by hand");
    // and every view of them: the figures a merged result shows are one agent's
    List<ForkReport.Script> outline = List.of(new ForkReport.Script("script", 1, null));
    assertEquals(
        ScriptStats.of(outline, false, one.measured(), one.whole(), 10),
        ScriptStats.of(outline, false, agents.measured(), agents.whole(), 10));
    assertEquals(one.counts(10, null, true), agents.counts(10, null, true));
    assertEquals(one.wholeTrial(), agents.wholeTrial());
    assertEquals(one.latency(), agents.latency());
    assertTrue(agents.measured().ok > 0);
  }

  /** An agent's part of a trial holding these counts, read back as merge reads it. */
  private static AgentRun.Part part(OpCounts measured, OpCounts whole) throws IOException {
    AgentRun.Part p =
        new AgentRun.Part(1, Map.of(), 1, null, null, null, 0, 0, null, null, measured, whole);
    return Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(p), AgentRun.Part.class);
  }
}
