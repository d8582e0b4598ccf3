package dev.wg1bench.jmh;

/**
 * Per-script counts of the ops a client completed inside the measurement windows: what pgbench
 * prints for each script of a weighted mix. Plain arrays indexed by script, updated once per op.
 */
final class ScriptTally {
  final long[] ok;
  final long[] failed;
  final long[] retries;
  final long[] retriedOps;

  /** Ops retried at least once, failed ones included (pgbench's "transactions retried"). */
  final long[] retriedAll;

  /** Latency of the successful ops, as the headline measures it. */
  final long[] latencyNanos;

  final double[] latencySquares;

  ScriptTally(int scripts) {
    ok = new long[scripts];
    failed = new long[scripts];
    retries = new long[scripts];
    retriedOps = new long[scripts];
    retriedAll = new long[scripts];
    latencyNanos = new long[scripts];
    latencySquares = new double[scripts];
  }

  void op(int s, boolean success, long latency, long retried, long retriedOp) {
    if (success) {
      ok[s]++;
      latencyNanos[s] += latency;
      latencySquares[s] += (double) latency * latency;
    } else {
      failed[s]++;
    }
    retries[s] += retried;
    retriedOps[s] += retriedOp;
    if (retried > 0) {
      retriedAll[s]++;
    }
  }

  void reset() {
    java.util.Arrays.fill(ok, 0);
    java.util.Arrays.fill(failed, 0);
    java.util.Arrays.fill(retries, 0);
    java.util.Arrays.fill(retriedOps, 0);
    java.util.Arrays.fill(retriedAll, 0);
    java.util.Arrays.fill(latencyNanos, 0);
    java.util.Arrays.fill(latencySquares, 0);
  }

  void add(ScriptTally o) {
    for (int s = 0; s < ok.length; s++) {
      ok[s] += o.ok[s];
      failed[s] += o.failed[s];
      retries[s] += o.retries[s];
      retriedOps[s] += o.retriedOps[s];
      retriedAll[s] += o.retriedAll[s];
      latencyNanos[s] += o.latencyNanos[s];
      latencySquares[s] += o.latencySquares[s];
    }
  }
}
