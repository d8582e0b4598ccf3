package dev.wg1bench.result;

import dev.wg1bench.fork.ForkReport;
import dev.wg1bench.json.Histograms;
import dev.wg1bench.stats.BatchMeans;
import dev.wg1bench.workload.OpCounts;
import dev.wg1bench.workload.ScriptOutline;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BinaryOperator;
import org.HdrHistogram.Histogram;

/**
 * What a trial measured, as the figures add up: a fork's report or an agent's measurement each
 * becomes a tally, and tallies merge into one, the way HdrHistogram's histograms {@code add}. Two
 * merges, because two kinds of parts make a trial:
 *
 * <ul>
 *   <li>{@link #after}: JMH's forks run one after the other, so their windows and per-second
 *       samples follow each other and their measured seconds add up;
 *   <li>{@link #beside}: agents run at the same time, so their per-second samples add up second by
 *       second, and the seconds are the common window the caller finds.
 * </ul>
 *
 * The counts are one value, workload.OpCounts (its parts per script, command and step, and the
 * latency histogram), merged by its one {@code add} in both: a fork's as it handed it over, an
 * agent's from its part of the trial ({@link #count}, never from its measurement). Every count of
 * the result is a view of that value, built once ({@link #counts}, {@link #scripts}, {@link
 * #wholeTrial}).
 */
final class Tally {
  // summed over every part
  private Histogram poolWait;
  private Histogram lag;

  /**
   * The ops that completed inside the measurement windows, with their latency histogram: every
   * count of the result is a view of this value or of {@link #whole}, merged by their one {@code
   * add}.
   */
  private final OpCounts measured = new OpCounts();

  /** The whole trial's ops, warmup included: successful and failed. */
  private final OpCounts whole = new OpCounts();

  /** The scripts that name the counts' parts (the first part's that has them), or null. */
  private List<ForkReport.Script> outline;

  private boolean steps;

  /**
   * CPU time of the client JVMs over the windows: forks report it exactly (nanoseconds), agents as
   * microseconds per op times their ops; unknown once one part did not measure it.
   */
  private long cpuNanos;

  private double cpuMicros;

  private boolean cpuKnown = true;

  /** Cores times the windows' length: what the client's CPU time is a share of. */
  private long cpuCoreNanos;

  // over time: in order for forks, summed second by second for agents
  private List<Double> iterationTps = new ArrayList<>();
  private final List<Window> windows = new ArrayList<>();
  private List<Long> opsPerSecond = new ArrayList<>();
  private int parts;

  /** The forks' windows' total length; the longest of the agents' measured times. */
  private long measuredNanos;

  private double longestSeconds;

  // the server's commit counter: a count over its own time for forks, a rate per agent
  private long serverCommits;
  private long serverNanos;
  private boolean serverCounted = true;
  private double serverRates;
  private int serverRatesKnown;

  // how the trial went
  private String stoppedBy;
  private int clientsStopped;
  private String clientsStoppedBy;
  private Integer clientsRan;
  private String notAsAsked;
  private long connectNanos;
  private int connects;
  private final List<ErrorRecord> errors = new ArrayList<>();
  private final List<Outage> outages = new ArrayList<>();

  private Tally() {}

  /** No figures yet: every merge into it gives the other tally's figures. */
  static Tally empty() {
    return new Tally();
  }

  /** One fork's figures. */
  static Tally of(ForkReport f) {
    Tally t = new Tally();
    t.poolWait = f.poolWaitHistogram == null ? null : Histograms.decode(f.poolWaitHistogram);
    t.lag = f.lagHistogram == null ? null : Histograms.decode(f.lagHistogram);
    t.measured.add(f.measured);
    t.whole.add(f.whole);
    t.cpuNanos = f.measuredCpuNanos;
    t.cpuKnown = f.measuredCpuNanos > 0;
    t.cpuCoreNanos = f.cores > 0 ? f.measuredNanos * f.cores : 0;
    t.measuredNanos = f.measuredNanos;
    for (ForkReport.Window w : f.windows) {
      t.window(w);
    }
    if (f.windows.isEmpty()) {
      t.serverCounted = false;
    }
    t.stoppedBy = f.stoppedBy;
    t.clientsStopped = f.clientsStopped;
    t.clientsStoppedBy = f.clientsStoppedBy;
    t.clientsRan = f.clientsRan;
    t.notAsAsked = f.notAsAsked;
    t.connectNanos = f.connectNanos;
    t.connects = f.connects;
    for (ForkReport.ErrorEntry e : f.errors) {
      t.errors.add(
          new ErrorRecord(
              e.kind,
              e.sqlState,
              e.firstMessage,
              Instant.ofEpochMilli(e.firstAtEpochMs).toString(),
              e.count,
              e.retried,
              e.phase,
              instant(e.lastAtEpochMs)));
    }
    for (ForkReport.Outage o : f.outages) {
      boolean back = o.backAtEpochMs > 0;
      t.outages.add(
          new Outage(
              Instant.ofEpochMilli(o.lostAtEpochMs).toString(),
              back ? Instant.ofEpochMilli(o.backAtEpochMs).toString() : null,
              back ? (o.backAtEpochMs - o.lostAtEpochMs) / 1000.0 : null,
              o.clientsLost,
              o.clientsReconnected,
              o.failedOps));
    }
    t.outline = f.scripts;
    t.steps = f.steps;
    return t;
  }

