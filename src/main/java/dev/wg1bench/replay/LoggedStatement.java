package dev.wg1bench.replay;

import java.time.Instant;
import java.util.List;

/**
 * One statement of a captured session, as the client sent it.
 *
 * @param where file:line it was logged at
 * @param time when it started on the original server
 * @param sql its text as logged
 * @param parameters bound values $1.. of an extended-protocol execute (null values are SQL NULL),
 *     or null for a simple-protocol statement
 * @param logDurationMs duration the log gave it (log_min_duration_statement=0), or null
 * @param logSqlState SQLSTATE of the error the log shows for it, or null when it succeeded
 */
public record LoggedStatement(
    String where,
    Instant time,
    String sql,
    List<String> parameters,
    Double logDurationMs,
    String logSqlState) {

  boolean extended() {
    return parameters != null;
  }

  LoggedStatement withDuration(double ms) {
    return new LoggedStatement(where, time, sql, parameters, ms, logSqlState);
  }

  LoggedStatement withError(String sqlState) {
    return new LoggedStatement(where, time, sql, parameters, logDurationMs, sqlState);
  }
}
