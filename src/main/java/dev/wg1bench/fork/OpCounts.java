package dev.wg1bench.fork;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Op counts that add up, as HdrHistogram's histograms do: a client's over an iteration, a fork's
 * over its windows or its whole trial, a trial's over its forks, a run's over its agents. One value
 * and one {@link #add}, so a count travels from the client to every output by the same path and
 * means the same figure everywhere. Mutable on purpose: a client increments its own on every op,
 * allocation-free, and hands it in at the iteration's end.
 */
public final class OpCounts {
  /** Successful ops. */
  public long ok;

  /** Ops that failed after all tries. */
  public long failed;

  /** --rate with --latency-limit: ops skipped because they could not start in time. */
  public long skipped;

  /** --latency-limit: successful ops whose latency exceeded the limit. */
  public long late;

  /** Re-executions after serialization failures or deadlocks. */
  public long retries;

  /** Successful ops that needed at least one retry. */
  public long retriedOps;

  /** SQL statements sent (BEGIN and END included). */
  public long statements;

  /** Failed ops by kind (FailureKind's label), in the order first seen. */
  public Map<String, Long> failures = new LinkedHashMap<>();

  /** One failed op of {@code kind}. */
  public void failed(String kind) {
    failed++;
    failures.merge(kind, 1L, Long::sum);
  }

  /** Adds {@code o}'s counts to these; returns this. */
  public OpCounts add(OpCounts o) {
    ok += o.ok;
    failed += o.failed;
    skipped += o.skipped;
    late += o.late;
    retries += o.retries;
    retriedOps += o.retriedOps;
    statements += o.statements;
    o.failures.forEach((k, v) -> failures.merge(k, v, Long::sum));
    return this;
  }

  /** All ops attempted: successful and failed. */
  public long attempted() {
    return ok + failed;
  }

  public void clear() {
    ok = 0;
    failed = 0;
    skipped = 0;
    late = 0;
    retries = 0;
    retriedOps = 0;
    statements = 0;
    failures.clear();
  }

  public OpCounts copy() {
    return new OpCounts().add(this);
  }
}
