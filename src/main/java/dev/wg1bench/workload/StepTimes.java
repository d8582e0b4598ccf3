package dev.wg1bench.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-step latency, failures and retries of one client's op in progress, for a workload class's
 * ops, the steps named by the op itself ({@code op.step("load order", ...)}): pgbench -r's
 * per-statement figures for code that is not a script. Steps are numbered in the order this client
 * first ran them.
 *
 * <p>As {@link CommandTimes}: an op's figures wait until the caller knows whether the op counts (it
 * completed inside a measurement window): {@link #commit} adds them to the class's {@link OpCounts}
 * part, one part per step (by name, with a histogram of its latencies in µs, which adds up across
 * clients, forks and agents as the headline's does), {@link #discard()} drops them. A step's
 * latency is recorded each time it completes (a retried op's earlier attempts included), a retry is
 * counted on the step whose exception caused it, and a failed op's failure on the step it failed
 * in.
 */
public final class StepTimes {
  private final Map<String, Integer> index = new HashMap<>();
  private final List<String> names = new ArrayList<>();

  // the op in progress: completed steps (index, nanos), and its retries and failure by step
  private int[] pendingStep = new int[16];
  private long[] pendingNanos = new long[16];
  private boolean[] pendingRolledBack = new boolean[16];
  private int pending;
  private long[] opRetries = new long[4];
  private int opFailed = -1;

  /** The value the op's figures were last added to, and its step parts by number. */
  private OpCounts into;

  private final List<OpCounts> target = new ArrayList<>();

  /** The step of this name, numbered on first sight. */
  public int step(String name) {
    Integer i = index.get(name);
    if (i != null) {
      return i;
    }
    int n = names.size();
    index.put(name, n);
    names.add(name);
    if (n == opRetries.length) {
      opRetries = Arrays.copyOf(opRetries, 2 * n);
    }
    return n;
  }

  /**
   * Step {@code s} of the op in progress completed in {@code nanos}; {@code rolledBack} when the
   * workload reported it rolled back by design (a success that committed nothing).
   */
  public void completed(int s, long nanos, boolean rolledBack) {
    if (pending == pendingStep.length) {
      pendingStep = Arrays.copyOf(pendingStep, 2 * pending);
      pendingNanos = Arrays.copyOf(pendingNanos, 2 * pending);
      pendingRolledBack = Arrays.copyOf(pendingRolledBack, 2 * pending);
    }
    pendingStep[pending] = s;
    pendingRolledBack[pending] = rolledBack;
    pendingNanos[pending++] = nanos;
  }

  /** Step {@code s} threw and its op will be tried again. */
  public void retried(int s) {
    opRetries[s]++;
  }

  /** Step {@code s} threw and its op failed. */
  public void failed(int s) {
    opFailed = s;
  }

  /**
   * The op in progress counts: its steps' figures are added to {@code counts}, one part per step
   * this client has run, by name, in the order first run.
   */
  public void commit(OpCounts counts) {
    if (counts != into) {
      into = counts;
      target.clear();
    }
    while (target.size() < names.size()) {
      target.add(counts.timedPart(names.get(target.size())));
    }
    for (int i = 0; i < pending; i++) {
      OpCounts c = target.get(pendingStep[i]);
      long nanos = pendingNanos[i];
      c.completed(nanos);
      if (pendingRolledBack[i]) {
        c.rolledBack++;
      }
      c.histogram.recordValue(Math.max(0, nanos / 1000));
    }
    for (int s = 0; s < names.size(); s++) {
      target.get(s).retries += opRetries[s];
    }
    if (opFailed >= 0) {
      target.get(opFailed).failed++;
    }
    discard();
  }

  /** The op in progress does not count. */
  public void discard() {
    pending = 0;
    Arrays.fill(opRetries, 0);
    opFailed = -1;
  }

  /** Forgets the op in progress (a new iteration); the steps keep their numbers. */
  public void reset() {
    discard();
  }
}
