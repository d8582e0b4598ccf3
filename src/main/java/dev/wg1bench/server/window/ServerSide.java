package dev.wg1bench.server.window;

import java.util.List;

/**
 * What the server did over a measured window, each source with the one line why where it could not
 * be read (then its figures are null: unavailable, never zero).
 *
 * @param seconds how long the window was, from its start's snapshot to its end's
 * @param statements pg_stat_statements' statements of the window's database that ran in it, by
 *     total execution time, most first; null when unavailable
 * @param statementsWhy why the statements are unavailable or may be incomplete, or null
 * @param waits the clients' sessions as sampled from pg_stat_activity, as shares of their session
 *     time, largest first; null when unavailable
 * @param waitsWhy why the waits are unavailable, or null
 * @param sampleIntervalMs the sampling interval of {@code waits}
 * @param samples how many samples were taken
 * @param waitSampling pg_wait_sampling's profile of the clients' pids over the window, where that
 *     extension is installed and loaded; null otherwise
 * @param waitSamplingWhy why it is unavailable, or null
 * @param database the database's, the WAL's and the I/O's counters over the window; null when
 *     unavailable
 * @param databaseWhy why the database's counters are unavailable, or null
 */
public record ServerSide(
    double seconds,
    List<StatementFigures> statements,
    String statementsWhy,
    List<WaitShare> waits,
    String waitsWhy,
    double sampleIntervalMs,
    long samples,
    List<WaitShare> waitSampling,
    String waitSamplingWhy,
    DatabaseFigures database,
    String databaseWhy) {

  /**
   * One normalised statement over the window (times in ms). Planning time is null where the server
   * does not track it (before PostgreSQL 13, or pg_stat_statements.track_planning off: then it is
   * not zero, only not known); WAL bytes are null before PostgreSQL 13.
   */
  public record StatementFigures(
      String query,
      long calls,
      double totalExecMs,
      double meanExecMs,
      Double totalPlanMs,
      Double meanPlanMs,
      long rows,
      long sharedBlksHit,
      long sharedBlksRead,
      long sharedBlksDirtied,
      long sharedBlksWritten,
      long tempBlksRead,
      long tempBlksWritten,
      Long walBytes) {}

  /**
   * One state of the clients' sessions: {@code name} is {@code CPU} (active, waiting on nothing the
   * server instruments), a wait event as {@code Type:Event} ({@code Client:ClientRead} is a session
   * waiting for its client's next message: the network and the client), {@code idle in
   * transaction}, {@code idle}, or {@code unknown} (a session this role may not read); {@code kind}
   * is the part before the colon ({@code CPU}, {@code Client}, {@code Lock}, {@code LWLock}, {@code
   * IO}, {@code Timeout}, ...). {@code share} is its samples over all the clients' samples.
   */
  public record WaitShare(String name, String kind, long samples, double share) {}

  /**
   * The window's database (pg_stat_database), the server's WAL (pg_stat_wal, PostgreSQL 14+) and
   * I/O (pg_stat_io, 16+) over the window. Backends report these counters at most once a second
   * (PostgreSQL 15+: at the end of a transaction, after 1 s since the last report), so the last
   * second of the window may be missing from them. Null fields: the server has no such view.
   *
   * @param transactionsPerMinute commits and rollbacks per minute (HammerDB's TPM); null for a
   *     window of no length
   */
  public record DatabaseFigures(
      long xactCommit,
      long xactRollback,
      Double transactionsPerMinute,
      long blksRead,
      long blksHit,
      long tupReturned,
      long tupFetched,
      long tupInserted,
      long tupUpdated,
      long tupDeleted,
      long tempFiles,
      long tempBytes,
      long deadlocks,
      long conflicts,
      Long walRecords,
      Long walFpi,
      Long walBytes,
      Long walBuffersFull,
      String walWhy,
      List<IoFigures> io,
      String ioWhy) {}

  /** One pg_stat_io row's change over the window (rows that did not change are left out). */
  public record IoFigures(
      String backendType,
      String object,
      String context,
      long reads,
      long writes,
      long extended,
      long hits,
      long evictions,
      long fsyncs) {}

  /** Server time per op: the statements' execution and planning time over {@code ops}. */
  public Double serverMsPerOp(long ops) {
    if (statements == null || ops <= 0) {
      return null;
    }
    double ms = 0;
    for (StatementFigures s : statements) {
      ms += s.totalExecMs() + (s.totalPlanMs() == null ? 0 : s.totalPlanMs());
    }
    return ms / ops;
  }
}
