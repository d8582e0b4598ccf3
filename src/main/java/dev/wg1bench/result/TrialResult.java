package dev.wg1bench.result;

import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.server.ServerSampler;
import java.util.List;
import java.util.Map;

/**
 * One workload measured on one target.
 *
 * @param point the knob values of this trial's matrix point (target, clients, query mode, ...)
 * @param repeat 1-based repetition of this point
 * @param sequence 1-based position of this trial in the run's (possibly shuffled) order
 * @param target name, kind and password-free URL of the server
 * @param provision the container image, server settings and pooler wg1bench set up for it (null:
 *     none)
 * @param scale pgbench scale the scripts saw (:scale)
 * @param dataset what the tables hold, e.g. "pgbench scale 10" or "SSB SF 1 (partitioned)"
 * @param progress the --progress time series, one point per printed line (empty without it)
 * @param serverSamples with --progress: the workload tables' sizes, live/dead tuples, autovacuum
 *     runs and the server's checkpoints at each interval
 * @param outages periods when clients had lost their connection, in order
 * @param check what --check found in the database after the trial, null without --check
 */
public record TrialResult(
    Map<String, String> point,
    int repeat,
    int sequence,
    String target,
    String targetKind,
    String url,
    @com.fasterxml.jackson.annotation.JsonInclude(
            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        dev.wg1bench.plan.Provision provision,
    int scale,
    String dataset,
    ServerInfo server,
    ClientInfo client,
    Measurement measurement,
    List<ErrorRecord> errors,
    List<ProgressPoint> progress,
    List<ServerSampler.Sample> serverSamples,
    String startedAt,
    String finishedAt,
    List<Outage> outages,
    dev.wg1bench.workload.DataCheck.Outcome check) {

  /** This result at another place in a run's order (a run made of several matrices). */
  public TrialResult withSequence(int s) {
    return new TrialResult(
        point,
        repeat,
        s,
        target,
        targetKind,
        url,
        provision,
        scale,
        dataset,
        server,
        client,
        measurement,
        errors,
        progress,
        serverSamples,
        startedAt,
        finishedAt,
        outages,
        check);
  }

  /** This result with the outcome of --check. */
  public TrialResult withCheck(dev.wg1bench.workload.DataCheck.Outcome c) {
    return new TrialResult(
        point,
        repeat,
        sequence,
        target,
        targetKind,
        url,
        provision,
        scale,
        dataset,
        server,
        client,
        measurement,
        errors,
        progress,
        serverSamples,
        startedAt,
        finishedAt,
        outages,
        c);
  }
}
