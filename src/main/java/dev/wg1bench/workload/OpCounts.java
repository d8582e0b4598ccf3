package dev.wg1bench.workload;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.wg1bench.json.Histograms;
import java.util.Arrays;
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

  // The recording's scratch, not figures (transient: no wire form, no sum; OpCountsFieldsTest
  // names them). An op's value is added to its client's window and whole trial on every op, and a
  // workload class's step part (keepsLatencies) holds the op's few latencies raw, for add to
  // record into the window's step histogram: HdrHistogram's add walks the whole counts array of
  // the histogram added (3 digits, µs up to 1 s: 11 buckets of 1,024 slots, 11,264 slots), where
  // recording a value is one index and one increment, and an op completes a step once or a few
  // times. The parts are also kept as arrays in map order, so that add walks them without an
  // iterator or a lambda (allocations per op, escape analysis or not) and finds its own part of
  // the same name by position, one reference comparison instead of a hash lookup, where the two
  // values' parts were made in the same order, as a client's op and its window's are (OpValueTest
  // counts 0 bytes allocated by 10,000 ops' bookkeeping).

  /** A step's: its latencies are kept (see {@link #completedKept}). */
  @JsonIgnore private transient boolean keepsLatencies;

  /** The latencies (ns) completedKept recorded since the last clear, the first {@code kept}. */
  @JsonIgnore private transient long[] latencies;

  @JsonIgnore private transient int kept;

  @JsonIgnore private transient OpCounts[] partValues = NO_PARTS;

  @JsonIgnore private transient String[] partNames = NO_NAMES;

  private static final OpCounts[] NO_PARTS = new OpCounts[0];
  private static final String[] NO_NAMES = new String[0];

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

  /**
   * One more success that took {@code nanos}, whose latency is kept: held raw until {@link #add}
   * records it into the histogram of a value that keeps latencies (a client's window), dropped by a
   * value that keeps none (the whole trial's). A workload class's step records this way.
   */
  public void completedKept(long nanos) {
    completed(nanos);
    if (kept == latencies.length) {
      latencies = Arrays.copyOf(latencies, 2 * kept);
    }
    latencies[kept++] = nanos;
  }

  /**
   * The part named {@code name}, made on first use as one whose latencies are kept (see {@link
   * #completedKept}): a step's, which in a window has a histogram of its latencies in µs.
   */
  public OpCounts keptPart(String name) {
    OpCounts p = part(name);
    if (!p.keepsLatencies) {
      p.keepsLatencies = true;
      p.latencies = new long[4];
    }
    return p;
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

  /**
   * Adds {@code o}'s counts to these, its parts to the parts of the same name; returns this. A
   * value with a histogram keeps latencies: its parts record the latencies {@code o}'s kept raw
   * ({@link #completedKept}), each in a histogram of its own; one without (the whole trial's) drops
   * them.
   */
  public OpCounts add(OpCounts o) {
    return add(o, histogram != null);
  }

  private OpCounts add(OpCounts o, boolean timed) {
    addCounts(o);
    if (o.histogram != null) {
      if (histogram == null) {
        histogram = new Histogram(o.histogram.getNumberOfSignificantValueDigits());
      }
      histogram.add(o.histogram);
    }
    if (timed && o.keepsLatencies) {
      if (histogram == null) {
        histogram = new Histogram(3);
      }
      for (int i = 0; i < o.kept; i++) {
        histogram.recordValue(Math.max(0, o.latencies[i] / 1000));
      }
    }
    if (!o.parts.isEmpty()) {
      OpCounts[] from = o.partValues();
      String[] names = o.partNames;
      for (int i = 0; i < from.length; i++) {
        partAt(i, names[i]).add(from[i], timed);
      }
    }
    return this;
  }

  /**
   * Adds {@code o}'s own counts, not its parts' nor its latencies: the first half of {@link #add},
   * and how an op's script part is given the op's counts (the op's value is the script's).
   */
  public OpCounts addCounts(OpCounts o) {
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
    return this;
  }

  /** The parts' values in map order (the map only grows: its size says when to look again). */
  private OpCounts[] partValues() {
    if (partValues.length != parts.size()) {
      partValues = parts.values().toArray(NO_PARTS);
      partNames = parts.keySet().toArray(NO_NAMES);
    }
    return partValues;
  }

  /** The part named {@code name}, looked for first at position {@code i}. */
  private OpCounts partAt(int i, String name) {
    OpCounts[] mine = partValues();
    if (i < mine.length && partNames[i] == name) {
      return mine[i];
    }
    return part(name);
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
    kept = 0;
    // by the arrays, as in add: an op's value is cleared, parts and all, as every op begins
    if (!parts.isEmpty()) {
      for (OpCounts p : partValues()) {
        p.clear();
      }
    }
  }

  public OpCounts copy() {
    return new OpCounts().add(this);
  }
}
