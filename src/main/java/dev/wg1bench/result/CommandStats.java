package dev.wg1bench.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.wg1bench.json.Histograms;
import dev.wg1bench.workload.OpCounts;
import org.HdrHistogram.Histogram;

/**
 * One command of a script over the measurement windows (pgbench -r's "statement latencies"): its
 * completed executions timed in the client, SQL and meta commands alike, and the failures and
 * retries it caused. For a workload class, one step its ops named ({@code op.step(name, ...)}),
 * with the same figures and a latency histogram besides.
 *
 * @param script 1-based index of its script (see {@link ScriptStats#index()})
 * @param line line it starts on in its script
 * @param location "FILE:LINE"
 * @param text the command's first line, as written
 * @param count completed executions (retried ones included, as pgbench counts them)
 * @param totalMs their summed latency
 * @param sumSquaresMs2 the sum of their squares, so merged figures keep an exact stddev
 * @param avgMs mean latency, null when it never completed
 * @param stddevMs standard deviation, null when it never completed
 * @param failures ops that failed on this command after all tries
 * @param retries retries its errors caused
 * @param step true for a workload class's step (line is its number, text its name)
 * @param p50Ms a step's median latency, from its histogram; null for a command
 * @param p99Ms a step's 99th percentile latency; null for a command
 * @param histogram a step's latencies in µs, HdrHistogram compressed and base64-encoded, so that
 *     agents' and saved figures merge exactly; null for a command
 * @param rolledBack of count, a step's completions its workload reported rolled back by design
 *     ({@code Op.rolledBackByDesign()}): successes that committed nothing; null for a command
 * @param wholeTrial a step's counts over the whole trial, warmup included (what the data shows;
 *     count, rolledBack, failures, retries as above); null for a command, and in results written
 *     before it was recorded
 * @param roundTrips round trips per execution: what the connection's socket saw while the step or
 *     command ran, over its executions measured there (completed or not, as {@link PerOp}'s over
 *     ops); null where none was (a socket that does not count, a command never reached) and in
 *     results written before it was recorded
 * @param statements statements per execution: a command's as the runner counted them (a statement
 *     once the server completed it: 1 for an SQL command, 0 for a meta command), over its completed
 *     executions; a step's as the socket saw the server complete them, over its executions whose
 *     protocol was readable (not under TLS); null where not counted
 * @param rows rows the server returned per execution, over the executions whose protocol was
 *     readable; null where not counted (TLS)
 * @param bytesSent bytes the client sent per execution, over the executions measured at the socket
 * @param bytesReceived bytes the client received per execution, as {@code bytesSent}
 */
public record CommandStats(
    int script,
    int line,
    String location,
    String text,
    long count,
    double totalMs,
    double sumSquaresMs2,
    Double avgMs,
    Double stddevMs,
    long failures,
    long retries,
    boolean step,
    Double p50Ms,
    Double p99Ms,
    String histogram,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long rolledBack,
    @JsonInclude(JsonInclude.Include.NON_NULL) StepCounts wholeTrial,
    Double roundTrips,
    Double statements,
    Double rows,
    Double bytesSent,
    Double bytesReceived) {

  /**
   * The one way a command's or a step's figures are built, as a view of its part of the counts
   * ({@code c}, and for a step {@code whole}, its part of the whole trial's): the mean and stddev
   * from the sums, the percentiles from the histogram where there is one (a step's), the wire
   * figures per execution as {@link PerOp} makes them per op (a command's statements the runner's,
   * per completed execution).
   */
  public static CommandStats of(
      int script,
      int line,
      String location,
      String text,
      boolean step,
      OpCounts c,
      OpCounts whole) {
    Histogram micros = c.histogram;
    boolean any = micros != null && micros.getTotalCount() > 0;
    double totalMs = c.latencyNanos / 1e6;
    double squaresMs2 = c.latencySquares / 1e12;
    PerOp wire = PerOp.of(c, false, null, null, null);
    // a command's statements are the runner's, counted as each completes (as pg_stat_statements
    // counts calls): over its completed executions, where a failed one counted none
    Double statements = step ? wire.statements() : PerOp.over(c.statements, c.ok);
    return new CommandStats(
        script,
        line,
        location,
        text,
        c.ok,
        totalMs,
        squaresMs2,
        ScriptStats.mean(c.ok, totalMs),
        ScriptStats.stddev(c.ok, totalMs, squaresMs2),
        c.failed,
        c.retries,
        step,
        any ? micros.getValueAtPercentile(50) / 1000.0 : null,
        any ? micros.getValueAtPercentile(99) / 1000.0 : null,
        micros == null ? null : Histograms.encode(micros),
        step ? c.rolledBack : null,
        step ? new StepCounts(whole.ok, whole.rolledBack, whole.failed, whole.retries) : null,
        wire.roundTrips(),
        statements,
        wire.rows(),
        wire.bytesSent(),
        wire.bytesReceived());
  }
}
