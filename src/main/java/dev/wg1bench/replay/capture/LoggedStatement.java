package dev.wg1bench.replay.capture;

import java.time.Instant;
import java.util.List;

/**
 * One statement of a captured session, as the client sent it. A session's statements are kept in
 * the log's order, which is the order the backend ran them in, whatever the timestamps say.
 *
 * @param where file:line it was logged at
 * @param time when it started on the original server: the record's time when logged at its start
 *     (log_statement), its end less its duration when logged at its end (duration only)
 * @param end when it ended, where the log shows it (a duration or an error record), else null
 * @param sql its text as logged
 * @param parameters bound values $1.. of an extended-protocol execute (null values are SQL NULL),
 *     or null for a simple-protocol statement
 * @param logDurationMs duration the log gave it (log_min_duration_statement=0), or null
 * @param logSqlState SQLSTATE of the error the log shows for it, or null when it succeeded ("?????"
 *     when the log shows an error without its SQLSTATE)
 * @param skip why it cannot be replayed (see {@link Replayable}), or null
 * @param asSent the text sent instead of {@code sql} where it cannot go as logged but can go
 *     changed ({@link Replayable#asSent}), else null
 * @param xidAtStart the transaction id the line that logged its start carries (one an earlier
 *     statement of its transaction was given), 0 when none or its start was not logged
 * @param xidAtEnd the transaction id the line that logged its end carries (a duration or an error:
 *     an id this statement or an earlier one was given, still open), 0 when none
 */
public record LoggedStatement(
    String where,
    Instant time,
    Instant end,
    String sql,
    List<String> parameters,
    Double logDurationMs,
    String logSqlState,
    String skip,
    String asSent,
    long xidAtStart,
    long xidAtEnd) {

  /** What the replay sends. */
  public String sent() {
    return asSent != null ? asSent : sql;
  }

  /** What the log says its outcome was: "ok" or the SQLSTATE. */
  public String logOutcome() {
    return logSqlState == null ? "ok" : logSqlState;
  }

  boolean extended() {
    return parameters != null;
  }

  /** The same statement sent with other text and values (ids the capture's server gave). */
  LoggedStatement sending(String text, List<String> values) {
    return new LoggedStatement(
        where,
        time,
        end,
        sql,
        values,
        logDurationMs,
        logSqlState,
        skip,
        text,
        xidAtStart,
        xidAtEnd);
  }

  LoggedStatement ended(Instant at, Double durationMs, long xid) {
    return new LoggedStatement(
        where, time, at, sql, parameters, durationMs, logSqlState, skip, asSent, xidAtStart, xid);
  }

  LoggedStatement failed(Instant at, String sqlState, long xid) {
    return new LoggedStatement(
        where, time, at, sql, parameters, logDurationMs, sqlState, skip, asSent, xidAtStart, xid);
  }

  LoggedStatement skipped(String why) {
    return new LoggedStatement(
        where,
        time,
        end,
        sql,
        parameters,
        logDurationMs,
        logSqlState,
        why,
        asSent,
        xidAtStart,
        xidAtEnd);
  }

  LoggedStatement startingAt(Instant at) {
    return new LoggedStatement(
        where,
        at,
        end,
        sql,
        parameters,
        logDurationMs,
        logSqlState,
        skip,
        asSent,
        xidAtStart,
        xidAtEnd);
  }
}
