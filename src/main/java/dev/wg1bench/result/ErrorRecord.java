package dev.wg1bench.result;

/**
 * A distinct error seen during the trial.
 *
 * @param kind serialization, deadlock, connection, script, pooler or other
 * @param count occurrences, retried ones included
 * @param retried occurrences a retry cured (they did not fail an op)
 * @param phase setup (a client that could not start), warmup or measurement
 * @param lastAt when it was last seen (with firstAt, the window it happened in)
 */
public record ErrorRecord(
    String kind,
    String sqlState,
    String firstMessage,
    String firstAt,
    long count,
    long retried,
    String phase,
    String lastAt) {}
