package dev.wg1bench.result;

import dev.wg1bench.workload.OpCounts;
import java.util.List;
import java.util.Map;

/**
 * The agents of a run started with {@code --agent I/N}: in one agent's result only itself, in a
 * merged result every agent whose result was found, and by index those that never delivered one.
 *
 * @param runId the --run-id every agent gave
 * @param count number of agents the run was started with (N)
 * @param clients clients of all agents together (the run's :nclients)
 * @param members the agents this result holds, by index
 * @param missing agents with no result (not started, failed or killed): their ops are not in this
 *     result's figures
 */
public record AgentRun(
    String runId, int count, int clients, List<Member> members, List<Missing> missing) {

  /** An agent whose result is not in this one, and what is known of why. */
  public record Missing(int index, String why) {}

  /**
   * One agent.
   *
   * @param index I of --agent I/N
   * @param host where it ran
   * @param pid its process id there
   * @param firstClient its first global client id
   * @param clients how many clients it drove
   * @param clockOffsetMs server clock minus this host's clock, from the probe of least round trip
   * @param clockRttMs that probe's round trip: the offset is good to about half of it
   * @param trials its part of each trial
   */
  public record Member(
      int index,
      String host,
      long pid,
      int firstClient,
      int clients,
      double clockOffsetMs,
      double clockRttMs,
      List<Part> trials) {}

  /**
   * One agent's part of one trial, its window in the server's clock.
   *
   * @param agreedStart the instant the agents agreed the measurement opens at
   * @param windowStart when this agent's first measurement window opened
   * @param windowEnd when its last one closed
   * @param ops successful ops it completed in its windows
   * @param failedOps ops that failed in its windows
   * @param clientCpuShare its JVMs' CPU time over its windows as a share of all its host's cores
   * @param latencyHistogram its latencies (microseconds, encoded HdrHistogram)
   * @param measured what its fork counted inside its windows, in the count's own form
   *     (workload.OpCounts: every count, latency histograms and per-script, per-command and
   *     per-step parts): what {@code merge} adds up, so that the merged figures are the sums of the
   *     agents' counts, never counts read back from their printed figures
   * @param whole the same over its whole trial, warmup included
   */
  public record Part(
      int sequence,
      Map<String, String> point,
      int repeat,
      String agreedStart,
      String windowStart,
      String windowEnd,
      long ops,
      long failedOps,
      Double clientCpuShare,
      String latencyHistogram,
      OpCounts measured,
      OpCounts whole) {}
}
