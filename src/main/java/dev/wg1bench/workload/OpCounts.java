package dev.wg1bench.workload;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.wg1bench.json.Histograms;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What ops did, as one value that adds up the way HdrHistogram's histograms do: a command's, a
 * script's or a client's over an iteration, a fork's over its windows or its whole trial, a trial's
 * over its forks, a run's over its agents. One value and one {@link #add}, so a count travels from
 * the client to every output by the same path and means the same figure everywhere.
 *
 * <p>The value nests: its {@link #parts} are the same value for each part of the ops (a script of a
 * mix, and in it each command of the script or step of a workload class's op), and {@code add}
 * merges them by name. Counts by another key (a transaction type) are one more part, not one more
 * counter. For a command or a step, {@link #ok} counts its completed executions and {@link #failed}
 * the ops that failed on it.
 *
 * <p>Mutable on purpose: a client increments its own on every op, allocation-free (parts are made
 * once and {@link #clear} keeps them), and hands it in at the iteration's end.
 *
 * <p>Its JSON, parts and histograms included, is its wire form: what a fork hands its parent
 * (fork.ForkReport) and an agent hands the merge (result.AgentRun.Part), so a field added here
 * travels everywhere with its line in {@link #add} (and {@link #clear}); {@code OpCountsFieldsTest}
 * fails on a field either misses.
 */
public final class OpCounts {
  /** Successful ops. */
  public long ok;

  /**
   * Of {@link #ok}: the ones the workload reported as rolled back by design ({@code
   * Op.rolledBackByDesign()}, TPC-C's New-Order on an unused item): successes that committed
   * nothing, so {@code ok - rolledBack} is what committed.
   */
  public long rolledBack;

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

  /** Ops retried at least once, failed ones included (pgbench's "transactions retried"). */
  public long retriedAll;

  /**
   * SQL statements (BEGIN and END included): a script's as the runner sent them; a workload
   * class's, which the runner does not see, as the connection's socket saw the server complete them
   * (see {@link #protocolOps}).
   */
  public long statements;

  /**
   * Ops measured at a counting socket (server.wire.WireSocketFactory): what {@link #roundTrips},
   * {@link #bytesSent} and {@link #bytesReceived} are over. Zero where no connection counted (an
   * application's DataSource, a socketFactory in the JDBC URL).
   */
  public long wireOps;

  /**
   * Of {@link #wireOps}, the ops whose protocol the socket could read (not under TLS): what {@link
   * #rows}, and a workload class's {@link #statements}, are over.
   */
  public long protocolOps;

  /**
   * Round trips the ops made: reads of the server's answer after the client wrote (one per query,
   * one per pipelined batch), the connection's start-up excluded.
   */
  public long roundTrips;

  /** Bytes the ops' connections sent, as the socket wrote them (TLS framing included). */
  public long bytesSent;

  /** Bytes the ops' connections received. */
  public long bytesReceived;

  /** Rows the server returned to the ops (its DataRow messages), over {@link #protocolOps}. */
  public long rows;

  /** Failed ops by kind (FailureKind's label), in the order first seen. */
  public Map<String, Long> failures = new LinkedHashMap<>();

  /** The summed latency, in nanoseconds, of what {@link #ok} counts (for a part's mean). */
  public long latencyNanos;

  /** The sum of the latencies' squares, ns², so that merged figures keep an exact stddev. */
  public double latencySquares;

  /**
   * Latencies of what {@link #ok} counts, in µs, where the value keeps them (a client's window: the
   * headline's; a workload class's step); else null. In JSON HdrHistogram-compressed, base64.
   */
  @JsonIgnore public Histogram histogram;

  /**
   * The same value per part of the ops, by name, in the order first seen: a script of a mix, in it
   * a command (by its index) or a workload class's step (by its name).
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public final Map<String, OpCounts> parts = new LinkedHashMap<>();

  /** The histogram's wire form, null without one. */
  @JsonProperty("histogram")
  @JsonInclude(JsonInclude.Include.NON_NULL)
  String histogramText() {
    return histogram == null ? null : Histograms.encode(histogram);
  }

  @JsonProperty("histogram")
  void histogramText(String text) {
    histogram = text == null ? null : Histograms.decode(text);
  }

  /** One failed op of {@code kind}. */
  public void failed(String kind) {
    failed++;
    failures.merge(kind, 1L, Long::sum);
  }

  /** One more success (a command's or step's execution) that took {@code nanos}. */
  public void completed(long nanos) {
    ok++;
    latencyNanos += nanos;
    latencySquares += (double) nanos * nanos;
  }

  /** The part named {@code name}, made (empty) on first use. */
  public OpCounts part(String name) {
    OpCounts p = parts.get(name);
    if (p == null) {
      p = new OpCounts();
      parts.put(name, p);
    }
    return p;
  }

  /** The part named {@code name}, or an empty value when there is none. */
  public OpCounts partOrEmpty(String name) {
    OpCounts p = parts.get(name);
    return p == null ? new OpCounts() : p;
  }

  /** A part that keeps its latencies in a histogram (µs, 3 significant digits) too. */
  public OpCounts timedPart(String name) {
    OpCounts p = part(name);
    if (p.histogram == null) {
      p.histogram = new Histogram(3);
    }
    return p;
  }

  /** Adds {@code o}'s counts to these, its parts to the parts of the same name; returns this. */
  public OpCounts add(OpCounts o) {
    ok += o.ok;
    rolledBack += o.rolledBack;
    failed += o.failed;
    skipped += o.skipped;
    late += o.late;
    retries += o.retries;
    retriedOps += o.retriedOps;
    retriedAll += o.retriedAll;
    statements += o.statements;
    wireOps += o.wireOps;
    protocolOps += o.protocolOps;
    roundTrips += o.roundTrips;
    bytesSent += o.bytesSent;
    bytesReceived += o.bytesReceived;
    rows += o.rows;
    latencyNanos += o.latencyNanos;
    latencySquares += o.latencySquares;
    // checked first: an op's own counts are added on every op, and a lambda over an empty map
    // still allocates
    if (!o.failures.isEmpty()) {
      o.failures.forEach((k, v) -> failures.merge(k, v, Long::sum));
    }
    if (o.histogram != null) {
      if (histogram == null) {
        histogram = new Histogram(o.histogram.getNumberOfSignificantValueDigits());
      }
      histogram.add(o.histogram);
    }
    if (!o.parts.isEmpty()) {
      o.parts.forEach((k, v) -> part(k).add(v));
    }
    return this;
  }

  /** All ops attempted: successful and failed. */
  public long attempted() {
    return ok + failed;
  }

  /** Every count zero again, parts included; the parts themselves are kept, for reuse. */
  public void clear() {
    ok = 0;
    rolledBack = 0;
    failed = 0;
    skipped = 0;
    late = 0;
    retries = 0;
    retriedOps = 0;
    retriedAll = 0;
    statements = 0;
    wireOps = 0;
    protocolOps = 0;
    roundTrips = 0;
    bytesSent = 0;
    bytesReceived = 0;
    rows = 0;
    latencyNanos = 0;
    latencySquares = 0;
    if (!failures.isEmpty()) {
      failures.clear();
    }
    if (histogram != null) {
      histogram.reset();
    }
    // checked first, as in add: cleared once per command of every op
    if (!parts.isEmpty()) {
      for (OpCounts p : parts.values()) {
        p.clear();
      }
    }
  }

  public OpCounts copy() {
    return new OpCounts().add(this);
  }
}
