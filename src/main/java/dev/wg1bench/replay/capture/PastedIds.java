package dev.wg1bench.replay.capture;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Ids the capture's server gave that a client read and pasted into later statements, as psql's
 * {@code \gset} does in PostgreSQL's own tests; the replay's server gives other ones, so a pasted
 * literal would name something else there. Two kinds are found:
 *
 * <ul>
 *   <li><b>Transaction ids</b> ({@code pg_current_xact_id()}, {@code txid_current()}, then {@code
 *       pg_xact_status(724::xid8)}): the replay's sessions interleave otherwise, even on a copy of
 *       the capture's cluster, so the literal names another transaction, or one not yet begun
 *       ("transaction ID N is in the future"). The log shows which id each transaction had (csvlog
 *       transaction_id, jsonlog txid, stderr %x) on the lines logged once it had one: at the end of
 *       the statement that was given it (a duration, an error), at the start of every later
 *       statement of its block. This finds the ids the log shows pasted, only in statements whose
 *       words read or name transaction ids, and the point in each owning session after which the
 *       replay reads its own id of that transaction, still inside it: after the statement whose end
 *       first shows it, else before the statement whose start first does.
 *   <li><b>A session's temporary schema</b> ({@code pg_my_temp_schema()::regnamespace}, then {@code
 *       REINDEX SCHEMA pg_temp_3}): its number is the backend's slot, which depends on how many
 *       connections were open when it connected. The log does not show it, but a session names its
 *       own: the replay puts its session's own number in place.
 * </ul>
 */
public final class PastedIds {
  /** A whole number standing alone: not part of a name, a {@code $n} or a decimal. */
  private static final Pattern NUMBER = Pattern.compile("(?<![\\w$.])\\d{1,18}(?![\\w.])");

  /** A temporary schema (or its TOAST schema) named by its number, as an unquoted name. */
  private static final Pattern TEMP_SCHEMA =
      Pattern.compile(
          "(?<![\\w$\"])(pg_(?:toast_)?temp_)(\\d+)(?![\\w$])", Pattern.CASE_INSENSITIVE);

  /** A statement's kinds of pasted ids, as bits. */
  private static final byte XIDS = 1;

  private static final byte TEMP_SCHEMA_NUMBER = 2;

  /** The 32 bits of an id the log shows; a 64-bit one (xid8, txid) carries its epoch above. */
  private static final long LOW_BITS = 0xFFFF_FFFFL;

  private final long[][] learnAfter;
  private final byte[][] pastes;
  private final int pasted;
  private final int tempSchemaStatements;

  private PastedIds(long[][] learnAfter, byte[][] pastes, int pasted, int tempSchemaStatements) {
    this.learnAfter = learnAfter;
    this.pastes = pastes;
    this.pasted = pasted;
    this.tempSchemaStatements = tempSchemaStatements;
  }

  /**
   * The plan for these sessions (a capture's, in its order). A session with nothing to read or
   * translate has no arrays: a log that pastes no id costs nothing per statement.
   */
  public static PastedIds of(List<LoggedSession> sessions) {
    Set<Long> logged = new HashSet<>();
    for (LoggedSession s : sessions) {
      for (LoggedStatement st : s.statements()) {
        add(logged, st.xidAtStart());
        add(logged, st.xidAtEnd());
      }
    }
    byte[][] pastes = new byte[sessions.size()][];
    Set<Long> referenced = new HashSet<>();
    int temp = 0;
    for (int i = 0; i < sessions.size(); i++) {
      List<LoggedStatement> st = sessions.get(i).statements();
      for (int j = 0; j < st.size(); j++) {
        List<Long> ids = logged.isEmpty() ? List.of() : ids(st.get(j), logged);
        byte kinds = (byte) (ids.isEmpty() ? 0 : XIDS);
        if (tempSchemaNamed(st.get(j).sent())) {
          kinds |= TEMP_SCHEMA_NUMBER;
          temp++;
        }
        if (kinds != 0) {
          if (pastes[i] == null) {
            pastes[i] = new byte[st.size()];
          }
          pastes[i][j] = kinds;
          referenced.addAll(ids);
        }
      }
    }
    return new PastedIds(learnPoints(sessions, referenced), pastes, referenced.size(), temp);
  }

  /** Whether the text names a temporary schema by its number ({@code pg_temp_3}). */
  static boolean tempSchemaNamed(String text) {
    // most statements name none: a plain search, without a copy of the text, before the pattern
    for (int i = text.indexOf('_'); i >= 0; i = text.indexOf('_', i + 1)) {
      if (i >= 4 && text.regionMatches(true, i - 4, "temp_", 0, 5)) {
        return TEMP_SCHEMA.matcher(text).find();
      }
    }
    return false;
  }

