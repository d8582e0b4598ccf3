package dev.wg1bench.workload;

import java.util.Arrays;
import java.util.List;

/**
 * Per-command latency, failures and retries of one client (pgbench -r), over the ops its caller
 * keeps. Commands of all scripts share flat arrays, preallocated once: recording a command is a few
 * array updates, with no allocation.
 *
 * <p>An op's figures wait in a pending set until the caller knows whether the op counts (it
 * completed inside a measurement window): {@link #commit()} adds them, {@link #discard()} drops
 * them, so per-command figures cover exactly the ops the headline counts. As in pgbench, a
 * command's latency is recorded each time it completes (retried executions included), a retry is
 * counted on the command whose error caused it, and a failed op's failure on the command that
 * failed last.
 */
public final class CommandTimes {
  private final int[] offset;

  /** Per script, the command of each step (see {@link ScriptOutline#commandOfStep()}). */
  private final int[][] commandOf;

  private final long[] count;
  private final long[] sumNanos;
  private final double[] sumSquares;
  private final long[] failures;
  private final long[] retries;
  private final long[] opCount;
  private final long[] opSumNanos;
  private final double[] opSumSquares;
  private final long[] opFailures;
  private final long[] opRetries;

  /** The script of the op in progress, -1 when none is pending. */
  private int opScript = -1;

  /** One slot per command of each script, in {@link ScriptOutline} order. */
  public CommandTimes(List<ScriptOutline> outline) {
    offset = new int[outline.size() + 1];
    commandOf = new int[outline.size()][];
    for (int s = 0; s < outline.size(); s++) {
      offset[s + 1] = offset[s] + outline.get(s).commands().size();
      commandOf[s] = outline.get(s).commandOfStep();
    }
    int n = offset[outline.size()];
    count = new long[n];
    sumNanos = new long[n];
    sumSquares = new double[n];
    failures = new long[n];
    retries = new long[n];
    opCount = new long[n];
    opSumNanos = new long[n];
    opSumSquares = new double[n];
    opFailures = new long[n];
    opRetries = new long[n];
  }

  /** An op of script {@code s} starts; whatever an earlier op left pending is dropped. */
  public void begin(int s) {
    discard();
    opScript = s;
  }

  /** The command step {@code i} of script {@code s} is (the first one, for a pipeline part). */
  public int command(int s, int i) {
    return commandOf[s][i];
  }

  /** Step {@code i} of script {@code s} completed in {@code nanos}. */
  public void completed(int s, int i, long nanos) {
    completedCommand(s, commandOf[s][i], nanos);
  }

  /** Command {@code c} of script {@code s} completed in {@code nanos}. */
  public void completedCommand(int s, int c, long nanos) {
    int k = offset[s] + c;
    opCount[k]++;
    opSumNanos[k] += nanos;
    opSumSquares[k] += (double) nanos * nanos;
  }

  /** Command {@code c} of script {@code s} failed and its op will be tried again. */
  public void retried(int s, int c) {
    opRetries[offset[s] + c]++;
  }

  /** Command {@code c} of script {@code s} failed and so did its op. */
  public void failed(int s, int c) {
    opFailures[offset[s] + c]++;
  }

  /** The pending op counts. */
  public void commit() {
    if (opScript < 0) {
      return;
    }
    for (int k = offset[opScript]; k < offset[opScript + 1]; k++) {
      count[k] += opCount[k];
      sumNanos[k] += opSumNanos[k];
      sumSquares[k] += opSumSquares[k];
      failures[k] += opFailures[k];
      retries[k] += opRetries[k];
    }
    discard();
  }

  /** The pending op does not count. */
  public void discard() {
    if (opScript < 0) {
      return;
    }
    for (int k = offset[opScript]; k < offset[opScript + 1]; k++) {
      opCount[k] = 0;
      opSumNanos[k] = 0;
      opSumSquares[k] = 0;
      opFailures[k] = 0;
      opRetries[k] = 0;
    }
    opScript = -1;
  }

  /** Forgets everything (a new iteration). */
  public void reset() {
    discard();
    Arrays.fill(count, 0);
    Arrays.fill(sumNanos, 0);
    Arrays.fill(sumSquares, 0);
    Arrays.fill(failures, 0);
    Arrays.fill(retries, 0);
  }

  /** Adds another client's committed figures (same outline) to these. */
  public void add(CommandTimes o) {
    for (int k = 0; k < count.length; k++) {
      count[k] += o.count[k];
      sumNanos[k] += o.sumNanos[k];
      sumSquares[k] += o.sumSquares[k];
      failures[k] += o.failures[k];
      retries[k] += o.retries[k];
    }
  }

  /** Figures of command {@code i} (an index into {@link ScriptOutline#commands()}). */
  public long count(int s, int i) {
    return count[offset[s] + i];
  }

  public long sumNanos(int s, int i) {
    return sumNanos[offset[s] + i];
  }

  public double sumSquares(int s, int i) {
    return sumSquares[offset[s] + i];
  }

  public long failures(int s, int i) {
    return failures[offset[s] + i];
  }

  public long retries(int s, int i) {
    return retries[offset[s] + i];
  }
}
