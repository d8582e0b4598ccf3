package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.LogOrder;
import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.replay.capture.LoggedStatement;
import dev.wg1bench.replay.capture.SqlText;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a statement that waited for a row lock in the capture took effect: when it got the lock, not
 * when it was sent. PostgreSQL does not grant a row lock strictly in the order it was asked for:
 * when the holder commits, a statement arriving at that moment can take the row before the one that
 * had been waiting wakes up. A log of many sessions updating the same rows holds such grants every
 * few transactions. Replayed from its start, the waiting statement would get the row first, and the
 * statement that got it in the capture would then wait behind a transaction that, in the log, came
 * after it: a lock cycle through the order between sessions that only the watchdog can see and let
 * go.
 *
 * <p>So a statement that can wait for a row lock (UPDATE, DELETE, MERGE, SELECT ... FOR
 * UPDATE/SHARE, LOCK) is sent once everything that ended before it got its lock has ended: the
 * {@link Schedule} waits for the ends before its grant (see {@link #grants}), on top of those
 * before its start, a transaction's end counted once sent. Those statements ended while its
 * transaction held its earlier locks, so they never need one of them: the extra wait forms no
 * cycle. Every such statement, not only those whose duration shows a wait: on a log of many
 * sessions queued on a few hot rows most statements wait, so no duration is "uncontended" (telling
 * a wait by three times the relation's 10th percentile, as before, missed waits of 1.5 ms where the
 * 10th percentile was 1 ms, and each miss could flip two grants into a lock cycle); for one that
 * took its lock at once the extra wait is for what ended while it ran, mostly done already. A log
 * without durations shows no grant: its statements keep their starts.
 */
final class LockWaits {
  private static final String NAME =
      "(?:only\\s+)?((?:\"[^\"]+\"|[\\w$]+)(?:\\.(?:\"[^\"]+\"|[\\w$]+))?)";
  private static final Pattern TARGET =
      Pattern.compile(
          "^(?:update\\s+"
              + NAME
              + "|delete\\s+from\\s+"
              + NAME
              + "|merge\\s+into\\s+"
              + NAME
              + "|lock\\s+(?:table\\s+)?"
              + NAME
              + ")",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern LOCKING_SELECT =
      Pattern.compile(
          "^select\\b.*?\\bfrom\\s+"
              + NAME
              + ".*\\bfor\\s+(?:no\\s+key\\s+|key\\s+)?(?:update|share)\\b",
          Pattern.CASE_INSENSITIVE);

  private LockWaits() {}

  /**
   * Per session, per statement: what it waits for in the replay after its start, the time whose
   * ends before it must be done, for a statement that can wait for a row lock; null for one that
   * cannot (or whose log shows no duration). The time is its end: the grant came within its
   * uncontended duration of it, a log keeps times to the millisecond only (ordered within one by
   * {@link LogOrder}), and what ended between its grant and its end ended while its transaction
   * held every lock it took, so it needs none of them either.
   */
  static Instant[][] grants(List<LoggedSession> sessions) {
    Instant[][] out = new Instant[sessions.size()][];
    for (int s = 0; s < sessions.size(); s++) {
      List<LoggedStatement> st = sessions.get(s).statements();
      out[s] = new Instant[st.size()];
      for (int i = 0; i < st.size(); i++) {
        LoggedStatement x = st.get(i);
        if (x.skip() == null
            && x.logDurationMs() != null
            && x.end() != null
            && relation(x.sent()) != null) {
          out[s][i] = x.end();
        }
      }
    }
    return out;
  }

  /**
   * The relation a statement may wait for a row lock on, as written (unquoted names in lower case,
   * as the server folds them), or null for a statement that takes no row lock another transaction
   * can hold (a plain SELECT, an INSERT, a transaction control).
   */
  static String relation(String sql) {
    String s = SqlText.stripComments(sql).strip().replaceAll("\\s+", " ");
    Matcher m = TARGET.matcher(s);
    if (!m.find()) {
      m = LOCKING_SELECT.matcher(s);
      if (!m.find()) {
        return null;
      }
    }
    for (int g = 1; g <= m.groupCount(); g++) {
      if (m.group(g) != null) {
        // unquoted names fold to lower case, as the server folds them; quoted ones are kept
        String name = m.group(g);
        return name.contains("\"") ? name : name.toLowerCase(Locale.ROOT);
      }
    }
    return null;
  }
}