  /**
   * Per session, per statement: the capture's id whose replay id is read after it, 0 for none. Each
   * id is read once, in the one session whose transaction it was (no other session's lines show
   * it).
   */
  private static long[][] learnPoints(List<LoggedSession> sessions, Set<Long> referenced) {
    long[][] after = new long[sessions.size()][];
    Set<Long> placed = new HashSet<>();
    for (int i = 0; i < sessions.size() && !referenced.isEmpty(); i++) {
      List<LoggedStatement> st = sessions.get(i).statements();
      for (int j = 0; j < st.size(); j++) {
        long atStart = st.get(j).xidAtStart();
        // shown at a start: given by a statement before it, of the same block
        if (j > 0 && referenced.contains(atStart) && placed.add(atStart)) {
          after[i] = place(after[i], st.size(), j - 1, atStart);
        }
        long atEnd = st.get(j).xidAtEnd();
        if (referenced.contains(atEnd) && placed.add(atEnd)) {
          after[i] = place(after[i], st.size(), j, atEnd);
        }
      }
    }
    return after;
  }

  private static long[] place(long[] points, int size, int j, long id) {
    long[] out = points == null ? new long[size] : points;
    out[j] = id;
    return out;
  }

  private static void add(Set<Long> ids, long id) {
    if (id != 0) {
      ids.add(id);
    }
  }

  /** The capture's ids a statement holds, in its text or values, of those the log shows. */
  static List<Long> ids(LoggedStatement st, Set<Long> logged) {
    List<Long> out = new ArrayList<>();
    String text = st.sent();
    if (!idWords(text)) {
      return out;
    }
    Matcher m = NUMBER.matcher(text);
    while (m.find()) {
      long id = key(Long.parseLong(m.group()));
      if (logged.contains(id)) {
        out.add(id);
      }
    }
    if (st.parameters() != null) {
      for (String v : st.parameters()) {
        long id = v != null && NUMBER.matcher(v).matches() ? key(Long.parseLong(v)) : 0;
        if (logged.contains(id)) {
          out.add(id);
        }
      }
    }
    return out;
  }

  /**
   * Whether the text has a word of transaction ids: xid (txid), xact, xmin, xmax or snapshot, in
   * any case. Read for every statement of a log before each pass's clock starts, so a scan of its
   * characters: on a 54,000-statement pgbench log, profiled over one replay's passes (warm-up and
   * trial), a case-blind pattern took 566 ms of CPU, this scan 100 ms.
   */
  static boolean idWords(String t) {
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if ((c == 'x' || c == 'X')
          && (t.regionMatches(true, i, "xid", 0, 3)
              || t.regionMatches(true, i, "xact", 0, 4)
              || t.regionMatches(true, i, "xmin", 0, 4)
              || t.regionMatches(true, i, "xmax", 0, 4))) {
        return true;
      }
      if ((c == 's' || c == 'S') && t.regionMatches(true, i, "snapshot", 0, 8)) {
        return true;
      }
    }
    return false;
  }

  /** The id as the log shows it: a 64-bit one's low 32 bits. */
  private static long key(long literal) {
    return literal > LOW_BITS ? literal & LOW_BITS : literal;
  }

  /** The capture's id whose replay id to read after statement {@code j} of session {@code i}. */
  public long learnAfter(int i, int j) {
    return learnAfter[i] == null ? 0 : learnAfter[i][j];
  }

  /** Whether statement {@code j} of session {@code i} holds a transaction id of the capture's. */
  public boolean pastesXids(int i, int j) {
    return pastes[i] != null && (pastes[i][j] & XIDS) != 0;
  }

  /** Whether statement {@code j} of session {@code i} names a temporary schema by number. */
  public boolean namesTempSchema(int i, int j) {
    return pastes[i] != null && (pastes[i][j] & TEMP_SCHEMA_NUMBER) != 0;
  }

  /** How many of the capture's transaction ids the log shows pasted into statements. */
  public int pasted() {
    return pasted;
  }

  /** How many statements name a temporary schema by its number. */
  public int tempSchemaStatements() {
    return tempSchemaStatements;
  }

  /**
   * The statement with each temporary schema it names by number put as {@code number}'s (the replay
   * session's own), null when it names none.
   */
  public static LoggedStatement withTempSchema(LoggedStatement st, int number) {
    Matcher m = TEMP_SCHEMA.matcher(st.sent());
    if (!m.find()) {
      return null;
    }
    return st.sending(
        m.replaceAll(r -> Matcher.quoteReplacement(r.group(1) + number)), st.parameters());
  }

  /**
   * The statement with each of the capture's ids the replay knows put as the replay's, null when it
   * knows none of them. {@code replayId} gives the replay's full (64-bit) id for a capture's id as
   * the log shows it, or -1 when not known; a literal of 32 bits gets the replay id's 32 bits.
   */
  public static LoggedStatement translated(LoggedStatement st, LongUnaryOperator replayId) {
    boolean[] changed = {false};
    String text = replace(st.sent(), replayId, changed);
    List<String> values = st.parameters();
    if (values != null) {
      List<String> out = new ArrayList<>(values.size());
      for (String v : values) {
        out.add(v != null && NUMBER.matcher(v).matches() ? replace(v, replayId, changed) : v);
      }
      values = out;
    }
    return changed[0] ? st.sending(text, values) : null;
  }

  private static String replace(String text, LongUnaryOperator replayId, boolean[] changed) {
    return NUMBER
        .matcher(text)
        .replaceAll(
            r -> {
              long literal = Long.parseLong(r.group());
              long replay = replayId.applyAsLong(key(literal));
              if (replay < 0) {
                return r.group();
              }
              changed[0] = true;
              return Long.toString(literal > LOW_BITS ? replay : replay & LOW_BITS);
            });
  }
}
