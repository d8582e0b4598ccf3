package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.SqlText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a write's text names, for {@link TableFacts}: the table an INSERT of plain values goes into,
 * and the one row an UPDATE or DELETE names by a column equal to a value. Read in time linear in
 * the text: a log's INSERT may carry a literal of megabytes, and a pattern that loops over a group
 * per character (a quoted string's {@code (?:[^']|'')*}) recursed once a character and overflowed
 * the stack on the regression SQL's. So the patterns read only a statement's head and its tail,
 * each bounded, and the values between are scanned by hand.
 */
final class WriteText {
  private WriteText() {}

  /** How far the head's patterns read: a table's name and column list. */
  private static final int HEAD = 1024;

  /** How long a {@code WHERE key = value} tail may be: a key, not a document. */
  private static final int TAIL = 256;

  /** An identifier, quoted or not (char classes only: no group loops over a character). */
  private static final String PART = "(?:\"[^\"]+\"|[\\w$]+)";

  private static final String NAME = "(" + PART + "(?:\\." + PART + ")?)";

  private static final Pattern INSERT_HEAD =
      Pattern.compile(
          "insert\\s+into\\s+" + NAME + "\\s*(?:\\(([\\w$\",\\s]*)\\)\\s*)?values\\s*",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern UPDATE_HEAD =
      Pattern.compile("update\\s+(?:only\\s+)?" + NAME + "\\s+set\\s", Pattern.CASE_INSENSITIVE);

  private static final Pattern DELETE_HEAD =
      Pattern.compile("delete\\s+from\\s+(?:only\\s+)?" + NAME + "\\s+", Pattern.CASE_INSENSITIVE);

  /**
   * A SELECT of plain columns (names, {@code *}) from one table, up to its WHERE. One character
   * class for the list, not a group of words: a group whose words can split anywhere backtracked
   * exponentially on a SELECT it did not match (40 s on a 68,000-statement log).
   */
  private static final Pattern SELECT_HEAD =
      Pattern.compile(
          "select\\s+[\\w$\",.*\\s]+?\\s+from\\s+(?:only\\s+)?" + NAME + "\\s+",
          Pattern.CASE_INSENSITIVE);

  /** Words a SELECT's column list may not hold: a new table, a set operation. */
  private static final Pattern SELECT_STOPS =
      Pattern.compile("\\b(into|union|intersect|except)\\b", Pattern.CASE_INSENSITIVE);

  /** In a SET list: a call (a name before a parenthesis), a subquery, DEFAULT, a row assignment. */
  private static final Pattern SET_READS_MORE =
      Pattern.compile(
          "[\\w$\"]\\s*\\(|\\b(select|default)\\b|(^|,)\\s*\\(", Pattern.CASE_INSENSITIVE);

  /** What a SET list of one row's UPDATE may not hold: another table, a second WHERE, output. */
  private static final Pattern SET_STOPS =
      Pattern.compile("\\b(from|where|returning)\\b|;", Pattern.CASE_INSENSITIVE);

  private static final Pattern WHERE_KEY =
      Pattern.compile(
          "where\\s+("
              + PART
              + ")\\s*=\\s*('[^']*(?:''[^']*)*'|-?\\d+(?:\\.\\d+)?|\\$\\d+)\\s*;?\\s*",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  /**
   * One row, as its statement names it: table and column as the catalog spells them, the value, and
   * whether the statement deletes it.
   */
  record Row(String table, String column, String value, boolean delete) {}

  /**
   * The table an INSERT of plain values goes into (its name as the catalog spells it), or null for
   * any other statement: one statement, {@code VALUES} tuples of literals, parameters and words
   * such as CURRENT_TIMESTAMP (no call, no subquery, no ON CONFLICT, no RETURNING, no dollar-quoted
   * or backslash-escaped string, either of which could hide a call).
   */
  static String plainInsertTable(String sql) {
    String s = single(sql);
    if (s == null || s.indexOf('\\') >= 0 || dollarQuote(s)) {
      return null;
    }
    Matcher m = INSERT_HEAD.matcher(s).region(0, Math.min(s.length(), HEAD));
    return m.lookingAt() && plainTuples(s, m.end()) ? catalogName(m.group(1)) : null;
  }

  /**
   * The values an INSERT of one tuple of plain values ({@link #plainInsertTable}) with a column
   * list gives, by column as the catalog spells it, each as written (a literal with its quotes, a
   * parameter's {@code $n}, a word such as NULL); or null for any other statement.
   */
  static Map<String, String> insertedValues(String sql) {
    String s = single(sql);
    if (plainInsertTable(sql) == null) {
      return null;
    }
    Matcher m = INSERT_HEAD.matcher(s).region(0, Math.min(s.length(), HEAD));
    if (!m.lookingAt() || m.group(2) == null) {
      return null;
    }
    int open = s.indexOf('(', m.end());
    int close = tupleEnd(s, open + 1);
    String rest = s.substring(close).strip();
    if (!rest.isEmpty() && !rest.equals(";")) {
      return null; // more than one tuple
    }
    String[] columns = m.group(2).split(",");
    List<String> values = splitOutsideQuotes(s.substring(open + 1, close - 1));
    if (columns.length != values.size()) {
      return null;
    }
    Map<String, String> out = new HashMap<>();
    for (int i = 0; i < columns.length; i++) {
      if (columns[i].chars().filter(c -> c == '"').count() % 2 != 0) {
        return null; // a quoted name with a comma in it: the split is not the list
      }
      out.put(catalogName(columns[i].strip()), values.get(i).strip());
    }
    return out;
  }

  /** A tuple's values, split at the commas outside string literals. */
  private static List<String> splitOutsideQuotes(String tuple) {
    List<String> out = new ArrayList<>();
    int from = 0;
    boolean quoted = false;
    for (int i = 0; i < tuple.length(); i++) {
      char c = tuple.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        out.add(tuple.substring(from, i));
        from = i + 1;
      }
    }
    out.add(tuple.substring(from));
    return out;
  }

  /**
   * A value as written in a statement ({@link #insertedValues}): a string literal's text, an
   * integer or decimal literal, a parameter's bound value; null for anything else (a word, an
   * expression, none written), or a parameter bound as NULL or not bound.
   */
  static String literal(String written, List<String> parameters) {
    return written != null && LITERAL.matcher(written).matches()
        ? value(written, parameters)
        : null;
  }

  private static final Pattern LITERAL =
      Pattern.compile("'[^']*(?:''[^']*)*'|-?\\d+(?:\\.\\d+)?|\\$\\d+", Pattern.DOTALL);

  /**
   * The one row an UPDATE or DELETE names ({@code WHERE} a column alone equal to a literal or a
   * bound value, and for an UPDATE a SET list that reads no other table), or null for any other
   * statement, or a value bound as NULL or not bound.
   */
  static Row oneRow(String sql, List<String> parameters) {
    String s = single(sql);
    int where = s == null ? -1 : lastWhere(s);
    if (where < 0 || s.length() - where > TAIL) {
      return null;
    }
    Matcher head = UPDATE_HEAD.matcher(s).region(0, Math.min(where, HEAD));
    if (head.lookingAt()) {
      if (SET_STOPS.matcher(s).region(head.end(), where).find()) {
        return null;
      }
    } else {
      head = DELETE_HEAD.matcher(s).region(0, Math.min(where, HEAD));
      if (!head.lookingAt() || head.end() != where) {
        return null;
      }
    }
    Row r = keyRow(s, where, head.group(1), parameters);
    return r == null || head.pattern() == UPDATE_HEAD
        ? r
        : new Row(r.table(), r.column(), r.value(), true);
  }

  /**
   * The one row a SELECT of plain columns reads ({@code SELECT a, b FROM t WHERE key = value}: no
   * call, no join, no locking clause, no INTO), or null.
   */
  static Row oneRowRead(String sql, List<String> parameters) {
    String s = single(sql);
    int where = s == null ? -1 : lastWhere(s);
    if (where < 0 || s.length() - where > TAIL || where > HEAD) {
      return null;
    }
    Matcher head = SELECT_HEAD.matcher(s).region(0, where);
    if (!head.lookingAt()
        || head.end() != where
        || SELECT_STOPS.matcher(s).region(0, where).find()) {
      return null;
    }
    return keyRow(s, where, head.group(1), parameters);
  }

  /** The row {@code WHERE key = value} names in {@code table}, from {@code where} on; or null. */
  private static Row keyRow(String s, int where, String table, List<String> parameters) {
    Matcher key = WHERE_KEY.matcher(s).region(where, s.length());
    if (!key.matches()) {
      return null;
    }
    String value = value(key.group(2), parameters);
    return value == null
        ? null
        : new Row(catalogName(table), catalogName(key.group(1)), value, false);
  }

  /**
   * Whether a statement's SET list, if it has one ({@link #oneRow}'s UPDATE), assigns none of
   * {@code keys} and reads nothing but its own row: no call (a function may read or write any
   * table), no subquery, no DEFAULT (a column default may draw a sequence), no row assignment
   * {@code (a, b) = ...}.
   */
  static boolean setKeepsItsRow(String sql, Set<String> keys) {
    String s = single(sql);
    int where = s == null ? -1 : lastWhere(s);
    Matcher head = where < 0 ? null : UPDATE_HEAD.matcher(s).region(0, Math.min(where, HEAD));
    if (head == null || !head.lookingAt()) {
      return true;
    }
    // a literal may hold a parenthesis, a comma or an equals sign: read the list without them
    String set = s.substring(head.end(), where).replaceAll("'[^']*'", "''");
    return !SET_READS_MORE.matcher(set).find() && noKeyAssigned(set, keys);
  }

  private static boolean noKeyAssigned(String set, Set<String> keys) {
    for (String assignment : set.split(",")) {
      int eq = assignment.indexOf('=');
      if (eq < 0) {
        continue;
      }
      String column = catalogName(assignment.substring(0, eq).strip());
      if (keys.contains(column)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A name as written, as the catalog spells it: unquoted parts folded to lower case as the server
   * folds them, quoted ones kept with their quotes taken off ({@code ""} inside them one quote).
   */
  static String catalogName(String written) {
    StringBuilder out = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < written.length(); i++) {
      char ch = written.charAt(i);
      if (ch != '"') {
        out.append(quoted ? ch : Character.toLowerCase(ch));
      } else if (quoted && i + 1 < written.length() && written.charAt(i + 1) == '"') {
        out.append('"');
        i++;
      } else {
        quoted = !quoted;
      }
    }
    return out.toString();
  }

  /** A literal's value, or a parameter's bound one (null when NULL or not bound). */
  private static String value(String v, List<String> parameters) {
    if (v.startsWith("$")) {
      int n = Integer.parseInt(v.substring(1));
      return parameters == null || n < 1 || n > parameters.size() ? null : parameters.get(n - 1);
    }
    return v.startsWith("'") ? v.substring(1, v.length() - 1).replace("''", "'") : v;
  }

  /** The statement's one part, comments stripped; null for a string of several. */
  private static String single(String sql) {
    List<String> parts = SqlText.parts(sql);
    return parts.size() == 1 ? SqlText.stripComments(parts.get(0)).strip() : null;
  }

  /** Whether a {@code $} stands for anything but a parameter ($1): a dollar quote. */
  private static boolean dollarQuote(String s) {
    for (int i = s.indexOf('$'); i >= 0; i = s.indexOf('$', i + 1)) {
      if (i + 1 >= s.length() || !Character.isDigit(s.charAt(i + 1))) {
        return true;
      }
    }
    return false;
  }

  /** Where the last word WHERE begins, or -1. */
  private static int lastWhere(String s) {
    String lower = s.toLowerCase(Locale.ROOT);
    for (int i = lower.lastIndexOf("where"); i >= 0; i = lower.lastIndexOf("where", i - 1)) {
      boolean start = i == 0 || !word(lower.charAt(i - 1));
      boolean end = i + 5 >= lower.length() || !word(lower.charAt(i + 5));
      if (start && end) {
        return i;
      }
    }
    return -1;
  }

  private static boolean word(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  /**
   * Whether {@code s} from {@code i} on is one or more tuples of plain values separated by commas,
   * then at most a semicolon: no parenthesis inside a tuple but in a string literal.
   */
  private static boolean plainTuples(String s, int i) {
    boolean tupleNext = true;
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (tupleNext && c == '(') {
        i = tupleEnd(s, i + 1);
        if (i < 0) {
          return false;
        }
        tupleNext = false;
      } else if (!tupleNext && c == ',') {
        tupleNext = true;
        i++;
      } else {
        return !tupleNext && c == ';' && s.substring(i + 1).isBlank();
      }
    }
    return !tupleNext;
  }

  /** Past the ')' that closes a tuple opened before {@code i}, or -1 where it is not plain. */
  private static int tupleEnd(String s, int i) {
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '\'') {
        // a literal, '' inside it read as two literals side by side
        int close = s.indexOf('\'', i + 1);
        if (close < 0) {
          return -1;
        }
        i = close + 1;
      } else if (c == ')') {
        return i + 1;
      } else if (c == '(' || c == ';') {
        return -1;
      } else {
        i++;
      }
    }
    return -1;
  }
}
