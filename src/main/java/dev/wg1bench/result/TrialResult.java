package dev.wg1bench.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.wg1bench.plan.Provision;
import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.server.ServerSampler;
import dev.wg1bench.workload.DataCheck;
import java.util.List;
import java.util.Map;

/**
 * One workload measured on one target. Where it stands in the run and what it ran on are named
 * parts, written into the JSON in their place as if the record were flat. Each figure:
 *
 * <p>{@code point}: the knob values of this trial's matrix point (target, clients, query mode, ...)
 *
 * <p>{@code repeat}: 1-based repetition of this point
 *
 * <p>{@code sequence}: 1-based position of this trial in the run's (possibly shuffled) order
 *
 * <p>{@code target}: name, kind and password-free URL of the server
 *
 * <p>{@code provision}: the container image, server settings and pooler wg1bench set up for it
 * (null: none)
 *
 * <p>{@code scale}: pgbench scale the scripts saw (:scale)
 *
 * <p>{@code dataset}: what the tables hold, e.g. "pgbench scale 10" or "SSB SF 1 (partitioned)"
 *
 * <p>{@code progress}: the --progress time series, one point per printed line (empty without it)
 *
 * <p>{@code serverSamples}: with --progress: the workload tables' sizes, live/dead tuples,
 * autovacuum runs and the server's checkpoints at each interval
 *
 * <p>{@code outages}: periods when clients had lost their connection, in order
 *
 * <p>{@code check}: what --check found in the database after the trial, null without --check
 */
public record TrialResult(
    @JsonUnwrapped Position position,
    @JsonUnwrapped Subject subject,
    ServerInfo server,
    ClientInfo client,
    Measurement measurement,
    List<ErrorRecord> errors,
    List<ProgressPoint> progress,
    List<ServerSampler.Sample> serverSamples,
    String startedAt,
    String finishedAt,
    List<Outage> outages,
    DataCheck.Outcome check) {

  /** Where the trial stands in the run: its matrix point, repetition and place in the order. */
  public record Position(Map<String, String> point, int repeat, int sequence) {}

  /** What the trial ran on: the target and the data in it. */
  public record Subject(
      String target,
      String targetKind,
      String url,
      @JsonInclude(JsonInclude.Include.NON_NULL) Provision provision,
      int scale,
      String dataset) {}

  /** This result at another place in a run's order (a run made of several matrices). */
  public TrialResult withSequence(int s) {
    return with(new Position(position.point(), position.repeat(), s), check);
  }

  /** This result with the outcome of --check. */
  public TrialResult withCheck(DataCheck.Outcome c) {
    return with(position, c);
  }

  private TrialResult with(Position p, DataCheck.Outcome c) {
    return new TrialResult(
        p,
        subject,
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

  // the figures by their names in the JSON

  public Map<String, String> point() {
    return position.point();
  }

  public int repeat() {
    return position.repeat();
  }

  public int sequence() {
    return position.sequence();
  }

  public String target() {
    return subject.target();
  }

  public String targetKind() {
    return subject.targetKind();
  }

  public String url() {
    return subject.url();
  }

  public Provision provision() {
    return subject.provision();
  }

  public int scale() {
    return subject.scale();
  }

  public String dataset() {
    return subject.dataset();
  }
}
