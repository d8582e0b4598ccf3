package dev.wg1bench.replay.log;

import java.time.Instant;

/**
 * One message of a server log, whatever format it came in: the csvlog columns and jsonlog keys
 * replay needs (PostgreSQL 15 names), stderr's prefix escapes mapped onto the same fields.
 *
 * @param where file:line of the record's first line, for messages about it
 * @param time log_time (csvlog), timestamp (jsonlog), %m or %t (stderr)
 * @param backendType "client backend", "autovacuum worker", ...; null when the format has none
 * @param sqlState five-character SQLSTATE, or null when the log does not carry it
 * @param query the statement an error is about (csvlog query, stderr STATEMENT:), or null
 * @param context the CONTEXT of a message (bind values of a failed statement), or null
 * @param transactionId the id of the transaction the backend was in when it logged the record
 *     (csvlog transaction_id, jsonlog txid, stderr %x), 0 when it had none yet or the log does not
 *     carry it
 */
public record LogRecord(
    String where,
    Instant time,
    String user,
    String database,
    String sessionId,
    String applicationName,
    String backendType,
    String severity,
    String sqlState,
    String message,
    String detail,
    String query,
    String context,
    long transactionId) {

  /** ERROR, FATAL or PANIC: the statement (or connection) failed. */
  public boolean isError() {
    return "ERROR".equals(severity) || "FATAL".equals(severity) || "PANIC".equals(severity);
  }
}
