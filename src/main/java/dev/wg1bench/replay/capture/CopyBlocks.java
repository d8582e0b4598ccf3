package dev.wg1bench.replay.capture;

import java.util.ArrayList;
import java.util.List;

/**
 * A COPY FROM STDIN cannot be replayed (its rows are not in the log). By default only the COPY is
 * skipped and its transaction block goes on without the rows; this skips the whole block instead
 * (BEGIN to COMMIT or ROLLBACK), so nothing of that transaction runs on other data than it had.
 */
final class CopyBlocks {
  private CopyBlocks() {}

  static Capture skip(Capture c) {
    List<LoggedSession> sessions = new ArrayList<>();
    for (LoggedSession s : c.sessions()) {
      sessions.add(
          new LoggedSession(
              s.id(),
              s.user(),
              s.database(),
              s.applicationName(),
              s.connected(),
              s.disconnected(),
              skip(s.statements())));
    }
    return new Capture(
        List.copyOf(sessions),
        c.formats(),
        c.records(),
        c.leftOut(),
        c.sessionsNotSelected(),
        c.sessionsWithoutEnd(),
        c.logErrors(),
        c.durationsLogged(),
        c.problems(),
        c.deadlocks());
  }

  private static List<LoggedStatement> skip(List<LoggedStatement> statements) {
    List<LoggedStatement> out = new ArrayList<>(statements);
    Transactions.Counter tx = new Transactions.Counter();
    int start = -1;
    for (int i = 0; i < out.size(); i++) {
      boolean wasIn = tx.inBlock();
      tx.add(out.get(i).sql());
      if (!wasIn && tx.inBlock()) {
        start = i;
      }
      if (wasIn && !tx.inBlock()) {
        mark(out, start, i);
        start = -1;
      }
    }
    if (start >= 0) {
      mark(out, start, out.size() - 1);
    }
    return List.copyOf(out);
  }

  /** Skips statements from..to when one of them is a COPY FROM STDIN. */
  private static void mark(List<LoggedStatement> out, int from, int to) {
    boolean copy = false;
    for (int i = from; i <= to; i++) {
      copy |= Replayable.COPY_IN.equals(out.get(i).skip());
    }
    if (!copy) {
      return;
    }
    for (int i = from; i <= to; i++) {
      if (out.get(i).skip() == null) {
        out.set(i, out.get(i).skipped(Replayable.IN_COPY_BLOCK));
      }
    }
  }
}
