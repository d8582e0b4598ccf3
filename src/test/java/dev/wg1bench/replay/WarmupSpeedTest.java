package dev.wg1bench.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The warm-up's later half: at the trial's speed, or at half the rate reached at --speed max. */
class WarmupSpeedTest {
  @Test
  void aPacedLogIsWarmedAtHalfTheRateReachedAtMax() {
    // pgbench -R 200 at 64 clients: 1,300 statements/s; the first half sent 8,000/s at max
    double later = ReplayTrials.laterSpeed(1, 1300, 8000);
    assertEquals(4000, 1300 * later, 1e-6, "the later half sends half of the max rate");
    // a trial at speed 2 of a 1,000/s log: 2,000/s, raised to 5,000/s
    assertEquals(5, ReplayTrials.laterSpeed(2, 1000, 10_000), 1e-9);
  }

  @Test
  void aLogFastEnoughAtTheTrialsSpeedKeepsIt() {
    // unpaced: the log at speed 1 is already over half of what max reached
    assertEquals(1, ReplayTrials.laterSpeed(1, 10_000, 14_000));
    assertEquals(1, ReplayTrials.laterSpeed(1, 7_000, 14_000), "exactly half: kept");
    assertEquals(0.5, ReplayTrials.laterSpeed(0.5, 10_000, 9_000));
  }

  @Test
  void maxStaysMaxAndAnUnknownRateChangesNothing() {
    assertEquals(0, ReplayTrials.laterSpeed(0, 1300, 8000), "--speed max: the later half too");
    assertEquals(1, ReplayTrials.laterSpeed(1, 0, 8000), "a log without a span");
    assertEquals(1, ReplayTrials.laterSpeed(1, 1300, 0), "no statement sent at max");
  }
}
