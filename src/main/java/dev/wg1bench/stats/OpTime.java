package dev.wg1bench.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Where an op's mean latency goes, and what it would be at another round-trip time: a pure function
 * of four figures of a trial (mean latency, server time per op, round trips per op, the round-trip
 * time it ran at) and, for throughput, the clients and the measured throughput.
 *
 * <p>The model: an op's latency is its server time (its statements' execution and planning), its
 * time on the wire (the round-trip time once per round trip: each one waits for the answer before
 * the next), and the rest (the client, the driver, the pool, the loopback's own few microseconds).
 * At another round-trip time only the wire term changes. It holds while the server time and the
 * rest do not depend on the round-trip time: not for ops that wait on each other's locks (a lock is
 * then held for the holder's round trips too, so the waits grow with the RTT), nor where the server
 * or the client is saturated (a queue forms, and the server time is no longer per op).
 *
 * <p>Throughput of a closed system (every client issues its next op when its last one is done) at a
 * fixed client count, by Little's law: {@code tps = clients / (latency + gap)}, where the gap is a
 * client's time between ops that the latency does not hold (its own loop, a pool's hand-over),
 * measured once as {@code clients / tps - latency} and kept as is.
 */
public final class OpTime {
  /** The round-trip times a prediction is made at when none are asked for, in ms. */
  public static final List<Double> DEFAULT_RTTS_MS = List.of(0.5, 1.0, 2.0);

  private OpTime() {}

  /**
   * One trial's mean op latency split into its parts, all in ms per op.
   *
   * @param latencyMs the measured mean latency
   * @param serverMs the statements' execution and planning time per op
   * @param wireMs the round-trip time set ({@code --rtt}) times the round trips per op
   * @param restMs what is left: client, driver, pool and the network's own round-trip time (it may
   *     be below zero where the server time holds waits a client does not see as latency, e.g.
   *     statements of ops that were not counted: kept as measured, never clamped)
   * @param roundTrips round trips per op
   * @param rttMs the round-trip time set for the trial
   */
  public record Split(
      double latencyMs,
      double serverMs,
      double wireMs,
      double restMs,
      double roundTrips,
      double rttMs) {}

  /**
   * The predicted mean latency and throughput at one round-trip time ({@code tps} null where a
   * cycle of no length leaves it undefined: results hold finite numbers only).
   */
  public record Prediction(double rttMs, double latencyMeanMs, Double tps) {}

  /**
   * The split of one trial's mean latency.
   *
   * @throws IllegalArgumentException for a negative or non-finite figure
   */
  public static Split split(
      double latencyMs, double serverMs, double roundTripsPerOp, double rttMs) {
    check("latency", latencyMs);
    check("server time", serverMs);
    check("round trips", roundTripsPerOp);
    check("round-trip time", rttMs);
    double wire = rttMs * roundTripsPerOp;
    return new Split(
        latencyMs, serverMs, wire, latencyMs - serverMs - wire, roundTripsPerOp, rttMs);
  }

  /** The mean latency at {@code rttMs}: only the wire term changes. */
  public static double latencyAt(Split s, double rttMs) {
    check("round-trip time", rttMs);
    return s.latencyMs() - s.wireMs() + rttMs * s.roundTrips();
  }

  /**
   * Predictions at each of {@code rttsMs}, for {@code clients} clients whose trial measured {@code
   * tps} (ops per second, the gap between ops taken from it; NaN or 0 for none: the gap is then
   * zero and the throughput is the bound clients / latency).
   */
  public static List<Prediction> predict(Split s, List<Double> rttsMs, int clients, double tps) {
    if (clients < 1) {
      throw new IllegalArgumentException("clients < 1: " + clients);
    }
    double gapMs = gapMs(s.latencyMs(), clients, tps);
    List<Prediction> out = new ArrayList<>(rttsMs.size());
    for (double rtt : rttsMs) {
      double latency = latencyAt(s, rtt);
      double cycle = latency + gapMs;
      out.add(new Prediction(rtt, latency, cycle > 0 ? (Double) (clients * 1000.0 / cycle) : null));
    }
    return out;
  }

  /**
   * A client's time between ops that its latency does not hold, from Little's law on what was
   * measured; zero when no throughput is given, and never below zero (a throughput above what the
   * latency allows is a window's edge effect, not a negative gap).
   */
  static double gapMs(double latencyMs, int clients, double tps) {
    if (!(tps > 0) || Double.isInfinite(tps)) {
      return 0;
    }
    return Math.max(0, clients * 1000.0 / tps - latencyMs);
  }

  private static void check(String what, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(what + " must be finite and >= 0, got " + v);
    }
  }
}
