package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.CommandStats;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.TrialResult;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * What one trial of a run measured: one target (and, in a matrix, one value of each varied knob). A
 * run with one target has one trial; {@link Wg1bench.Result#trials()} lists them all.
 *
 * @param target the target's name, as the JSON result's {@code target} ({@code embedded} for the
 *     embedded server, the host or the DataSource's name otherwise)
 * @param point the varied knobs' values of this trial (empty when nothing varies, the default)
 * @param tps successful ops per second over the measured time (the JSON's {@code tps})
 * @param p50Ms median latency of an op, in milliseconds
 * @param p90Ms 90th percentile latency, in milliseconds
 * @param p99Ms 99th percentile latency, in milliseconds
 * @param ops successful ops in the measurement windows (the JSON's {@code ops})
 * @param failedOps ops that failed after all their tries in the measurement windows (the JSON's
 *     {@code failedOps}; 0 when nothing failed)
 * @param retries tries after the first, in the measurement windows (0 with {@code maxTries(1)}, the
 *     default)
 * @param committedOps ops that committed over the whole trial, warmup included (what the data
 *     shows): the successful ones less those rolled back by design ({@link Op#rolledBackByDesign},
 *     TPC-C's New-Orders naming an unused item), as {@link StepFigures#committed()} counts a step's
 * @param totalFailedOps failed ops over the whole trial, warmup included
 * @param steps a workload class's steps ({@link Op#step}), in the order first run, each with its
 *     counts and latencies (TPC-C: the five transaction types); empty for any other workload
 * @param roundTripsPerOp round trips per op (the JSON's {@code perOp.roundTrips}): reads of the
 *     server's answer after the client wrote, counted at the connection's socket; an exact count,
 *     the same on any machine for the same ops; null where the sockets did not count (an
 *     application's DataSource)
 * @param statementsPerOp statements per op ({@code perOp.statements}): a script's as sent, a
 *     workload class's as the server completed them; null where unknown (a workload class under
 *     TLS)
 * @param serverMsPerOp the server's execution and planning time per op ({@code perOp.serverMs},
 *     pg_stat_statements over the measured window); null where the server did not say
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Trial(
    String target,
    Map<String, String> point,
    double tps,
    double p50Ms,
    double p90Ms,
    double p99Ms,
    long ops,
    long failedOps,
    long retries,
    long committedOps,
    long totalFailedOps,
    List<StepFigures> steps,
    Double roundTripsPerOp,
    Double statementsPerOp,
    Double serverMsPerOp) {

  /** Copies of the point and the steps, so that a trial stays as the run left it. */
  public Trial {
    point = Map.copyOf(point);
    steps = List.copyOf(steps);
  }

  /** The step of this name, or null when the ops named none such. */
  public StepFigures step(String name) {
    return steps.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
  }

  /** The API's view of one engine trial. */
  static Trial of(TrialResult t) {
    Measurement m = t.measurement();
    return new Trial(
        t.target(),
        t.point() == null ? Map.of() : t.point(),
        m.tps(),
        m.latencyMs().p50(),
        m.latencyMs().p90(),
        m.latencyMs().p99(),
        m.ops(),
        m.failedOps(),
        m.retries(),
        m.committedOps(),
        m.totalFailedOps(),
        steps(m),
        m.perOp() == null ? null : m.perOp().roundTrips(),
        m.perOp() == null ? null : m.perOp().statements(),
        m.perOp() == null ? null : m.perOp().serverMs());
  }

  /** A workload class's steps: its one script's commands, when they are steps. */
  private static List<StepFigures> steps(Measurement m) {
    if (m.scripts() == null || m.scripts().size() != 1 || m.scripts().get(0).commands() == null) {
      return List.of();
    }
    return m.scripts().get(0).commands().stream()
        .filter(CommandStats::step)
        .map(StepFigures::of)
        .toList();
  }

  /** Every trial of {@code run}, in the order they ran. */
  static List<Trial> all(BenchmarkRun run) {
    return run.trials().stream().map(Trial::of).toList();
  }

  /**
   * The run's one trial, for the accessors that describe it; with several, a refusal naming what to
   * call instead (so that a second target is never silently dropped).
   */
  static Trial only(BenchmarkRun run, String method) {
    List<TrialResult> all = run.trials();
    if (all.size() != 1) {
      throw new IllegalStateException(
          method
              + "() describes a run of one trial, this one has "
              + all.size()
              + " (targets "
              + all.stream().map(TrialResult::target).distinct().toList()
              + "): use trials().get(i)."
              + method
              + "()");
    }
    return of(all.get(0));
  }
}
