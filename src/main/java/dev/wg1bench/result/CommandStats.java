package dev.wg1bench.result;

/**
 * One command of a script over the measurement windows (pgbench -r's "statement latencies"): its
 * completed executions timed in the client, SQL and meta commands alike, and the failures and
 * retries it caused.
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
    long retries) {

  public static CommandStats of(
      int script,
      int line,
      String location,
      String text,
      long count,
      double totalMs,
      double sumSquaresMs2,
      long failures,
      long retries) {
    return new CommandStats(
        script,
        line,
        location,
        text,
        count,
        totalMs,
        sumSquaresMs2,
        ScriptStats.mean(count, totalMs),
        ScriptStats.stddev(count, totalMs, sumSquaresMs2),
        failures,
        retries);
  }
}
