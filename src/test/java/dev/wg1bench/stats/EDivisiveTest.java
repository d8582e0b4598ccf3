package dev.wg1bench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** E-Divisive means on series made by hand: where a change point is, and where none is. */
class EDivisiveTest {

  private static double[] noise(long seed, int n, double mean, double sd) {
    Random r = new Random(seed);
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = mean + sd * r.nextGaussian();
    }
    return x;
  }

  private static double[] concat(double[] a, double[] b) {
    double[] x = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, x, a.length, b.length);
    return x;
  }

  private static List<Integer> indexes(List<EDivisive.ChangePoint> cps) {
    return cps.stream().map(EDivisive.ChangePoint::index).toList();
  }

  @Test
  void aCleanStepIsFoundAtItsFirstPointWithItsSign() {
    double[] x = concat(noise(1, 20, 1000, 10), noise(2, 20, 900, 10));
    List<EDivisive.ChangePoint> cps = EDivisive.changePoints(x, EDivisive.Settings.OTAVA);
    assertEquals(List.of(20), indexes(cps));
    SegmentSignificance.Outcome t = cps.get(0).test();
    assertTrue(t.meanAfter() < t.meanBefore(), t.toString());
    assertEquals(-0.1, t.meanAfter() / t.meanBefore() - 1, 0.02);
    assertTrue(t.p() < 0.001, t.toString());
  }

  @Test
  void aStepUpIsFoundToo() {
    double[] x = concat(noise(3, 6, 100, 2), noise(4, 8, 150, 2));
    List<EDivisive.ChangePoint> cps = EDivisive.changePoints(x, EDivisive.Settings.OTAVA);
    assertEquals(List.of(6), indexes(cps));
    assertTrue(cps.get(0).test().meanAfter() > cps.get(0).test().meanBefore());
  }

  @Test
  void aSingleSpikeIsNotAChangePointWithAMinimumSegmentOfTwo() {
    double[] x = noise(5, 40, 100, 1);
    x[35] = 140;
    // Otava's behaviour (segments of one run allowed) cuts the spike out as two change points
    assertEquals(List.of(35, 36), indexes(EDivisive.changePoints(x, EDivisive.Settings.OTAVA)));
    EDivisive.Settings two = new EDivisive.Settings(50, 0.001, 0, 2);
    assertEquals(List.of(), indexes(EDivisive.changePoints(x, two)));
  }

  @Test
  void everySegmentHasAtLeastTheMinimumLength() {
    double[] x = concat(noise(6, 30, 100, 5), noise(7, 30, 90, 5));
    for (int min = 1; min <= 5; min++) {
      EDivisive.Settings s = new EDivisive.Settings(20, 0.2, 0, min);
      List<Integer> cps = indexes(EDivisive.changePoints(x, s));
      int prev = 0;
      for (int c : cps) {
        assertTrue(c - prev >= min, "min " + min + ": " + cps);
        prev = c;
      }
      assertTrue(x.length - prev >= min, "min " + min + ": " + cps);
    }
  }

  @Test
  void pureNoiseHasNoChangePointAtTheDefaultLevel() {
    assertEquals(
        List.of(),
        indexes(EDivisive.changePoints(noise(10, 100, 1000, 20), EDivisive.Settings.OTAVA)));
  }

  /**
   * Not a guarantee: the t-test runs on the split that maximized the divergence, so p is not the
   * chance of a false change point per series. Measured on this seeded set: 13 of 200 (6.5%)
   * pure-noise series of 100 points get one at p = 0.001 (docs/guides/history.md has more); this
   * keeps the method from growing worse unnoticed.
   */
  @Test
  void pureNoiseRarelyHasAChangePointAtTheDefaultLevel() {
    int with = 0;
    for (long seed = 0; seed < 200; seed++) {
      if (!EDivisive.changePoints(noise(1000 + seed, 100, 1000, 20), EDivisive.Settings.OTAVA)
          .isEmpty()) {
        with++;
      }
    }
    assertTrue(with <= 16, with + " of 200 noise series with a change point");
  }

  @Test
  void sameInputSameOutputEveryTime() {
    double[] x = concat(concat(noise(8, 50, 100, 3), noise(9, 70, 110, 3)), noise(10, 40, 95, 3));
    List<EDivisive.ChangePoint> first = EDivisive.changePoints(x, EDivisive.Settings.OTAVA);
    assertTrue(indexes(first).containsAll(List.of(50, 120)), indexes(first).toString());
    for (int i = 0; i < 20; i++) {
      assertEquals(first, EDivisive.changePoints(x.clone(), EDivisive.Settings.OTAVA));
    }
  }

  @Test
  void aSeriesShorterThanTheWindowIsOneWindow() {
    double[] x = concat(noise(11, 5, 50, 0.5), noise(12, 5, 60, 0.5));
    assertEquals(List.of(5), indexes(EDivisive.changePoints(x, EDivisive.Settings.OTAVA)));
  }

  @Test
  void magnitudeDropsSmallChanges() {
    double[] x = concat(noise(13, 40, 1000, 2), noise(14, 40, 1020, 2));
    assertEquals(List.of(40), indexes(EDivisive.changePoints(x, EDivisive.Settings.OTAVA)));
    EDivisive.Settings fivePercent = new EDivisive.Settings(50, 0.001, 0.05, 1);
    assertEquals(List.of(), indexes(EDivisive.changePoints(x, fivePercent)));
  }

  @Test
  void ownIntervalsOnlyRaiseP() {
    double[] x = concat(noise(15, 10, 100, 1), noise(16, 10, 103, 1));
    double[] quiet = new double[x.length];
    double[] loud = new double[x.length];
    java.util.Arrays.fill(quiet, 0.01);
    java.util.Arrays.fill(loud, 25);
    double plain = SegmentSignificance.compare(x, null, 0, 10, 20).p();
    assertEquals(plain, SegmentSignificance.compare(x, quiet, 0, 10, 20).p(), 1e-15);
    assertTrue(SegmentSignificance.compare(x, loud, 0, 10, 20).p() > plain);
    assertEquals(List.of(10), indexes(EDivisive.changePoints(x, EDivisive.Settings.OTAVA)));
    assertEquals(List.of(), indexes(EDivisive.changePoints(x, loud, EDivisive.Settings.OTAVA)));
  }

  @Test
  void settingsOutOfRangeAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new EDivisive.Settings(1, 0.001, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new EDivisive.Settings(50, 0, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new EDivisive.Settings(50, 1, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new EDivisive.Settings(50, 0.01, -1, 1));
    assertThrows(IllegalArgumentException.class, () -> new EDivisive.Settings(50, 0.01, 0, 0));
  }
}
