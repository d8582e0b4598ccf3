package dev.wg1bench.result;

import dev.wg1bench.stats.OpTime;
import java.util.List;

/**
 * A trial's mean latency and throughput predicted at other round-trip times (stats.OpTime), from
 * what it measured: its mean latency, its server time and round trips per op, the round-trip time
 * it ran at, its clients and its throughput. Null where a figure it needs is unknown (no server
 * time, no round trips counted, no latency). At {@code atMs}: --predict-rtt's times, or the
 * default.
 */
public final class Predictions {
  private Predictions() {}

  /**
   * Where a trial's mean op latency went, in ms (stats.OpTime's split): the server's time, the
   * wire's at the round-trip time it ran at ({@code rttMs} times the round trips per op), and the
   * rest (client, driver, pool; below zero where the server time holds waits the clients' latency
   * does not, kept as measured).
   */
  public record Split(
      double latencyMs, double serverMs, double wireMs, double restMs, double rttMs) {}

  /** The split of {@code t}'s mean latency; null where a figure it needs is unknown. */
  public static Split split(TrialResult t) {
    Measurement m = t.measurement();
    if (m == null
        || m.latencyMs() == null
        || m.perOp() == null
        || m.perOp().serverMs() == null
        || m.perOp().roundTrips() == null
        || t.client() == null) {
      return null;
    }
    try {
      OpTime.Split s =
          OpTime.split(
              m.latencyMs().mean(),
              m.perOp().serverMs(),
              m.perOp().roundTrips(),
              t.client().rttMs());
      return new Split(s.latencyMs(), s.serverMs(), s.wireMs(), s.restMs(), s.rttMs());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  static List<Prediction> of(
      Latency latency, PerOp perOp, double rttMs, int clients, double tps, List<Double> atMs) {
    if (latency == null
        || perOp == null
        || perOp.serverMs() == null
        || perOp.roundTrips() == null
        || clients < 1) {
      return null;
    }
    try {
      OpTime.Split s = OpTime.split(latency.mean(), perOp.serverMs(), perOp.roundTrips(), rttMs);
      return OpTime.predict(s, atMs, clients, tps).stream()
          .map(x -> new Prediction(x.rttMs(), x.latencyMeanMs(), x.tps()))
          .toList();
    } catch (IllegalArgumentException e) {
      // a figure out of range (NaN latency of no op): no prediction rather than a wrong one
      return null;
    }
  }
}
