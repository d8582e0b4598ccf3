package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.replay.capture.LoggedStatement;
import dev.wg1bench.replay.capture.SqlText;
import dev.wg1bench.replay.capture.Transactions;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Which of a session's starts and ends the order between sessions keeps ({@link Schedule}): those
 * another session can see, or contend with. The rest are left to run as soon as their own session
 * and the clock let them: keeping them adds a hand-off between threads per statement and, on a log
 * of a few busy sessions, holds the replay to its slowest session's round trips.
 *
 * <p><b>Ends</b>. Inside a transaction block, what a statement writes stays invisible to other
 * sessions until the block ends, and where another session needed one of its locks, that session
 * waited in the log (its grant is kept, {@link LockWaits}). So the ends that order are a
 * statement's that ends a block (COMMIT, ROLLBACK, PREPARE TRANSACTION) or runs outside one (it is
 * its own transaction), ROLLBACK TO (it lets go of locks), and, inside a block, a statement whose
 * effect is not transactional: a sequence drawn (nextval, setval, and an INSERT, COPY or MERGE,
 * also under WITH or EXPLAIN ANALYZE, which may draw one through a column default), an advisory
 * lock, a transaction id read, a notification, a statement not replayed (its effect unknown). A
 * sequence drawn out of sight inside a block, by a trigger of an UPDATE or DELETE or by a function
 * a statement calls, is not seen in the text: two sessions may then draw in another order than the
 * capture's.
 *
 * <p><b>Keys</b>. An INSERT (COPY, MERGE) may wait for a key another session's open block holds
 * after a DELETE: the same key in a unique index, or a child row's foreign key to the deleted
 * parent. It names no row it locks, so it has no lock grant ({@link LockWaits}) to keep that order,
 * and a DELETE's end inside a block orders no one else. So an INSERT also waits for every DELETE of
 * another session that ended before it started ({@link #holdsKeys}, {@link #waitsForKeys}): it then
 * fails the foreign key, or goes in once the key is free, as it did in the capture, instead of
 * taking the key first and leaving the DELETE waiting on a session that waits at the order for it.
 * Only an INSERT waits for them: every start waiting for every DELETE put a hand-off into each
 * transaction of a log that deletes on a hot row. An UPDATE that moves a key holds it the same way;
 * the text does not tell which columns are keys, so its end is not kept.
 *
 * <p><b>Starts</b>. Starts are kept in the log's order so that statements that overlapped ask for
 * their locks in the capture's order. A statement that asks for no lock another session's could
 * conflict with needs no place in that order: transaction control (BEGIN, COMMIT, ROLLBACK without
 * TO, SAVEPOINT, RELEASE), SET, SHOW and RESET, and a plain SELECT (no function call, no locking
 * clause, no INTO: its one lock, ACCESS SHARE, conflicts only with ACCESS EXCLUSIVE, which a
 * statement takes for DDL, whose own start keeps its place). Nor does an INSERT of plain values
 * into a table the target's catalog shows plain ({@link TableFacts}: no key, foreign key, trigger,
 * rule or sequence), in a log without DDL or LOCK: it asks for no row lock, and no key. Its end
 * still orders (as any INSERT's: the text does not say whether a trigger elsewhere draws a
 * sequence), and that is what its block's later grants rely on: a session's row locks taken before
 * the INSERT are all held once it ends, where the block's COMMIT, logged once it has let go of
 * them, may be logged after the next holder got them. Left out of the order, that INSERT's end let
 * the next holder of pgbench's branch row go first, and the replay met lock cycles the capture did
 * not have (12-39 on the 4-client test log).
 */
final class OrderedEvents {
  private OrderedEvents() {}

  private static final Pattern NOT_TRANSACTIONAL =
      Pattern.compile(
          "\\b(nextval|setval|pg_advisory_\\w*|pg_try_advisory_\\w*|txid_current\\w*"
              + "|pg_current_xact_id\\w*|pg_notify|notify|dblink\\w*)\\b");

  private static final Pattern DRAWS_A_SEQUENCE =
      Pattern.compile("(?s)((with|explain)\\b.*)?\\b(insert|copy|merge)\\b.*");

  private static final Pattern DELETES = Pattern.compile("(?s)(with\\b.*)?\\bdelete\\b.*");

  private static final Pattern ROLLBACK_TO =
      Pattern.compile("(?s)rollback\\s+((work|transaction)\\s+)?to\\b.*");

  private static final Pattern NO_LOCK =
      Pattern.compile(
          "(?s)(begin|start\\s+transaction|commit|end|abort|savepoint|release|set|show|reset)\\b.*");

  private static final Pattern TRANSACTION_END =
      Pattern.compile(
          "(?s)(commit|end|abort|rollback)(\\s+(work|transaction))?(\\s+and\\s+(no\\s+)?chain)?"
              + "\\s*;?\\s*");

  private static final Pattern PLAIN_SELECT = Pattern.compile("(?s)select\\b[^(]*");

  private static final Pattern LOCKING_OR_INTO =
      Pattern.compile("\\b(for\\s+(update|share|no\\s+key\\s+update|key\\s+share)|into)\\b");

  /** Per statement of the session: whether its end orders other sessions' starts. */
  static boolean[] ends(LoggedSession s) {
    List<LoggedStatement> st = s.statements();
    boolean[] out = new boolean[st.size()];
    Transactions.Counter tx = new Transactions.Counter();
    for (int i = 0; i < st.size(); i++) {
      LoggedStatement x = st.get(i);
      boolean endsATransaction = tx.add(x.sent()) > 0;
      out[i] = endsATransaction || x.skip() != null || anyPart(x.sent(), OrderedEvents::visible);
    }
    return out;
  }

  /**
   * Per statement of the session: whether it is a DELETE inside a block whose end orders no other
   * start, but which holds the keys it deleted for an INSERT ({@link #waitsForKeys}).
   */
  static boolean[] holdsKeys(LoggedSession s) {
    boolean[] orders = ends(s);
    List<LoggedStatement> st = s.statements();
    boolean[] out = new boolean[st.size()];
    for (int i = 0; i < st.size(); i++) {
      out[i] = !orders[i] && anyPart(st.get(i).sent(), t -> DELETES.matcher(t).matches());
    }
    return out;
  }

  /**
   * Per statement of the session: whether it may wait for a key a DELETE holds (an INSERT, COPY or
   * MERGE, also under WITH or EXPLAIN ANALYZE), so its start waits for the DELETEs before it.
   */
  static boolean[] waitsForKeys(LoggedSession s) {
    return waitsForKeys(s, new boolean[s.statements().size()]);
  }

  /**
   * The same, but an INSERT into a plain table ({@code plain}, {@link TableFacts#plainInsert})
   * waits for no DELETE: the table has no key, and no foreign key, it could wait for.
   */
  static boolean[] waitsForKeys(LoggedSession s, boolean[] plain) {
    List<LoggedStatement> st = s.statements();
    boolean[] out = new boolean[st.size()];
    for (int i = 0; i < st.size(); i++) {
      out[i] =
          st.get(i).skip() == null
              && !plain[i]
              && anyPart(st.get(i).sent(), t -> DRAWS_A_SEQUENCE.matcher(t).matches());
    }
    return out;
  }

  /** Per statement of the session: whether its start keeps its place among other starts. */
  static boolean[] starts(LoggedSession s) {
    return starts(s, new boolean[s.statements().size()]);
  }

  /**
   * The same, where an INSERT into a plain table ({@code plain}, {@link TableFacts#plainInsert})
   * keeps no place: it asks for no lock another statement's could conflict with but the table's,
   * which only DDL, LOCK and the like ask for, and a log with any of them gets no plain table.
   */
  static boolean[] starts(LoggedSession s, boolean[] plain) {
    List<LoggedStatement> st = s.statements();
    boolean[] out = new boolean[st.size()];
    for (int i = 0; i < st.size(); i++) {
      LoggedStatement x = st.get(i);
      out[i] = x.skip() != null || !plain[i] && anyPart(x.sent(), OrderedEvents::mayLock);
    }
    return out;
  }

  /**
   * Per statement of the session: whether it is a transaction block's end and nothing else (COMMIT,
   * END, ROLLBACK or ABORT, outside of which the session has nothing open): sent, it ends by itself
   * and lets go of every row lock its transaction took, whatever another session asks for. A lock's
   * grant may wait for it to be sent rather than to end ({@link Schedule#endLetsGo}): the statement
   * that waited for that lock in the capture then queues for it in the server as it did, and gets
   * it when it is let go, without a round trip to the committing session's client first. A COMMIT
   * that runs deferred triggers can itself wait for a lock; the lock cycle check covers it.
   */
  static boolean[] letsGo(LoggedSession s) {
    List<LoggedStatement> st = s.statements();
    boolean[] out = new boolean[st.size()];
    for (int i = 0; i < st.size(); i++) {
      LoggedStatement x = st.get(i);
      String sql = SqlText.stripComments(x.sent()).strip().toLowerCase(Locale.ROOT);
      out[i] = x.skip() == null && TRANSACTION_END.matcher(sql).matches();
    }
    return out;
  }

  /** A statement inside a block whose effect another session sees before the block ends. */
  private static boolean visible(String s) {
    return ROLLBACK_TO.matcher(s).matches()
        || NOT_TRANSACTIONAL.matcher(s).find()
        || DRAWS_A_SEQUENCE.matcher(s).matches();
  }

  /** A statement that may ask for a lock another session's statement could conflict with. */
  private static boolean mayLock(String s) {
    if (ROLLBACK_TO.matcher(s).matches()) {
      return true;
    }
    if (s.startsWith("rollback") || NO_LOCK.matcher(s).matches()) {
      return false;
    }
    return !PLAIN_SELECT.matcher(s).matches() || LOCKING_OR_INTO.matcher(s).find();
  }

  /**
   * Whether every part of the statement controls the transaction or the session only (BEGIN,
   * COMMIT, ROLLBACK, SAVEPOINT, SET, SHOW and the like): it reads and locks no row ({@link
   * Footprints}).
   */
  static boolean controlOnly(String sql) {
    return !anyPart(sql, s -> !s.startsWith("rollback") && !NO_LOCK.matcher(s).matches());
  }

  private static boolean anyPart(String sql, Predicate<String> test) {
    for (String part : SqlText.parts(sql)) {
      String s = SqlText.stripComments(part).strip().toLowerCase(Locale.ROOT);
      if (!s.isEmpty() && test.test(s)) {
        return true;
      }
    }
    return false;
  }
}
