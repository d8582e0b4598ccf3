package dev.wg1bench.experiment;

import dev.wg1bench.BuildInfo;
import dev.wg1bench.result.Machine;
import dev.wg1bench.server.ServerInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The JSON of one experiment run: what was asked, where it ran, every measurement and the findings
 * computed from them.
 *
 * @param experiment brin, logtable or vacuum
 * @param seed the seed section it reproduces
 * @param method how each figure was measured, in words
 * @param options the run's options (rows, repeat, jobs, tables, force, keep, settings, files)
 * @param sessionSettings the settings in effect on the measuring connection (enable_seqscan …)
 * @param server version and settings of the server
 * @param machine the client machine
 * @param setup facts about the data (table sizes, load times, dead tuples …)
 * @param results one entry per measured point
 * @param findings one line computed from the numbers
 * @param plots PNG files written
 */
public record ExperimentReport(
    String tool,
    String version,
    String experiment,
    String seed,
    String method,
    String target,
    String url,
    ExperimentOptions options,
    Map<String, String> sessionSettings,
    ServerInfo server,
    Machine machine,
    Instant startedAt,
    Instant finishedAt,
    Map<String, Object> setup,
    List<?> results,
    String findings,
    List<String> plots) {

  /** What every experiment records the same way: tool, target, server, machine, finish time. */
  static ExperimentReport of(
      String experiment,
      String seed,
      String method,
      ExperimentOptions o,
      Map<String, String> session,
      ServerInfo info,
      Instant started,
      Map<String, Object> setup,
      List<?> results,
      String findings,
      List<String> plots) {
    return new ExperimentReport(
        "wg1bench",
        BuildInfo.version(),
        experiment,
        seed,
        method,
        o.target().name(),
        o.target().jdbcUrl(),
        o,
        session,
        info,
        Machine.current(),
        started,
        Instant.now(),
        setup,
        results,
        findings,
        plots);
  }
}
