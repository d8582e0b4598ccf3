package dev.wg1bench.result;

import dev.wg1bench.plan.UsageException;
import dev.wg1bench.stats.BatchMeans;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
    Map<Integer, AgentRun.Member> members = members(runs, first);
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
      // in the order the results were given, as their trials
      List<AgentRun.Part> parts = new ArrayList<>();
      for (BenchmarkRun r : runs) {
        for (AgentRun.Member m : r.agents().members()) {
          for (AgentRun.Part p : m.trials()) {
            if (key(p.point(), p.repeat()).equals(e.getKey())) {
              parts.add(p);
            }
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

  /**
   * Every agent's members by index, after checking each result is of the first one's run: results
   * of different runs, or one agent given twice, would merge into figures no run produced.
   */
  private static Map<Integer, AgentRun.Member> members(List<BenchmarkRun> runs, AgentRun first) {
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
    return members;
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

  /**
   * One trial from every agent's part of it: its counts the sum of the parts' counts ({@code
   * windows}, each an agent's as its fork counted them), its figures over time, CPU and errors from
   * the agents' trials.
   */
  static TrialResult trial(List<TrialResult> parts, List<AgentRun.Part> windows, int clients) {
    TrialResult t0 = parts.get(0);
    Tally tally = Tally.empty();
    String started = t0.startedAt();
    String finished = t0.finishedAt();
    for (TrialResult t : parts) {
      tally.beside(Tally.of(t));
      started = earlier(started, t.startedAt());
      finished = later(finished, t.finishedAt());
    }
    for (AgentRun.Part p : windows) {
      if (p.measured() == null) {
        throw new UsageException(
            "merge: an agent's part of trial "
                + p.sequence()
                + " carries no counts (written by an earlier wg1bench): merge the results with"
                + " the version that ran them");
      }
      tally.count(p.measured(), p.whole());
    }
    double seconds = commonWindow(windows, tally.longestAgentSeconds());
    // agents' per-second samples start within the clock offsets' error of each other
    BatchMeans.Interval interval = tally.interval(seconds);
    Measurement m = measurement(t0.measurement(), parts.size(), tally, seconds, interval);
    ClientInfo all = client(t0.client(), parts, clients);
    return new TrialResult(
        t0.position(),
        t0.subject(),
        t0.server(),
        all,
        m,
        tally.errors(),
        List.of(),
        t0.serverSamples(),
        started,
        finished,
        tally.outages(),
        null);
  }

  /**
   * The agents' measurements as one: what has a histogram or a count is merged exactly, what has
   * neither is kept only when there is one agent (so nothing is averaged).
   *
   * @param m0 the first agent's measurement, for what every agent shares (the workload's shape)
   */
  private static Measurement measurement(
      Measurement m0, int agents, Tally tally, double seconds, BatchMeans.Interval interval) {
    return new Measurement(
        tally.throughput(
            seconds, interval, interval.method() + ", per-second sums over the agents"),
        tally.counts(
            seconds,
            m0.rowsPerSecond() != null && m0.tps() > 0 ? m0.rowsPerSecond() / m0.tps() : null,
            // every agent ran the same workload: its first part says whether they were counted
            m0.statements() != null),
        new Measurement.Latencies(
            m0.latencyFrom(),
            tally.latency() == null ? m0.latencyMs() : tally.latency(),
            tally.skipped(),
            tally.late(),
            // pool waits and schedule lags carry no histogram to merge; averaging is not
            // merging
            agents == 1 ? m0.poolWaitMs() : null,
            agents == 1 ? m0.scheduleLagMs() : null),
        // the agents' share of the machine is each agent's own: not summed
        tally.cpu(false),
        // every agent's own windows, each stamped with its start: the common one is above
        tally.series(),
        // a mean of the agents' connection times would weigh agents, not clients: left out
        tally.wholeTrial(),
        tally.scripts(seconds),
        perOp(m0, agents, tally),
        // agents measure at once: each window holds every agent's statements; not summed
        agents == 1 ? m0.serverSide() : null,
        agents == 1 ? m0.prediction() : null);
  }

  /**
   * The agents' figures per op, from their summed counts, with the first agent's reasons where none
   * counted; the server's time only for one agent (agents' windows overlap on one server).
   */
  private static PerOp perOp(Measurement m0, int agents, Tally tally) {
    PerOp p0 = m0.perOp();
    if (p0 == null) {
      return null;
    }
    if (agents > 1) {
      return PerOp.of(
          tally.measured(),
          PerOp.SENT.equals(p0.statementsFrom()),
          p0.notCounted(),
          null,
          "server time per op not given for agents measuring at once: each agent's window holds"
              + " every agent's statements");
    }
    return PerOp.of(
            tally.measured(), PerOp.SENT.equals(p0.statementsFrom()), p0.notCounted(), null, null)
        .withServerMs(p0.serverMs(), null);
  }

  /** The client as all agents together: their connections summed, their threads merged. */
  private static ClientInfo client(ClientInfo c, List<TrialResult> parts, int clients) {
    return c == null
        ? null
        : new ClientInfo(
            c.protocol(),
            c.session(),
            c.driver(),
            new ClientInfo.Connections(
                clients, parts.stream().mapToInt(p -> p.client().connections()).sum(), c.pool()),
            c.timeouts(),
            ClientThreads.merge(
                parts.stream()
                    .map(p -> p.client() == null ? null : p.client().threads())
                    .toList()));
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
}
