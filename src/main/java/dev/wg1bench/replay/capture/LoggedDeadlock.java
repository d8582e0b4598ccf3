package dev.wg1bench.replay.capture;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deadlock the log shows: the victim's 40P01 error, whose DETAIL names every backend of the cycle
 * ("Process 5305 waits for ShareLock on transaction 1197; blocked by process 5303.", one line per
 * wait). The server chooses the victim by time (each waiting backend checks once, {@code
 * deadlock_timeout} after it began to wait, and the first check to find the cycle fails its own
 * statement), so a replay keeps the capture's victim only if it knows the cycle: which statement
 * failed and which statements, in other sessions, were waiting in it.
 *
 * @param session the victim's session id (the log's %c)
 * @param at when the victim's statement failed (its error record's time, placed by {@link
 *     LogOrder})
 * @param others the process ids of the cycle's other backends, as the DETAIL names them
 * @param behind of them, those queued behind the victim for the row its statement waited for
 *     ("waits for ExclusiveLock on tuple ...; blocked by process" the victim): they asked for it
 *     after the victim did, where the others hold what the victim waits for
 */
public record LoggedDeadlock(String session, Instant at, List<Long> others, List<Long> behind) {
  private static final Pattern WAIT =
      Pattern.compile("Process (\\d+) waits for ([^\\n]*?); blocked by process (\\d+)\\.");

  /**
   * The deadlock a 40P01 error's DETAIL shows, or null when the DETAIL names no other backend (a
   * log without it, or one whose format differs).
   */
  static LoggedDeadlock of(String session, Instant at, String detail) {
    if (detail == null) {
      return null;
    }
    Long victim = pid(session);
    List<Long> others = new ArrayList<>();
    List<Long> behind = new ArrayList<>();
    Matcher m = WAIT.matcher(detail);
    while (m.find()) {
      long waiter = Long.parseLong(m.group(1));
      long blocker = Long.parseLong(m.group(3));
      for (long pid : new long[] {waiter, blocker}) {
        if (!others.contains(pid) && (victim == null || pid != victim)) {
          others.add(pid);
        }
      }
      if (victim != null
          && blocker == victim
          && waiter != victim
          && m.group(2).startsWith("ExclusiveLock on tuple")) {
        behind.add(waiter);
      }
    }
    return others.isEmpty()
        ? null
        : new LoggedDeadlock(session, at, List.copyOf(others), List.copyOf(behind));
  }

  /**
   * The backend's process id a session id carries ("6b169eb4.14b9": the backend's start time and
   * its pid, both in hex), or null for one not of that form.
   */
  public static Long pid(String session) {
    int dot = session.indexOf('.');
    if (dot < 0) {
      return null;
    }
    try {
      return Long.parseLong(session.substring(dot + 1), 16);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
