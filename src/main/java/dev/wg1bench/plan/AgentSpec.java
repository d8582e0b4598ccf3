package dev.wg1bench.plan;

import java.time.Duration;

/**
 * This process's place among the agents of one run ({@code --agent I/N}): which share of the global
 * clients it drives, and how it meets the others through the target.
 *
 * @param index 0-based agent index I
 * @param count number of agents N
 * @param runId the name every agent of the run gives (--run-id)
 * @param rendezvousTimeout how long an agent waits for the others before the run fails
 */
public record AgentSpec(int index, int count, String runId, Duration rendezvousTimeout) {

  /** Validates; every message names the option, the value and what is valid. */
  public AgentSpec {
    Checks.range("--agent N", count, 1, 1000);
    if (index < 0 || index >= count) {
      throw new UsageException(
          "--agent I/N needs 0 <= I < N, got " + index + "/" + count + " (I counts from 0)");
    }
    if (runId == null || !runId.matches("[A-Za-z0-9][A-Za-z0-9._:-]{0,99}")) {
      throw new UsageException(
          "--run-id must be 1-100 letters, digits, '.', '_', ':' or '-' (the same on every agent),"
              + " got "
              + (runId == null ? "none (--agent needs one)" : "'" + runId + "'"));
    }
    if (rendezvousTimeout.isNegative() || rendezvousTimeout.isZero()) {
      throw new UsageException(
          "--rendezvous-timeout must be > 0, got " + Durations.format(rendezvousTimeout));
    }
  }

  /** Parses {@code I/N}. */
  public static AgentSpec parse(String text, String runId, Duration timeout) {
    String t = text.trim();
    int slash = t.indexOf('/');
    try {
      if (slash > 0) {
        return new AgentSpec(
            Integer.parseInt(t.substring(0, slash).trim()),
            Integer.parseInt(t.substring(slash + 1).trim()),
            runId,
            timeout);
      }
    } catch (NumberFormatException e) {
      // falls through to the message below
    }
    throw new UsageException(
        "--agent must be I/N with whole numbers (e.g. 0/3), got '" + text + "'");
  }

  /** First global client id of this agent: the clients are split as evenly as they go. */
  public int firstClient(int globalClients) {
    int base = globalClients / count;
    return index * base + Math.min(index, globalClients % count);
  }

  /** Clients this agent drives out of {@code globalClients}. */
  public int clients(int globalClients) {
    return globalClients / count + (index < globalClients % count ? 1 : 0);
  }

  /** The seed every agent derives when the user gives none, so the run is still reproducible. */
  public long derivedSeed() {
    long h = 1125899906842597L;
    for (char c : runId.toCharArray()) {
      h = 31 * h + c;
    }
    return h;
  }
}
