package dev.wg1bench.replay.capture;

import dev.wg1bench.replay.log.Problems;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a log holds for replay: the selected client sessions, and counts of everything left out and
 * why, so a replay can say how much of the capture it covers.
 *
 * @param formats each file and the format it was read as
 * @param records log records read
 * @param leftOut statements (or background-process records) left out, by reason
 * @param sessionsNotSelected sessions the --database/--user/--application-name selection left out
 * @param sessionsWithoutEnd selected sessions whose disconnection the log does not show
 * @param logErrors errors (ERROR/FATAL) of the selected sessions by SQLSTATE ("?????" when the log
 *     format does not carry one)
 * @param durationsLogged statements with a duration in the log
 * @param problems lines and records that could not be read, with file:line
 * @param deadlocks the deadlocks the log shows, each with its cycle ({@link LoggedDeadlock})
 */
public record Capture(
    List<LoggedSession> sessions,
    Map<String, String> formats,
    long records,
    Map<String, Long> leftOut,
    long sessionsNotSelected,
    long sessionsWithoutEnd,
    Map<String, Long> logErrors,
    long durationsLogged,
    Problems problems,
    List<LoggedDeadlock> deadlocks) {

  public long statements() {
    return sessions.stream().mapToLong(s -> s.statements().size()).sum();
  }

  /** The capture with every transaction block that holds a COPY FROM STDIN skipped whole. */
  public Capture skippingCopyBlocks() {
    return CopyBlocks.skip(this);
  }

  /** Statements the replay will not send (see {@link Replayable}), counted. */
  public long notReplayable() {
    return sessions.stream()
        .flatMap(s -> s.statements().stream())
        .filter(st -> st.skip() != null)
        .count();
  }

  /** The reasons statements will not be sent, with their counts. */
  public Map<String, Long> notReplayableByReason() {
    Map<String, Long> out = new TreeMap<>();
    for (LoggedSession s : sessions) {
      for (LoggedStatement st : s.statements()) {
        if (st.skip() != null) {
          out.merge(st.skip(), 1L, Long::sum);
        }
      }
    }
    return out;
  }

  /** Statements sent changed ({@link LoggedStatement#asSent}), counted. */
  public long rewritten() {
    return sessions.stream()
        .flatMap(s -> s.statements().stream())
        .filter(st -> st.asSent() != null && st.skip() == null)
        .count();
  }

  /** True when the log shows errors without their SQLSTATE (stderr without %e). */
  public boolean sqlStatesMissing() {
    return logErrors.containsKey(CaptureBuilder.UNKNOWN_STATE);
  }

  public long transactions() {
    return sessions.stream().mapToLong(LoggedSession::transactions).sum();
  }

  /**
   * Statements that change data or schema, by kind (INSERT, UPDATE, DELETE, DDL, ...), in the order
   * first seen: a replay of them changes the target, so trials after the first start from another
   * state unless the target is restored (--fresh). Empty when the capture only reads.
   */
  public Map<String, Long> dataChanges() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (LoggedSession s : sessions) {
      for (LoggedStatement st : s.statements()) {
        String kind = StatementKind.dataChange(st.sql());
        if (kind != null) {
          out.merge(kind, 1L, Long::sum);
        }
      }
    }
    return out;
  }

  /** First event of the selected sessions. */
  public Instant start() {
    return sessions.stream()
        .map(LoggedSession::connected)
        .min(Instant::compareTo)
        .orElse(Instant.EPOCH);
  }

  /** Last event of the selected sessions: a disconnection or a statement. */
  public Instant end() {
    Instant end = start();
    for (LoggedSession s : sessions) {
      if (s.disconnected() != null && s.disconnected().isAfter(end)) {
        end = s.disconnected();
      }
      for (LoggedStatement st : s.statements()) {
        if (st.time().isAfter(end)) {
          end = st.time();
        }
      }
    }
    return end;
  }

  /**
   * The most sessions the log held open at once: each from its connection to its disconnection
   * (else its last statement), a connection counted before a disconnection at the same instant.
   * What a replay opens at most, with a connection per session: a log of many short sessions that
   * never overlap needs one, whatever its number of sessions. At least 1.
   */
  public int concurrentSessions() {
    List<long[]> events = new ArrayList<>(2 * sessions.size());
    for (LoggedSession s : sessions) {
      Instant last = s.disconnected() != null ? s.disconnected() : s.connected();
      for (LoggedStatement st : s.statements()) {
        Instant t = st.end() != null ? st.end() : st.time();
        if (t.isAfter(last)) {
          last = t;
        }
      }
      events.add(new long[] {micros(s.connected()), 1});
      events.add(new long[] {micros(last), -1});
    }
    // at one instant connections first: two sessions that touch are counted as overlapping
    events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(b[1], a[1]));
    int open = 0;
    int most = 1;
    for (long[] e : events) {
      open += (int) e[1];
      most = Math.max(most, open);
    }
    return most;
  }

  private static long micros(Instant t) {
    return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
  }

  /** Time the capture spans, first event to last. */
  public Duration span() {
    return Duration.between(start(), end());
  }
}
