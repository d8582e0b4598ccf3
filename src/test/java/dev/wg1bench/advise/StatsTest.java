package dev.wg1bench.advise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StatsTest {
  @Test
  void ratioOfGeometricMeansWithAWelchInterval() {
    double[] b = {100, 110, 90, 105, 95};
    double[] t = {200, 220, 180, 210, 190};
    Stats.Interval i = Stats.ratio(b, t);
    assertEquals(2.0, i.ratio(), 1e-9);
    assertTrue(i.low() > 1.7 && i.low() < 2.0, "low " + i.low());
    assertTrue(i.high() > 2.0 && i.high() < 2.3, "high " + i.high());
    assertEquals("confirms", Adviser.verdict("higher", i));
    assertEquals("contradicts", Adviser.verdict("lower", i));
  }

  @Test
  void overlappingArmsAreNoSignificantDifference() {
    Stats.Interval i = Stats.ratio(new double[] {100, 130, 80}, new double[] {105, 70, 125});
    assertTrue(i.low() < 1 && i.high() > 1);
    assertEquals("no significant difference", Adviser.verdict("higher", i));
  }

  @Test
  void oneTrialGivesNoInterval() {
    Stats.Interval i = Stats.ratio(new double[] {100}, new double[] {120});
    assertEquals(1.2, i.ratio(), 1e-9);
    assertNull(i.low());
    assertTrue(Adviser.verdict("higher", i).startsWith("not enough trials"));
  }

  @Test
  void tQuantiles() {
    assertEquals(12.706, Stats.t975(1), 1e-9);
    assertEquals(2.776, Stats.t975(4), 1e-9);
    assertEquals(2.0, Stats.t975(120), 0.03);
  }
}
