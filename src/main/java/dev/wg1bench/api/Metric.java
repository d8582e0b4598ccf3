package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Locale;
import org.apiguardian.api.API;

/** What a {@link Comparison} judges "faster" on. Default: {@link #TPS}, as {@code advise}'s. */
@API(status = STABLE, since = "0.1")
public enum Metric {
  /** Successful ops per second: higher is faster. */
  TPS,
  /** The median latency of successful ops: lower is faster. */
  P50,
  /** The 99th percentile latency of successful ops: lower is faster. */
  P99;

  /** The name the result and the command line use: tps, p50 or p99. */
  String wire() {
    return name().toLowerCase(Locale.ROOT);
  }
}
