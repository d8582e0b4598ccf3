package dev.wg1bench.cli;

import dev.wg1bench.plan.AgentSpec;
import dev.wg1bench.plan.UsageException;
import java.time.Duration;
import picocli.CommandLine.Option;

/** Running as one of several agents that load the same server together. */
final class AgentOptions {
  @Option(
      names = "--agent",
      paramLabel = "I/N",
      description =
          "Be agent I (from 0) of N started with the same options: this one drives its share of"
              + " --clients (ids disjoint, :client_id and :nclients global), all meet in the"
              + " target and measure in the same window; merge their results with 'merge'.")
  String agent;

  @Option(
      names = "--run-id",
      paramLabel = "ID",
      description = "Name of the distributed run, the same on every agent (required with --agent).")
  String runId;

  @Option(
      names = "--rendezvous-timeout",
      paramLabel = "TIME",
      converter = Converters.DurationConverter.class,
      defaultValue = "60s",
      description =
          "How long agents wait for each other before the run fails on all (default:"
              + " ${DEFAULT-VALUE}).")
  Duration rendezvousTimeout;

  /** The agent's place, null when this is an ordinary run. */
  AgentSpec spec() {
    if (agent == null) {
      if (runId != null) {
        throw new UsageException("--run-id needs --agent I/N");
      }
      return null;
    }
    return AgentSpec.parse(agent, runId, rendezvousTimeout);
  }
}