  /** One measurement window of a fork. */
  private void window(ForkReport.Window w) {
    iterationTps.add(w.nanos > 0 ? w.counts.ok * 1e9 / w.nanos : 0);
    windows.add(
        new Window(
            Instant.ofEpochSecond(0, w.startEpochMicros * 1000).toString(),
            w.nanos / 1e9,
            w.counts.ok,
            w.counts.failed,
            w.serverCommits,
            w.serverCommits == null ? null : w.serverNanos / 1e9,
            w.walStart,
            w.walEnd));
    // whole seconds only: a partial last second would read as a drop in throughput
    long whole = w.nanos / 1_000_000_000L;
    for (int i = 0; i < whole && i < w.okPerSecond.length; i++) {
      opsPerSecond.add(w.okPerSecond[i]);
    }
    if (w.serverCommits == null || Math.abs(w.serverNanos - w.nanos) > w.nanos / 10) {
      // reading the counter took so long (a stalled server or client) that the time between
      // the reads is not the window: no server rate rather than a wrong one
      serverCounted = false;
    } else {
      serverCommits += w.serverCommits;
      serverNanos += w.serverNanos;
    }
  }

  /**
   * One agent's measurement of the trial, with its errors and outages: its figures over time, its
   * CPU and how it ended. Its counts are not read back from it: they come from the agents' parts
   * ({@link #count}), the value their forks counted.
   */
  static Tally of(TrialResult t) {
    Measurement m = t.measurement();
    Tally a = new Tally();
    a.cpuKnown = m.clientCpuMicrosPerOp() != null;
    // CPU per op times the ops it is per: the agent's CPU time, in µs
    a.cpuMicros = a.cpuKnown ? m.clientCpuMicrosPerOp() * (m.ops() + m.failedOps()) : 0;
    a.iterationTps = m.iterationTps() == null ? new ArrayList<>() : m.iterationTps();
    a.opsPerSecond = m.opsPerSecond() == null ? new ArrayList<>() : m.opsPerSecond();
    if (m.windows() != null) {
      a.windows.addAll(m.windows());
    }
    a.longestSeconds = m.measuredSeconds();
    if (m.serverCommitsPerSecond() != null) {
      a.serverRates = m.serverCommitsPerSecond();
      a.serverRatesKnown = 1;
    }
    a.stoppedBy = m.stoppedBy();
    a.clientsStopped = m.clientsStopped();
    a.clientsStoppedBy = m.clientsStoppedBy();
    a.clientsRan = m.clientsRan();
    a.notAsAsked = m.notAsAsked();
    a.errors.addAll(t.errors());
    a.outages.addAll(t.outages());
    a.outline = outline(m.scripts());
    a.steps =
        a.outline != null
            && m.scripts().get(0).commands() != null
            && m.scripts().get(0).commands().stream().anyMatch(CommandStats::step);
    return a;
  }

  /** The scripts a result's per-script figures name, in order: the shape every agent shares. */
  private static List<ForkReport.Script> outline(List<ScriptStats> scripts) {
    if (scripts == null) {
      return null;
    }
    List<ForkReport.Script> out = new ArrayList<>();
    for (ScriptStats s : scripts) {
      List<ScriptOutline.Command> commands =
          s.commands() == null || s.commands().stream().anyMatch(CommandStats::step)
              ? null
              : s.commands().stream()
                  .map(c -> new ScriptOutline.Command(c.line(), c.text()))
                  .toList();
      out.add(new ForkReport.Script(s.name(), s.weight(), commands));
    }
    return out;
  }

