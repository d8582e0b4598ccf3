package dev.wg1bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Under --rate, a think time that ends after the next arrival moves the schedule to its end (never
 * counted as lag); one that ends before it changes nothing; the gaps keep the mean interval.
 */
class ArrivalsTest {
  static final long MS = 1_000_000L;

  @Test
  void theFirstArrivalIsNowAndTheGapsHaveTheMeanInterval() {
    Arrivals a = new Arrivals(7);
    long first = a.next(10 * MS, 0, 1_000 * MS);
    assertEquals(1_000 * MS, first);
    long last = first;
    int n = 100_000;
    for (int i = 0; i < n; i++) {
      long t = a.next(10 * MS, 0, 0);
      assertTrue(t >= last, "arrivals never go back");
      last = t;
    }
    double mean = (last - first) / (double) n;
    // exponential gaps: the mean of 100,000 is within 2% of 10 ms (its standard error is 0.3%)
    assertEquals(10 * MS, mean, 0.02 * 10 * MS);
  }

  @Test
  void aThinkTimeEndingAfterTheNextArrivalMovesTheScheduleToItsEnd() {
    Arrivals a = new Arrivals(7);
    Arrivals same = new Arrivals(7);
    long start = a.next(10 * MS, 0, 0);
    same.next(10 * MS, 0, 0);
    long scheduled = same.next(10 * MS, 0, 0);
    long ready = scheduled + 500 * MS;
    assertEquals(ready, a.next(10 * MS, ready, 0), "the user arrives when the thinking ends");
    long after = a.next(10 * MS, 0, 0);
    assertTrue(after > ready, "the schedule resumes from the end of the think time");
    assertTrue(start < scheduled);
  }

  @Test
  void aThinkTimeEndingBeforeTheNextArrivalLeavesTheSchedule() {
    Arrivals a = new Arrivals(11);
    Arrivals same = new Arrivals(11);
    a.next(10 * MS, 0, 0);
    same.next(10 * MS, 0, 0);
    long scheduled = same.next(10 * MS, 0, 0);
    assertEquals(scheduled, a.next(10 * MS, scheduled - 1, 0));
    assertEquals(same.next(10 * MS, 0, 0), a.next(10 * MS, 0, 0));
  }
}
