package dev.wg1bench.result;

import dev.wg1bench.plan.UsageException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The agents' results of one run as one result, exactly: counts summed, latency percentiles read
 * from the union of their histograms (never averaged), tps over the common window. The merged
 * result is an ordinary {@link BenchmarkRun}, so every report reads it.
 */
public final class Merge {
  private Merge() {}

  /**
   * Merges the agents' results. {@code absent} are agents known to have no result, with why (from
   * the target's table); any other index below N without a result is reported as never delivered.
   */
  public static BenchmarkRun of(List<BenchmarkRun> runs, Map<Integer, String> absent) {
    if (runs.isEmpty()) {
      throw new UsageException("merge: no agent results to merge");
    }
    AgentRun first = agentsOf(runs.get(0), 0);
    Map<Integer, AgentRun.Member> members = new TreeMap<>();
    for (int i = 0; i < runs.size(); i++) {
      AgentRun a = agentsOf(runs.get(i), i);
      if (!a.runId().equals(first.runId()) || a.count() != first.count()) {
        throw new UsageException(
            "merge: result "
                + (i + 1)
                + " is of run "
                + a.runId()
                + " with "
                + a.count()
                + " agents, the first of run "
                + first.runId()
                + " with "
                + first.count());
      }
      for (AgentRun.Member m : a.members()) {
        if (members.put(m.index(), m) != null) {
          throw new UsageException("merge: agent " + m.index() + " is given twice");
        }
      }
    }
    List<AgentRun.Missing> missing = new ArrayList<>();
    for (int i = 0; i < first.count(); i++) {
      if (!members.containsKey(i)) {
        missing.add(
            new AgentRun.Missing(
                i, absent.getOrDefault(i, "no result (not given, or the agent never finished)")));
      }
    }
    Map<String, List<TrialResult>> byPoint = new LinkedHashMap<>();
    for (BenchmarkRun r : runs) {
      for (TrialResult t : r.trials()) {
        byPoint.computeIfAbsent(key(t.point(), t.repeat()), k -> new ArrayList<>()).add(t);
      }
    }
    List<TrialResult> trials = new ArrayList<>();
    for (Map.Entry<String, List<TrialResult>> e : byPoint.entrySet()) {
      List<AgentRun.Part> parts = new ArrayList<>();
      for (AgentRun.Member m : members.values()) {
        for (AgentRun.Part p : m.trials()) {
          if (key(p.point(), p.repeat()).equals(e.getKey())) {
            parts.add(p);
          }
        }
      }
      trials.add(trial(e.getValue(), parts, first.clients()));
    }
    trials.sort(Comparator.comparingInt(TrialResult::sequence));
    AgentRun merged =
        new AgentRun(
            first.runId(),
            first.count(),
            first.clients(),
            List.copyOf(members.values()),
            List.copyOf(missing));
    return runs.get(0).withAgents(merged, trials, Summaries.of(trials));
  }

  private static AgentRun agentsOf(BenchmarkRun r, int i) {
    if (r.agents() == null) {
      throw new UsageException(
          "merge: result " + (i + 1) + " was not run with --agent I/N; only agents' results merge");
    }
    return r.agents();
  }

  /**
   * Points match by their knob values and repetition; not by the target's name, which differs when
   * agents reach the one server at different addresses (every agent has one target).
   */
  private static String key(Map<String, String> point, int repeat) {
    Map<String, String> knobs = new TreeMap<>(point);
    knobs.remove("target");
    return knobs + "#" + repeat;
  }

