package dev.wg1bench.replay.capture;

import dev.wg1bench.replay.log.LogRecord;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Gives the records that share a log time distinct times, in the log's own order. Log times are
 * kept to the millisecond (csvlog, jsonlog, %m; %t to the second), so a busy server writes many
 * records with one time, and the schedule could not tell which came first: a statement of one
 * session logged just after another session's statement ended, in the same millisecond, would not
 * wait for that end in the replay, and the two could take a row lock in the other order (then the
 * order between sessions waits on a lock cycle the capture never had). The server writes each
 * record as it happens, every backend through the one logging pipe, so the order of the records of
 * one time is the order things happened in: the n-th record of a time is placed n nanoseconds after
 * it, far below any log's resolution, so no figure the replay reports moves.
 */
public final class LogOrder {
  /** Times remembered: a record is never this many distinct times out of the log's order. */
  private static final int REMEMBERED = 1024;

  private final Map<Instant, Integer> seen =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Instant, Integer> eldest) {
          return size() > REMEMBERED;
        }
      };

  /** The record, at its time plus the number of records read before it at the same time (ns). */
  LogRecord place(LogRecord r) {
    if (r.time() == null) {
      return r;
    }
    int before = seen.merge(r.time(), 1, Integer::sum) - 1;
    if (before == 0) {
      return r;
    }
    return new LogRecord(
        r.where(),
        r.time().plusNanos(before),
        r.user(),
        r.database(),
        r.sessionId(),
        r.applicationName(),
        r.backendType(),
        r.severity(),
        r.sqlState(),
        r.message(),
        r.detail(),
        r.query(),
        r.context(),
        r.transactionId());
  }
}
