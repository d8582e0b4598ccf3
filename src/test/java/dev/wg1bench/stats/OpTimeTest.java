package dev.wg1bench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The split of an op's latency and the prediction at other round-trip times, by hand. */
class OpTimeTest {
  private static final double EPS = 1e-9;

  @Test
  void theSplitChargesTheRttOncePerRoundTrip() {
    // ten lookups at --rtt 2ms: 10 round trips, 0.2 ms of server time, 21.0 ms in all
    OpTime.Split s = OpTime.split(21.0, 0.2, 10, 2.0);
    assertEquals(20.0, s.wireMs(), EPS);
    assertEquals(0.8, s.restMs(), EPS);
    assertEquals(s.latencyMs(), s.serverMs() + s.wireMs() + s.restMs(), EPS);
  }

  @Test
  void onlyTheWireTermChangesWithTheRtt() {
    OpTime.Split nPlusOne = OpTime.split(1.0, 0.2, 10, 0);
    OpTime.Split oneQuery = OpTime.split(0.3, 0.15, 1, 0);
    assertEquals(1.0 + 10 * 2.0, OpTime.latencyAt(nPlusOne, 2.0), EPS);
    assertEquals(0.3 + 2.0, OpTime.latencyAt(oneQuery, 2.0), EPS);
    // and back: measured at 2 ms, predicted at 0.5 ms
    OpTime.Split at2 = OpTime.split(21.0, 0.2, 10, 2.0);
    assertEquals(1.0 + 10 * 0.5, OpTime.latencyAt(at2, 0.5), EPS);
    assertEquals(1.0, OpTime.latencyAt(at2, 0), EPS);
  }

  @Test
  void throughputIsClientsOverLatencyPlusTheMeasuredGap() {
    OpTime.Split s = OpTime.split(1.0, 0.2, 10, 0);
    // 4 clients measured at 3200 ops/s: each spends 1.25 ms a cycle, 0.25 ms of it between ops
    List<OpTime.Prediction> p = OpTime.predict(s, OpTime.DEFAULT_RTTS_MS, 4, 3200);
    assertEquals(List.of(0.5, 1.0, 2.0), p.stream().map(OpTime.Prediction::rttMs).toList());
    assertEquals(6.0, p.get(0).latencyMeanMs(), EPS);
    assertEquals(4 * 1000.0 / 6.25, p.get(0).tps(), EPS);
    assertEquals(21.0, p.get(2).latencyMeanMs(), EPS);
    assertEquals(4 * 1000.0 / 21.25, p.get(2).tps(), EPS);
    // with no throughput given, the bound clients / latency
    assertEquals(4 * 1000.0 / 21.0, OpTime.predict(s, List.of(2.0), 4, Double.NaN).get(0).tps());
  }

  @Test
  void aThroughputAboveWhatTheLatencyAllowsGivesNoNegativeGap() {
    assertEquals(0.0, OpTime.gapMs(1.0, 4, 5000), EPS);
    assertEquals(0.25, OpTime.gapMs(1.0, 4, 3200), EPS);
    assertEquals(0.0, OpTime.gapMs(1.0, 4, 0), EPS);
  }

  @Test
  void aCycleOfNoLengthHasNoThroughput() {
    assertNull(OpTime.predict(OpTime.split(0, 0, 0, 0), List.of(1.0), 1, Double.NaN).get(0).tps());
  }

  @Test
  void aRestBelowZeroIsKeptAsMeasured() {
    assertEquals(-0.5, OpTime.split(1.0, 1.5, 0, 0).restMs(), EPS);
  }

  @Test
  void badFiguresAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> OpTime.split(-1, 0, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> OpTime.split(1, Double.NaN, 1, 0));
    assertThrows(
        IllegalArgumentException.class, () -> OpTime.split(1, 0, 1, Double.POSITIVE_INFINITY));
    OpTime.Split s = OpTime.split(1, 0, 1, 0);
    assertThrows(IllegalArgumentException.class, () -> OpTime.predict(s, List.of(1.0), 0, 1));
    assertThrows(IllegalArgumentException.class, () -> OpTime.latencyAt(s, -1));
  }
}