  /** One trial from every agent's part of it. */
  static TrialResult trial(List<TrialResult> parts, List<AgentRun.Part> windows, int clients) {
    TrialResult t0 = parts.get(0);
    Histogram h = null;
    long ops = 0;
    long failed = 0;
    long retries = 0;
    long retriedOps = 0;
    long statements = 0;
    long skipped = 0;
    long late = 0;
    long totalOps = 0;
    long totalFailed = 0;
    double cpuMicros = 0;
    boolean cpuKnown = true;
    double commitsPerSecond = 0;
    int commitsKnown = 0;
    String stoppedBy = null;
    Map<String, Long> failures = new LinkedHashMap<>();
    List<Long> perSecond = new ArrayList<>();
    List<Double> perIteration = new ArrayList<>();
    List<ErrorRecord> errors = new ArrayList<>();
    List<Outage> outages = new ArrayList<>();
    int secondsSampled = Integer.MAX_VALUE;
    int iterations = Integer.MAX_VALUE;
    String started = t0.startedAt();
    String finished = t0.finishedAt();
    for (TrialResult t : parts) {
      Measurement m = t.measurement();
      if (m.latencyHistogram() != null) {
        Histogram one = Histograms.decode(m.latencyHistogram());
        if (h == null) {
          h = new Histogram(one.getNumberOfSignificantValueDigits());
        }
        h.add(one);
      }
      ops += m.ops();
      failed += m.failedOps();
      retries += m.retries();
      retriedOps += m.retriedOps();
      statements += m.statements();
      skipped += m.skippedOps();
      late += m.lateOps();
      totalOps += m.totalOps();
      totalFailed += m.totalFailedOps();
      if (m.clientCpuMicrosPerOp() == null) {
        cpuKnown = false;
      } else {
        cpuMicros += m.clientCpuMicrosPerOp() * (m.ops() + m.failedOps());
      }
      if (m.serverCommitsPerSecond() != null) {
        commitsPerSecond += m.serverCommitsPerSecond();
        commitsKnown++;
      }
      if (stoppedBy == null) {
        stoppedBy = m.stoppedBy();
      }
      m.failures().forEach((k, v) -> failures.merge(k, v, Long::sum));
      addAll(perSecond, m.opsPerSecond(), Long::sum);
      addAll(perIteration, m.iterationTps(), Double::sum);
      errors.addAll(t.errors());
      outages.addAll(t.outages());
      started = earlier(started, t.startedAt());
      finished = later(finished, t.finishedAt());
      secondsSampled = Math.min(secondsSampled, m.opsPerSecond().size());
      iterations = Math.min(iterations, m.iterationTps().size());
    }
    // a sum is a sum only where every agent has a sample
    perSecond = new ArrayList<>(perSecond.subList(0, Math.min(secondsSampled, perSecond.size())));
    perIteration =
        new ArrayList<>(perIteration.subList(0, Math.min(iterations, perIteration.size())));
    double measured =
        parts.stream().mapToDouble(t -> t.measurement().measuredSeconds()).max().orElse(0);
    double seconds = commonWindow(windows, measured);
    double tps = seconds > 0 ? ops / seconds : 0;
    // agents' per-second samples start within the clock offsets' error of each other
    BatchMeans.Interval interval = BatchMeans.of(tps, perSecond);
    Measurement m0 = t0.measurement();
    Double rowsPerOp =
        m0.rowsPerSecond() != null && m0.tps() > 0 ? m0.rowsPerSecond() / m0.tps() : null;
    Measurement m =
        new Measurement(
            tps,
            interval.halfWidth(),
            interval.method() + ", per-second sums over the agents",
            seconds > 0 ? (ops + failed) / seconds : 0,
            seconds,
            // every agent sampled the whole server's counter over (nearly) the same window
            commitsKnown > 0 ? commitsPerSecond / commitsKnown : null,
            ops,
            failed,
            retries,
            retriedOps,
            failures,
            statements,
            seconds > 0 ? statements / seconds : 0,
            rowsPerOp != null ? tps * rowsPerOp : null,
            m0.latencyFrom(),
            h == null ? m0.latencyMs() : Latency.of(h),
            skipped,
            late,
            // pool waits and schedule lags carry no histogram to merge; averaging is not merging
            parts.size() == 1 ? m0.poolWaitMs() : null,
            parts.size() == 1 ? m0.scheduleLagMs() : null,
            cpuKnown && ops + failed > 0 ? cpuMicros / (ops + failed) : null,
            null,
            perIteration,
            // every agent's own windows, each stamped with its start: the common one is above
            parts.stream()
                .flatMap(
                    t ->
                        t.measurement().windows() == null
                            ? java.util.stream.Stream.<Window>empty()
                            : t.measurement().windows().stream())
                .toList(),
            perSecond,
            h == null ? null : Histograms.encode(h),
            totalOps,
            totalFailed,
            stoppedBy,
            parts.stream().mapToInt(t -> t.measurement().clientsStopped()).sum(),
            parts.stream()
                .map(t -> t.measurement().clientsStoppedBy())
                .filter(java.util.Objects::nonNull)
                .findFirst()
                .orElse(null),
            // a mean of the agents' means would weigh agents, not clients: left out
            null,
            ScriptStats.merge(
                parts.stream().map(t -> t.measurement().scripts()).toList(), seconds));
    ClientInfo c = t0.client();
    ClientInfo all =
        c == null
            ? null
            : new ClientInfo(
                c.pgjdbc(),
                c.queryMode(),
                c.preferQueryMode(),
                c.prepareThreshold(),
                c.isolation(),
                c.sslmode(),
                c.ssl(),
                c.sessionSettings(),
                c.binaryTransfer(),
                c.fetchSize(),
                c.rewriteBatchedInserts(),
                c.jdbcProperties(),
                clients,
                parts.stream().mapToInt(p -> p.client().connections()).sum(),
                c.pool(),
                c.socketTimeoutS(),
                c.stallGraceS(),
                ClientThreads.merge(
                    parts.stream()
                        .map(p -> p.client() == null ? null : p.client().threads())
                        .toList()));
    return new TrialResult(
        t0.point(),
        t0.repeat(),
        t0.sequence(),
        t0.target(),
        t0.targetKind(),
        t0.url(),
        t0.provision(),
        t0.scale(),
        t0.dataset(),
        t0.server(),
        all,
        m,
        errors,
        List.of(),
        t0.serverSamples(),
        started,
        finished,
        outages,
        null);
  }

