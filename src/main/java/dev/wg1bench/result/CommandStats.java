package dev.wg1bench.result;

import dev.wg1bench.workload.StepCounts;

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
    @com.fasterxml.jackson.annotation.JsonInclude(
            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        Long rolledBack,
    @com.fasterxml.jackson.annotation.JsonInclude(
            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        StepCounts wholeTrial) {

  /**
   * A command's or a step's figures as they add up: the sums, counts and (for a step) the histogram
   * of µs that the mean, stddev and percentiles are read from, and a step's whole-trial counts
   * (null for a command).
   */
  public record Sums(
      long count,
      double totalMs,
      double sumSquaresMs2,
      long failures,
      long retries,
      long rolledBack,
      org.HdrHistogram.Histogram micros,
      StepCounts whole) {

    /** Both parts' figures as one: sums added, histograms merged where there are any. */
    Sums plus(Sums y) {
      org.HdrHistogram.Histogram h = micros == null ? null : micros.copy();
      if (y.micros() != null) {
        if (h == null) {
          h = y.micros().copy();
        } else {
          h.add(y.micros());
        }
      }
      return new Sums(
          count + y.count(),
          totalMs + y.totalMs(),
          sumSquaresMs2 + y.sumSquaresMs2(),
          failures + y.failures(),
          retries + y.retries(),
          rolledBack + y.rolledBack(),
          h,
          whole == null ? y.whole() : whole.plus(y.whole()));
    }
  }

  /**
   * The one way a command's figures are built: the mean and stddev from the sums, the percentiles
   * from the histogram where there is one (a step's).
   */
  public static CommandStats of(
      int script, int line, String location, String text, boolean step, Sums f) {
    org.HdrHistogram.Histogram micros = f.micros();
    boolean any = micros != null && micros.getTotalCount() > 0;
    return new CommandStats(
        script,
        line,
        location,
        text,
        f.count(),
        f.totalMs(),
        f.sumSquaresMs2(),
        ScriptStats.mean(f.count(), f.totalMs()),
        ScriptStats.stddev(f.count(), f.totalMs(), f.sumSquaresMs2()),
        f.failures(),
        f.retries(),
        step,
        any ? micros.getValueAtPercentile(50) / 1000.0 : null,
        any ? micros.getValueAtPercentile(99) / 1000.0 : null,
        micros == null ? null : Histograms.encode(micros),
        step ? f.rolledBack() : null,
        step ? f.whole() : null);
  }

  /** The figures this was built from (the histogram decoded). */
  public Sums sums() {
    return new Sums(
        count,
        totalMs,
        sumSquaresMs2,
        failures,
        retries,
        rolledBack == null ? 0 : rolledBack,
        histogram == null ? null : Histograms.decode(histogram),
        wholeTrial);
  }

  /**
   * This command's figures and another part's of the same command (another client, fork or agent)
   * as one; a step stays a step.
   */
  public CommandStats plus(CommandStats y) {
    return of(script, line, location, text, step || y.step(), sums().plus(y.sums()));
  }
}
