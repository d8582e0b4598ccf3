package dev.wg1bench.plan;

/**
 * pgbench's {@code -l}: a log file per client in pgbench's per-transaction format, or with {@code
 * --aggregate-interval} one line per interval in its aggregated format.
 *
 * @param base the first client's file (pgbench's {@code PREFIX.PID}), absolute; client N writes
 *     {@code base.N}, as pgbench's -j thread N does
 * @param aggregateSeconds interval of the aggregated format, or null for one line per op
 * @param samplingRate fraction of ops logged (pgbench --sampling-rate), or null for all
 * @param failuresDetailed a failed op's time reads serialization or deadlock, not failed
 */
public record TxLogSpec(
    String base, Integer aggregateSeconds, Double samplingRate, boolean failuresDetailed) {

  void validate() {
    if (aggregateSeconds != null) {
      Checks.range("--aggregate-interval", aggregateSeconds, 1, 86_400);
    }
    if (samplingRate != null && !(samplingRate > 0 && samplingRate <= 1)) {
      throw new UsageException(
          "--sampling-rate must be > 0 and <= 1 (a fraction of ops), got " + samplingRate);
    }
    if (samplingRate != null && aggregateSeconds != null) {
      throw new UsageException(
          "--sampling-rate and --aggregate-interval exclude each other, as in pgbench");
    }
  }
}
