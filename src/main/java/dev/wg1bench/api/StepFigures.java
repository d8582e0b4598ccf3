package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.wg1bench.result.CommandStats;
import org.apiguardian.api.API;

/**
 * The figures of one step of a workload class's ops, named by {@link Op#step}: for TPC-C, one
 * transaction type. The figures are the measured windows' (as {@link Trial#ops()}), the {@code
 * wholeTrial} counts the whole trial's, warmup included (as {@link Trial#committedOps()}): what the
 * data shows.
 *
 * @param name the step's name, as the op gave it
 * @param count completions in the measurement windows, rolled back by design included (a retried
 *     op's earlier attempts too)
 * @param rolledBack of count, the completions the op reported with {@link Op#rolledBackByDesign()}
 * @param failures ops that failed on this step after all their tries
 * @param retries retries this step's errors caused
 * @param p50Ms median latency of the step, in milliseconds; null when it never completed
 * @param p99Ms 99th percentile latency of the step, in milliseconds; null when it never completed
 * @param wholeTrial the same counts over the whole trial, warmup included
 * @param roundTrips round trips per execution of the step (reads of the server's answer after the
 *     client wrote, as {@link Trial#roundTripsPerOp()} per op), over its executions in the windows
 *     whose connection counted, completed or not; null where none did (an application's DataSource,
 *     a socketFactory of its own)
 * @param statements statements the server completed per execution of the step, over the executions
 *     whose protocol could be read; null where none could (TLS)
 * @param rows rows the server returned per execution of the step, over the same executions as
 *     {@code statements}; null where not counted
 * @param bytesSent bytes the client sent per execution, over the executions whose connection
 *     counted; null where none did
 * @param bytesReceived bytes the client received per execution, as {@code bytesSent}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record StepFigures(
    String name,
    long count,
    long rolledBack,
    long failures,
    long retries,
    Double p50Ms,
    Double p99Ms,
    Counts wholeTrial,
    Double roundTrips,
    Double statements,
    Double rows,
    Double bytesSent,
    Double bytesReceived) {

  /**
   * A step's counts over some span.
   *
   * @param count completions, rolled back by design included
   * @param rolledBack of count, those rolled back by design
   * @param failures ops that failed on the step after all their tries
   * @param retries retries its errors caused
   */
  @API(status = EXPERIMENTAL, since = "0.1")
  public record Counts(long count, long rolledBack, long failures, long retries) {
    /** Completions less those rolled back by design: what the step committed. */
    public long committed() {
      return count - rolledBack;
    }
  }

  /** Completions in the windows less those rolled back by design (TPC-C: NOPM's numerator). */
  public long committed() {
    return count - rolledBack;
  }

  /** The API's view of one step of a result; its whole-trial counts zero where none were kept. */
  static StepFigures of(CommandStats c) {
    var w = c.wholeTrial();
    return new StepFigures(
        c.text(),
        c.count(),
        c.rolledBack() == null ? 0 : c.rolledBack(),
        c.failures(),
        c.retries(),
        c.p50Ms(),
        c.p99Ms(),
        w == null
            ? new Counts(0, 0, 0, 0)
            : new Counts(w.count(), w.rolledBack(), w.failures(), w.retries()),
        c.roundTrips(),
        c.statements(),
        c.rows(),
        c.bytesSent(),
        c.bytesReceived());
  }
}
