package dev.wg1bench.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.wg1bench.stats.OpTime;
import java.time.Duration;
import java.util.List;

/**
 * How long and how a run is measured and paced.
 *
 * @param warmup total warmup time (one JMH warmup iteration), zero for none
 * @param duration total measured time, split into {@code iterations} JMH iterations
 * @param iterations JMH measurement iterations (3 or more for an error estimate)
 * @param forks JMH forks; 0 runs in this JVM (tests), 1 or more in fresh JVMs
 * @param progress interval of progress lines (pgbench -P), or null for none
 * @param rate target ops per second over all clients, Poisson arrivals (pgbench -R), or null
 * @param latencyLimit ops later than this are counted late, and under --rate skipped when they
 *     cannot start in time (pgbench -L), or null
 * @param transactions ops per client (pgbench -t) instead of a duration, or null: then one JMH
 *     single-shot iteration of that many ops per client, measured from the moment every client is
 *     connected until the last one finished; duration and iterations do not apply
 * @param log pgbench's -l log files, or null
 * @param perCommand per-statement latency, failures and retries (pgbench -r): each client times
 *     every command of its scripts; off, nothing is added per op
 * @param predictRttsMs the round-trip times, in ms, a trial's mean latency and throughput are
 *     predicted at (--predict-rtt; the result's {@code prediction[]}); null for stats.OpTime's
 *     default (0.5, 1 and 2 ms)
 */
public record Timing(
    Duration warmup,
    Duration duration,
    int iterations,
    int forks,
    Duration progress,
    Double rate,
    Duration latencyLimit,
    Long transactions,
    TxLogSpec log,
    boolean perCommand,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<Double> predictRttsMs) {

  /** Timing that predicts at the default round-trip times. */
  public Timing(
      Duration warmup,
      Duration duration,
      int iterations,
      int forks,
      Duration progress,
      Double rate,
      Duration latencyLimit,
      Long transactions,
      TxLogSpec log,
      boolean perCommand) {
    this(
        warmup,
        duration,
        iterations,
        forks,
        progress,
        rate,
        latencyLimit,
        transactions,
        log,
        perCommand,
        null);
  }

  /** The round-trip times a trial is predicted at, in ms: --predict-rtt's, else the default. */
  public List<Double> predictAtMs() {
    return predictRttsMs != null ? predictRttsMs : OpTime.DEFAULT_RTTS_MS;
  }

  /** Whether the run counts ops per client (pgbench -t) rather than time. */
  public boolean countsOps() {
    return transactions != null;
  }

  /** Measured time of one JMH iteration. */
  public Duration iterationTime() {
    return duration.dividedBy(iterations);
  }

  void validate() {
    if (log != null) {
      log.validate();
    }
    if (transactions != null) {
      Checks.range("--transactions", transactions, 1, Integer.MAX_VALUE);
      if (iterations != 1 || !warmup.isZero()) {
        // one single-shot iteration: JMH cannot warm up by op count and measure by op count apart
        throw new UsageException(
            "--transactions runs one iteration without warmup, as pgbench -t; drop --warmup and"
                + " --iterations (or use --duration)");
      }
      if (forks > 1) {
        // each fork would run its own N ops per client: the run would not be clients x N
        throw new UsageException(
            "--transactions runs in one fork, as pgbench runs once; give --forks 0 or 1, got "
                + forks);
      }
    }
    Checks.range("--iterations", iterations, 1, 1000);
    Checks.range("--forks", forks, 0, 100);
    if (duration.isNegative() || duration.isZero()) {
      throw new UsageException("--duration must be > 0, got " + Durations.format(duration));
    }
    if (warmup.isNegative()) {
      throw new UsageException("--warmup must be >= 0, got " + Durations.format(warmup));
    }
    if (duration.toMillis() / iterations < 100) {
      throw new UsageException(
          "--duration "
              + Durations.format(duration)
              + " split into --iterations "
              + iterations
              + " gives iterations shorter than 100 ms; lengthen --duration or lower --iterations");
    }
    if (progress != null && progress.toMillis() < 100) {
      throw new UsageException(
          "--progress must be at least 100 ms, got " + Durations.format(progress));
    }
    if (latencyLimit != null && latencyLimit.toNanos() <= 0) {
      throw new UsageException(
          "--latency-limit must be > 0, got " + Durations.format(latencyLimit));
    }
  }
}
