package dev.wg1bench.jmh;

import dev.wg1bench.workload.OpStats;

/**
 * The op a client is running, from its intended start to its outcome: what the steps of {@link
 * WorkloadBenchmark}'s op hand each other. One per client, reused by every op, so an op allocates
 * nothing for its bookkeeping.
 */
final class OpRun {
  /**
   * When the op was meant to start (System.nanoTime): its scheduled time under --rate, else now.
   */
  long intended;

  /** Under --rate, how late it started after its schedule; -1 without --rate. */
  long lagNanos;

  /** With a pool, how long the lease took; -1 without a pool or when it gave no connection. */
  long waitNanos;

  /** The client's counts as the op began, to tell the op's own share. */
  long statementsBefore;

  long retriesBefore;
  long retriedOpsBefore;

  /** False when the client had no connection to run it on (never connected, or lost). */
  boolean connected;

  /** Whether a script ran (false when there was no connection). */
  boolean ran;

  boolean success;

  /** When it completed (System.nanoTime), and its latency from the intended start. */
  long done;

  long latencyNanos;

  /** Its retries, and 1 when it needed any (its share of the client's retried ops), else 0. */
  long retried;

  long retriedOp;

  void begin(OpStats s, long intended, long lagNanos) {
    this.intended = intended;
    this.lagNanos = lagNanos;
    waitNanos = -1;
    statementsBefore = s.statements;
    retriesBefore = s.retries;
    retriedOpsBefore = s.retriedOps;
    connected = true;
    ran = false;
    success = false;
  }

  void end(OpStats s, long done) {
    this.done = done;
    latencyNanos = done - intended;
    retried = s.retries - retriesBefore;
    retriedOp = s.retriedOps - retriedOpsBefore;
  }

  /** Statements the op sent, BEGIN and END included. */
  long statements(OpStats s) {
    return s.statements - statementsBefore;
  }
}
