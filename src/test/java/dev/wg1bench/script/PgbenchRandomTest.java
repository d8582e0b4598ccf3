package dev.wg1bench.script;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Distributions, bounds, parameter errors and state save/restore. */
class PgbenchRandomTest {
  private static final int N = 100_000;

  @Test
  void xoroshiroSeededBySplitmix() {
    // splitmix64(0) first outputs are well known: e220a8397b1dcdaf, 6e789e6aa1b965f4
    PgbenchRandom r = new PgbenchRandom(0);
    long[] st = r.saveState();
    assertEquals(0xe220a8397b1dcdafL, st[0]);
    assertEquals(0x6e789e6aa1b965f4L, st[1]);
    long s0 = st[0];
    assertEquals(Long.rotateLeft(s0 * 5, 7) * 9, r.nextLong());
    double d = r.nextDouble();
    assertTrue(d >= 0.0 && d < 1.0);
  }

  @Test
  void uniformBoundsAreInclusive() {
    PgbenchRandom r = new PgbenchRandom(1);
    int[] counts = new int[5];
    for (int i = 0; i < N; i++) {
      long v = r.uniform(10, 14);
      assertTrue(v >= 10 && v <= 14, "v=" + v);
      counts[(int) (v - 10)]++;
    }
    for (int c : counts) {
      assertTrue(Math.abs(c - N / 5) < N / 50, "count " + c); // roughly flat
    }
    assertEquals(7L, r.uniform(7, 7));
    for (int i = 0; i < 100; i++) {
      long big = r.uniform(-(1L << 61), 1L << 61);
      assertTrue(big >= -(1L << 61) && big <= 1L << 61);
    }
  }

  @Test
  void badBounds() {
    PgbenchRandom r = new PgbenchRandom(1);
    assertEquals(
        "empty range given to random",
        assertThrows(ScriptRuntimeException.class, () -> r.uniform(2, 1)).getMessage());
    assertEquals(
        "random range is too large",
        assertThrows(ScriptRuntimeException.class, () -> r.uniform(0, Long.MAX_VALUE))
            .getMessage());
    assertEquals(
        "gaussian parameter must be at least 2.000000 (not 1.000000)",
        assertThrows(ScriptRuntimeException.class, () -> r.gaussian(1, 10, 1.0)).getMessage());
    assertEquals(
        "exponential parameter must be greater than zero (not 0.000000)",
        assertThrows(ScriptRuntimeException.class, () -> r.exponential(1, 10, 0.0)).getMessage());
    assertEquals(
        "zipfian parameter must be in range [1.001, 1000] (not 1.000000)",
        assertThrows(ScriptRuntimeException.class, () -> r.zipfian(1, 10, 1.0)).getMessage());
  }

  @Test
  void errorsInScriptsAreLocated() throws Exception {
    CompiledScript cs =
        Script.parse("g.sql", "\\set a 1\n\\set g random_gaussian(1, 10, 1.5)\n")
            .compile(java.util.Set.of());
    EvalContext ctx = new EvalContext(new Object[cs.slotCount()], new PgbenchRandom(1), 0);
    ScriptRuntimeException e =
        assertThrows(ScriptRuntimeException.class, () -> ScriptTestSupport.runSets(cs, ctx));
    assertEquals(
        "g.sql:2: gaussian parameter must be at least 2.000000 (not 1.500000)", e.getMessage());
    assertEquals("g.sql", e.source());
  }

  @Test
  void gaussianIsCenteredAndBounded() {
    PgbenchRandom r = new PgbenchRandom(2);
    long sum = 0;
    int middle = 0;
    for (int i = 0; i < N; i++) {
      long v = r.gaussian(1, 100, 2.5);
      assertTrue(v >= 1 && v <= 100);
      sum += v;
      if (v > 25 && v <= 75) {
        middle++;
      }
    }
    double mean = (double) sum / N;
    assertTrue(Math.abs(mean - 50.5) < 1.0, "mean " + mean);
    // with parameter 2.5 about 79% of draws fall within one quarter of the range on each side
    assertTrue(middle > N * 0.75 && middle < N * 0.83, "middle " + middle);
  }

  @Test
  void exponentialFavoursMin() {
    PgbenchRandom r = new PgbenchRandom(3);
    int[] counts = new int[10];
    for (int i = 0; i < N; i++) {
      long v = r.exponential(1, 10, 1.0);
      assertTrue(v >= 1 && v <= 10);
      counts[(int) v - 1]++;
    }
    for (int i = 1; i < 10; i++) {
      assertTrue(counts[i - 1] > counts[i], "decreasing at " + i);
    }
    // P(first decile) = (1 - e^-0.1) / (1 - e^-1) ~ 0.1505
    assertEquals(0.1505, counts[0] / (double) N, 0.01);
  }

  @Test
  void zipfianFavoursMin() {
    PgbenchRandom r = new PgbenchRandom(4);
    int[] counts = new int[1000];
    for (int i = 0; i < N; i++) {
      long v = r.zipfian(1, 1000, 1.5);
      assertTrue(v >= 1 && v <= 1000);
      counts[(int) v - 1]++;
    }
    for (int i = 1; i < counts.length; i++) {
      assertTrue(counts[0] > counts[i]);
    }
    // P(1) = 1 / H(1000, 1.5) ~ 1 / 2.55 ~ 0.39; P(2) / P(1) = 2^-1.5 ~ 0.354
    assertEquals(0.39, counts[0] / (double) N, 0.02);
    assertEquals(0.354, counts[1] / (double) counts[0], 0.03);
    assertEquals(5L, r.zipfian(5, 5, 2.0));
  }

  @Test
  void saveAndRestoreReplays() {
    PgbenchRandom r = new PgbenchRandom(99);
    r.uniform(1, 100);
    long[] saved = r.saveState();
    long[] first = new long[20];
    for (int i = 0; i < first.length; i++) {
      first[i] = i % 2 == 0 ? r.uniform(1, 1_000_000) : r.zipfian(1, 1000, 1.2);
    }
    r.restoreState(saved);
    long[] again = new long[20];
    for (int i = 0; i < again.length; i++) {
      again[i] = i % 2 == 0 ? r.uniform(1, 1_000_000) : r.zipfian(1, 1000, 1.2);
    }
    assertArrayEquals(first, again);

    long[] buf = new long[2];
    r.saveState(buf);
    long x = r.nextLong();
    r.restoreState(buf);
    assertEquals(x, r.nextLong());

    assertEquals(new PgbenchRandom(5).nextLong(), new PgbenchRandom(5).nextLong());
    assertNotEquals(new PgbenchRandom(5).nextLong(), new PgbenchRandom(6).nextLong());
  }
}