  /** Adds one agent's counts of the trial: what it measured and its whole trial. */
  Tally count(OpCounts measured, OpCounts whole) {
    this.measured.add(measured);
    this.whole.add(whole);
    return this;
  }

  /** Adds the next fork, which ran after the ones already in. */
  Tally after(Tally next) {
    boolean first = parts == 0;
    addCommon(next);
    iterationTps.addAll(next.iterationTps);
    opsPerSecond.addAll(next.opsPerSecond);
    measuredNanos += next.measuredNanos;
    serverCounted &= next.serverCounted;
    serverCommits += next.serverCommits;
    serverNanos += next.serverNanos;
    // every fork runs all the clients: the figure is per fork, not a sum
    clientsStopped = Math.max(clientsStopped, next.clientsStopped);
    clientsRan = first ? next.clientsRan : combine(clientsRan, next.clientsRan, Math::min);
    connectNanos += next.connectNanos;
    connects += next.connects;
    for (ErrorRecord e : next.errors) {
      mergeError(e);
    }
    return this;
  }

  /** Adds an agent that ran at the same time as the ones already in. */
  Tally beside(Tally other) {
    boolean first = parts == 0;
    addCommon(other);
    iterationTps =
        first
            ? new ArrayList<>(other.iterationTps)
            : sum(iterationTps, other.iterationTps, Double::sum);
    opsPerSecond =
        first
            ? new ArrayList<>(other.opsPerSecond)
            : sum(opsPerSecond, other.opsPerSecond, Long::sum);
    longestSeconds = Math.max(longestSeconds, other.longestSeconds);
    serverRates += other.serverRates;
    serverRatesKnown += other.serverRatesKnown;
    clientsStopped += other.clientsStopped;
    clientsRan = first ? other.clientsRan : combine(clientsRan, other.clientsRan, Integer::sum);
    errors.addAll(other.errors);
    return this;
  }

  private void addCommon(Tally o) {
    parts++;
    poolWait = add(poolWait, o.poolWait);
    lag = add(lag, o.lag);
    measured.add(o.measured);
    whole.add(o.whole);
    cpuNanos += o.cpuNanos;
    cpuMicros += o.cpuMicros;
    cpuKnown &= o.cpuKnown;
    cpuCoreNanos += o.cpuCoreNanos;
    windows.addAll(o.windows);
    stoppedBy = stoppedBy != null ? stoppedBy : o.stoppedBy;
    clientsStoppedBy = clientsStoppedBy != null ? clientsStoppedBy : o.clientsStoppedBy;
    notAsAsked = notAsAsked != null ? notAsAsked : o.notAsAsked;
    outages.addAll(o.outages);
    if (outline == null) {
      outline = o.outline;
      steps = o.steps;
    }
  }

  private static Histogram add(Histogram into, Histogram h) {
    if (h == null) {
      return into;
    }
    if (into == null) {
      into = new Histogram(h.getNumberOfSignificantValueDigits());
    }
    into.add(h);
    return into;
  }

  /** The same error (phase, kind, SQLSTATE) in another fork: one record, counted over both. */
  private void mergeError(ErrorRecord e) {
    for (int i = 0; i < errors.size(); i++) {
      ErrorRecord prev = errors.get(i);
      if (Objects.equals(prev.phase(), e.phase())
          && Objects.equals(prev.kind(), e.kind())
          && Objects.equals(prev.sqlState(), e.sqlState())) {
        errors.set(
            i,
            new ErrorRecord(
                prev.kind(),
                prev.sqlState(),
                prev.firstMessage(),
                prev.firstAt(),
                prev.count() + e.count(),
                prev.retried() + e.retried(),
                prev.phase(),
                later(prev.lastAt(), e.lastAt())));
        return;
      }
    }
    errors.add(e);
  }

  /** A sum is a sum only where every agent has a sample: the shorter series bounds it. */
  private static <T> List<T> sum(List<T> into, List<T> from, BinaryOperator<T> plus) {
    List<T> out = new ArrayList<>();
    for (int i = 0; i < Math.min(into.size(), from.size()); i++) {
      out.add(plus.apply(into.get(i), from.get(i)));
    }
    return out;
  }

  /** The forks' windows' total length, in seconds: what the forks' counts are over. */
  double forkSeconds() {
    return measuredNanos / 1e9;
  }

  /** The longest of the agents' measured times. */
  double longestAgentSeconds() {
    return longestSeconds;
  }

