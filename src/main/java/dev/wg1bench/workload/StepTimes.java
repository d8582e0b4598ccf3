package dev.wg1bench.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Per-step latency, failures and retries of one client running a workload class's ops, the steps
 * named by the op itself ({@code op.step("load order", ...)}): pgbench -r's per-statement figures
 * for code that is not a script. Steps are numbered in the order this client first ran them.
 *
 * <p>As {@link CommandTimes}: an op's figures wait until the caller knows whether the op counts (it
 * completed inside a measurement window): {@link #commit()} adds them, {@link #discard()} drops
 * them. A step's latency is recorded each time it completes (a retried op's earlier attempts
 * included), a retry is counted on the step whose exception caused it, and a failed op's failure on
 * the step it failed in. Each step also keeps an HdrHistogram of its latencies (µs, 3 significant
 * digits), which adds up across clients, forks and agents as the headline's does.
 */
public final class StepTimes {
  private final Map<String, Integer> index = new HashMap<>();
  private final List<String> names = new ArrayList<>();

  private long[] count = new long[4];
  private long[] sumNanos = new long[4];
  private double[] sumSquares = new double[4];
  private long[] failures = new long[4];
  private long[] retries = new long[4];
  private final List<Histogram> histograms = new ArrayList<>();

  // the op in progress: completed steps (index, nanos), and its retries and failure by step
  private int[] pendingStep = new int[16];
  private long[] pendingNanos = new long[16];
  private int pending;
  private long[] opRetries = new long[4];
  private int opFailed = -1;

  /** The step of this name, numbered on first sight. */
  public int step(String name) {
    Integer i = index.get(name);
    if (i != null) {
      return i;
    }
    int n = names.size();
    index.put(name, n);
    names.add(name);
    histograms.add(new Histogram(3));
    if (n == count.length) {
      int m = 2 * n;
      count = Arrays.copyOf(count, m);
      sumNanos = Arrays.copyOf(sumNanos, m);
      sumSquares = Arrays.copyOf(sumSquares, m);
      failures = Arrays.copyOf(failures, m);
      retries = Arrays.copyOf(retries, m);
      opRetries = Arrays.copyOf(opRetries, m);
    }
    return n;
  }

  /** Step {@code s} of the op in progress completed in {@code nanos}. */
  public void completed(int s, long nanos) {
    if (pending == pendingStep.length) {
      pendingStep = Arrays.copyOf(pendingStep, 2 * pending);
      pendingNanos = Arrays.copyOf(pendingNanos, 2 * pending);
    }
    pendingStep[pending] = s;
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

  /** The op in progress counts. */
  public void commit() {
    for (int i = 0; i < pending; i++) {
      int s = pendingStep[i];
      long nanos = pendingNanos[i];
      count[s]++;
      sumNanos[s] += nanos;
      sumSquares[s] += (double) nanos * nanos;
      histograms.get(s).recordValue(Math.max(0, nanos / 1000));
    }
    for (int s = 0; s < names.size(); s++) {
      retries[s] += opRetries[s];
    }
    if (opFailed >= 0) {
      failures[opFailed]++;
    }
    discard();
  }

  /** The op in progress does not count. */
  public void discard() {
    pending = 0;
    Arrays.fill(opRetries, 0);
    opFailed = -1;
  }

  /** Forgets the counts (a new iteration); the steps keep their numbers. */
  public void reset() {
    discard();
    Arrays.fill(count, 0);
    Arrays.fill(sumNanos, 0);
    Arrays.fill(sumSquares, 0);
    Arrays.fill(failures, 0);
    Arrays.fill(retries, 0);
    for (Histogram h : histograms) {
      h.reset();
    }
  }

  /** Adds another client's committed figures to these, matching steps by name. */
  public void add(StepTimes o) {
    for (int j = 0; j < o.names.size(); j++) {
      int s = step(o.names.get(j));
      count[s] += o.count[j];
      sumNanos[s] += o.sumNanos[j];
      sumSquares[s] += o.sumSquares[j];
      failures[s] += o.failures[j];
      retries[s] += o.retries[j];
      histograms.get(s).add(o.histograms.get(j));
    }
  }

  /** The steps' names, in the order they were first run. */
  public List<String> names() {
    return names;
  }

  public long count(int s) {
    return count[s];
  }

  public long sumNanos(int s) {
    return sumNanos[s];
  }

  public double sumSquares(int s) {
    return sumSquares[s];
  }

  public long failures(int s) {
    return failures[s];
  }

  public long retries(int s) {
    return retries[s];
  }

  /** Latencies of the step's counted completions, microseconds. */
  public Histogram histogram(int s) {
    return histograms.get(s);
  }
}