  /**
   * The seconds the agents' ops are divided by: the union of their windows on the server's clock
   * (earliest start to latest end), less the pauses between JMH's iterations that every agent has
   * inside its own span. With one iteration it is exactly the union; either way it is never less
   * than any agent's measured time, so summed ops are never divided by less time than they took.
   *
   * @param measured the longest of the agents' measured times (their windows' total length)
   */
  static double commonWindow(List<AgentRun.Part> windows, double measured) {
    Instant start = null;
    Instant end = null;
    double longestSpan = 0;
    for (AgentRun.Part p : windows) {
      if (p.windowStart() == null) {
        continue;
      }
      Instant s = Instant.parse(p.windowStart());
      Instant e = Instant.parse(p.windowEnd());
      start = start == null || s.isBefore(start) ? s : start;
      end = end == null || e.isAfter(end) ? e : end;
      longestSpan = Math.max(longestSpan, Duration.between(s, e).toNanos() / 1e9);
    }
    if (start == null) {
      return measured;
    }
    double union = Duration.between(start, end).toNanos() / 1e9;
    return measured + Math.max(0, union - longestSpan);
  }

  private static String earlier(String a, String b) {
    if (a == null) {
      return b;
    }
    return b == null || Instant.parse(a).isBefore(Instant.parse(b)) ? a : b;
  }

  private static String later(String a, String b) {
    if (a == null) {
      return b;
    }
    return b == null || Instant.parse(a).isAfter(Instant.parse(b)) ? a : b;
  }

  private static <T> void addAll(
      List<T> into, List<T> from, java.util.function.BinaryOperator<T> plus) {
    if (from == null) {
      return;
    }
    for (int i = 0; i < from.size(); i++) {
      if (i < into.size()) {
        into.set(i, plus.apply(into.get(i), from.get(i)));
      } else {
        into.add(from.get(i));
      }
    }
  }
}