  /** The batch-means interval of tps over {@code seconds}, from the per-second samples. */
  BatchMeans.Interval interval(double seconds) {
    return BatchMeans.of(tps(seconds), opsPerSecond);
  }

  private double tps(double seconds) {
    // every rate is a count of ops that completed inside the windows over the windows' length
    // (see jmh.MeasurementWindow); JMH's own score over-counts at many clients
    return seconds > 0 ? measured.ok / seconds : 0;
  }

  /** How fast, over {@code seconds}; {@code how} says what the interval is. */
  Measurement.Throughput throughput(double seconds, BatchMeans.Interval interval, String how) {
    Double serverRate;
    if (serverRatesKnown > 0) {
      // every agent sampled the whole server's counter over (nearly) the same window
      serverRate = serverRates / serverRatesKnown;
    } else {
      serverRate = serverCounted && serverNanos > 0 ? serverCommits * 1e9 / serverNanos : null;
    }
    return new Measurement.Throughput(
        tps(seconds),
        interval.halfWidth(),
        how,
        seconds > 0 ? measured.attempted() / seconds : 0,
        seconds,
        serverRate);
  }

  /**
   * What the ops did; {@code rowsPerOp} null for a workload that inserts none; without {@code
   * statementsCounted} (a workload class sends its own) the statements are null, not 0.
   */
  Measurement.Counts counts(double seconds, Double rowsPerOp, boolean statementsCounted) {
    return new Measurement.Counts(
        measured.ok,
        measured.failed,
        measured.retries,
        measured.retriedOps,
        measured.failures,
        statementsCounted ? measured.statements : null,
        statementsCounted ? (seconds > 0 ? measured.statements / seconds : 0) : null,
        rowsPerOp != null ? tps(seconds) * rowsPerOp : null);
  }

  /** The measured ops' counts, as merged (read, never changed, by the caller). */
  OpCounts measured() {
    return measured;
  }

  /** The whole trial's counts, as merged. */
  OpCounts whole() {
    return whole;
  }

  /** The latency histogram's figures, null when no part carried one. */
  Latency latency() {
    return measured.histogram == null ? null : Latency.of(measured.histogram);
  }

  Latency poolWait() {
    return poolWait == null ? null : Latency.of(poolWait);
  }

  Latency scheduleLag() {
    return lag == null ? null : Latency.of(lag);
  }

  long skipped() {
    return measured.skipped;
  }

  long late() {
    return measured.late;
  }

  /**
   * The client's CPU per op and, when the target runs on this host, its share of the machine's
   * cores over the windows.
   */
  Measurement.ClientCpu cpu(boolean sameHost) {
    long n = measured.attempted();
    return new Measurement.ClientCpu(
        cpuKnown && n > 0 ? (cpuNanos / 1000.0 + cpuMicros) / n : null,
        cpuCoreNanos > 0 && sameHost ? (double) cpuNanos / cpuCoreNanos : null);
  }

  Measurement.Series series() {
    return new Measurement.Series(
        iterationTps,
        List.copyOf(windows),
        opsPerSecond,
        measured.histogram == null ? null : Histograms.encode(measured.histogram));
  }

  Measurement.WholeTrial wholeTrial() {
    return new Measurement.WholeTrial(
        whole.ok,
        whole.failed,
        stoppedBy,
        clientsStopped,
        clientsStoppedBy,
        clientsRan,
        notAsAsked,
        connects > 0 ? Math.round(connectNanos / 1000.0 / connects) / 1000.0 : null,
        whole.rolledBack);
  }

  /** Clients that ran, merged: null (a result from before the figure) stays unknown. */
  private static Integer combine(Integer a, Integer b, BinaryOperator<Integer> op) {
    return a == null || b == null ? null : op.apply(a, b);
  }

  /** Per script, a view of the counts' parts (every part runs the same scripts), or null. */
  List<ScriptStats> scripts(double seconds) {
    return ScriptStats.of(outline, steps, measured, whole, seconds);
  }

  List<ErrorRecord> errors() {
    return new ArrayList<>(errors);
  }

  List<Outage> outages() {
    return outages;
  }

  /** Null for 0 (a fork that recorded no time, from before lastAt existed). */
  private static String instant(long epochMs) {
    return epochMs > 0 ? Instant.ofEpochMilli(epochMs).toString() : null;
  }

  private static String later(String a, String b) {
    if (a == null) {
      return b;
    }
    return b == null || Instant.parse(a).isAfter(Instant.parse(b)) ? a : b;
  }
}
