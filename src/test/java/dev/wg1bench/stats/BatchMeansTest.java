package dev.wg1bench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The tps interval: what it is over, when there is none, and that it covers as it claims. */
class BatchMeansTest {

  @Test
  void fewerThanFiveWholeSecondsGiveNoInterval() {
    BatchMeans.Interval i = BatchMeans.of(1000, List.of(1000L, 990L, 1010L, 1000L));
    assertNull(i.halfWidth());
    assertTrue(i.method().startsWith("run too short for an interval"), i.method());
  }

  @Test
  void tenBatchesOfTwoSecondsWithTheStudentQuantile() {
    List<Long> s = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      s.add(i % 2 == 0 ? 1000L : 1000L + (i % 4 == 1 ? 20 : -20));
    }
    BatchMeans.Interval i = BatchMeans.of(1000, s);
    assertEquals(10, i.batches());
    assertEquals(2, i.batchSeconds());
    // batch means alternate 1010, 990: sd = 10.54, t(0.975, 9) = 2.2622
    double sd = Math.sqrt(10 * 100.0 / 9);
    assertEquals(2.2622 * sd / Math.sqrt(10), i.halfWidth(), 1e-3);
    assertEquals("95% CI, batch means: 10 batches of 2 s", i.method());
  }

  @Test
  void anIntervalWiderThanHalfTheValueIsNotPrinted() {
    BatchMeans.Interval i =
        BatchMeans.of(100, List.of(10L, 300L, 5L, 200L, 0L, 250L, 20L, 150L, 40L, 25L));
    assertNull(i.halfWidth());
    assertTrue(
        i.method().startsWith("run too short for an interval: the 95% interval"), i.method());
  }

  @Test
  void correlatedSecondsGetFiveLongerBatches() {
    List<Long> s = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      // a slow drift: neighbouring seconds alike
      s.add(1000L + 10L * i);
    }
    BatchMeans.Interval i = BatchMeans.of(1200, s);
    assertEquals(5, i.batches());
    assertEquals(8, i.batchSeconds());
    assertTrue(i.lag1() > 0.8, "lag-1 " + i.lag1());
  }

  /**
   * Per-second throughput that wanders (AR(1): each second correlated with the one before, as
   * checkpoints and vacuums make it): over 2000 simulated runs the interval holds the true mean
   * close to 95% of the time up to a correlation of 0.5, and warns where it does not.
   */
  @Test
  void coversTheTrueMeanAboutNinetyFivePercentOfTheTime() {
    for (double phi : new double[] {0, 0.5}) {
      for (int seconds : new int[] {30, 60}) {
        double c = coverage(phi, seconds, new Random(12), null);
        assertTrue(c > 0.92 && c < 0.975, "coverage " + c + " at phi " + phi + ", " + seconds);
      }
    }
    int[] warned = new int[1];
    double c = coverage(0.8, 30, new Random(12), warned);
    assertTrue(c > 0.8 && c < 0.95, "coverage " + c);
    assertTrue(warned[0] > 1000, "most intervals over 30 strongly correlated seconds must warn");
    assertTrue(coverage(0.8, 60, new Random(12), null) > 0.89);
  }

  private static double coverage(double phi, int seconds, Random rnd, int[] warned) {
    int covered = 0;
    int given = 0;
    for (int r = 0; r < 2000; r++) {
      List<Long> s = new ArrayList<>();
      double e = rnd.nextGaussian() * 50 / Math.sqrt(1 - phi * phi);
      long sum = 0;
      for (int i = 0; i < seconds; i++) {
        e = phi * e + rnd.nextGaussian() * 50;
        long v = Math.round(1000 + e);
        s.add(v);
        sum += v;
      }
      double tps = (double) sum / seconds;
      BatchMeans.Interval i = BatchMeans.of(tps, s);
      assertTrue(i.halfWidth() != null, i.method());
      given++;
      if (Math.abs(tps - 1000) <= i.halfWidth()) {
        covered++;
      }
      if (warned != null && i.method().contains("may be too narrow")) {
        warned[0]++;
      }
    }
    return (double) covered / given;
  }
}
