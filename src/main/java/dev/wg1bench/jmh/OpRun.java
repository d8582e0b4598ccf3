package dev.wg1bench.jmh;

import dev.wg1bench.workload.ErrorSamples;
import dev.wg1bench.workload.OpCounts;

/**
 * The op a client is running, from its intended start to its outcome: what the steps of {@link
 * WorkloadBenchmark}'s op hand each other. One per client, reused by every op, so an op allocates
 * nothing for its bookkeeping.
 */
final class OpRun {
  /**
   * The op's counts, the one value its outcome is recorded in, once: cleared as it begins, filled
   * by its session as it runs (statements, retries, its commands' or steps' parts) and by {@link
   * #end}, then added whole by OpPath to each value that holds it (the client's window and whole
   * trial) by {@link OpCounts#add}. Its parts are made on the first ops and kept, as are its
   * targets' (see OpCounts#clear), so an op allocates nothing.
   */
  final OpCounts counts = new OpCounts();

  /**
   * When the op was meant to start (System.nanoTime): its scheduled time under --rate, else now.
   */
  long intended;

  /** Under --rate, how late it started after its schedule; -1 without --rate. */
  long lagNanos;

  /** With a pool, how long the lease took; -1 without a pool or when it gave no connection. */
  long waitNanos;

  /** False when the client had no connection to run it on (never connected, or lost). */
  boolean connected;

  /** Whether a script ran (false when there was no connection). */
  boolean ran;

  boolean success;

  /** When it completed (System.nanoTime), and its latency from the intended start. */
  long done;

  long latencyNanos;

  void begin(long intended, long lagNanos) {
    this.intended = intended;
    this.lagNanos = lagNanos;
    waitNanos = -1;
    counts.clear();
    connected = true;
    ran = false;
    success = false;
  }

  /**
   * The op ended at {@code done}: its outcome joins its counts, which are then whole: one success
   * with its latency, or one failure of the kind it failed as (the last one {@code errors} noted
   * when the path that failed it named none); a retried op counted once among those retried, a
   * success over {@code latencyLimitNanos} as late.
   */
  void end(ErrorSamples errors, long done, long latencyLimitNanos) {
    this.done = done;
    latencyNanos = done - intended;
    OpCounts o = counts;
    if (success) {
      o.completed(latencyNanos);
      if (latencyNanos > latencyLimitNanos) {
        o.late++;
      }
    } else if (o.failed == 0) {
      // a path that failed the op without naming a kind again: the kind it last failed as
      o.failed(errors.lastFailed.label());
    }
    if (o.retries > 0) {
      o.retriedAll++;
    }
  }
}
