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
 * in. Every op's step counts also go, window or not, to the whole trial's part ({@link
 * #commit(OpCounts, OpCounts)}), without latencies: what the data shows is what the whole trial
 * did, warmup included (TPC-C's committed New-Orders against the rows added to orders).
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

  /** The window's and the whole trial's step parts, by number, of the values last added to. */
  private final Parts window = new Parts(true);

  private final Parts whole = new Parts(false);

  /** The step parts of one value, looked up once per value rather than per op. */
  private final class Parts {
    private final boolean timed;
    private OpCounts into;
    private final List<OpCounts> byStep = new ArrayList<>();

    Parts(boolean timed) {
      this.timed = timed;
    }

    List<OpCounts> of(OpCounts counts) {
      if (counts != into) {
        into = counts;
        byStep.clear();
      }
      while (byStep.size() < names.size()) {
        String name = names.get(byStep.size());
        byStep.add(timed ? counts.timedPart(name) : counts.part(name));
      }
      return byStep;
    }
  }

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
    commit(counts, null);
  }

  /**
   * The op in progress ended: its steps' figures go to {@code window} when it completed inside a
   * measurement window (null when not), and their counts to {@code whole} (null: none kept).
   */
  public void commit(OpCounts window, OpCounts whole) {
    if (window != null) {
      add(this.window.of(window));
    }
    if (whole != null) {
      add(this.whole.of(whole));
    }
    discard();
  }

  private void add(List<OpCounts> target) {
    for (int i = 0; i < pending; i++) {
      OpCounts c = target.get(pendingStep[i]);
      long nanos = pendingNanos[i];
      c.completed(nanos);
      if (pendingRolledBack[i]) {
        c.rolledBack++;
      }
      if (c.histogram != null) {
        c.histogram.recordValue(Math.max(0, nanos / 1000));
      }
    }
    for (int s = 0; s < names.size(); s++) {
      target.get(s).retries += opRetries[s];
    }
    if (opFailed >= 0) {
      target.get(opFailed).failed++;
    }
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
