package dev.wg1bench.result;

/**
 * One measurement window (a JMH iteration of one fork): an op counts in it when it completed
 * between its start and end, the same instants for every client.
 *
 * @param startedAt when the window opened (ISO-8601, microseconds)
 * @param seconds its length
 * @param ops successful ops completed in it
 * @param failedOps failed ops completed in it
 * @param serverCommits pg_stat_database.xact_commit delta between the reads at its start and end
 *     (null if unreadable); backends publish their counts up to about a second late
 * @param serverSeconds time between those two reads (midpoints of their round trips)
 * @param walStart WAL insert position at the first read (null on a standby or if unreadable)
 * @param walEnd WAL insert position at the second read: the commit records in between whose
 *     timestamps fall in the window (pg_walinspect) count its writing transactions exactly
 */
public record Window(
    String startedAt,
    double seconds,
    long ops,
    long failedOps,
    Long serverCommits,
    Double serverSeconds,
    String walStart,
    String walEnd) {}
