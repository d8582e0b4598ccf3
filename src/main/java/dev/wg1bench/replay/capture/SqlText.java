package dev.wg1bench.replay.capture;

import java.util.Locale;

/**
 * Statement text as pg_stat_statements shows it: constants and parameters replaced by {@code $1,
 * $2, ...} in order, comments dropped, white space collapsed, so statements that differ only in
 * their values fall in one class. Also tells transaction control apart from other statements.
 */
public final class SqlText {
  private SqlText() {}

  /** What a statement does to a transaction block. */
  public enum TxControl {
    NONE,
    BEGIN,
    END
  }

  /** The normalized text of {@code sql}. */
  public static String normalize(String sql) {
    return new Normalizer(sql).run();
  }

  /**
   * One left-to-right pass of {@link #normalize}. Each step looks at the character at {@code i} and
   * either consumes what starts there (returning true) or leaves it to the next step, so the order
   * of the steps in {@link #run} is the precedence of the token kinds. A class, not one method,
   * because the steps share the position, the output and the count of constants replaced so far.
   */
  private static final class Normalizer {
    private final String sql;
    private final int len;
    private final StringBuilder out;
    private int i;

    /** Constants replaced so far: the next one becomes {@code $(n+1)}, in order of appearance. */
    private int n;

    Normalizer(String sql) {
      this.sql = sql;
      this.len = sql.length();
      this.out = new StringBuilder(len);
    }

    String run() {
      while (i < len) {
        char c = sql.charAt(i);
        if (gap(c) || stringConstant(c) || quotedName(c) || dollar(c) || number(c)) {
          continue;
        }
        out.append(c);
        i++;
      }
      int end = out.length();
      while (end > 0 && (out.charAt(end - 1) == ' ' || out.charAt(end - 1) == ';')) {
        end--;
      }
      return out.substring(0, end).strip();
    }

    /** White space and comments separate tokens and nothing more: each becomes one space. */
    private boolean gap(char c) {
      if (Character.isWhitespace(c)) {
        while (i < len && Character.isWhitespace(sql.charAt(i))) {
          i++;
        }
      } else if (c == '-' && next() == '-') {
        while (i < len && sql.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '/' && next() == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? len : end + 2;
      } else {
        return false;
      }
      space(out);
      return true;
    }

    /** A string literal, or an E'' one with backslash escapes (not when E ends a name). */
    private boolean stringConstant(char c) {
      if (c == '\'' || ((c == 'E' || c == 'e') && next() == '\'') && !identChar(prev(out))) {
        boolean escapes = c != '\'';
        i = skipString(sql, escapes ? i + 1 : i, escapes);
        placeholder();
        return true;
      }
      return false;
    }

    /** A quoted name is kept as written: it names a thing, it is not a value. */
    private boolean quotedName(char c) {
      if (c != '"') {
        return false;
      }
      int end = sql.indexOf('"', i + 1);
      end = end < 0 ? len : end + 1;
      out.append(sql, i, end);
      i = end;
      return true;
    }

    /**
     * A parameter {@code $n} is renumbered with the constants; a dollar-quoted string is a
     * constant. A {@code $} inside a name is neither and is left to the plain-character path.
     */
    private boolean dollar(char c) {
      if (c != '$') {
        return false;
      }
      int j = i + 1;
      while (j < len && Character.isDigit(sql.charAt(j))) {
        j++;
      }
      if (j > i + 1 && !identChar(prev(out))) {
        placeholder();
        i = j;
        return true;
      }
      String tag = dollarTag(sql, i);
      if (tag != null && !identChar(prev(out))) {
        int end = sql.indexOf(tag, i + tag.length());
        i = end < 0 ? len : end + tag.length();
        placeholder();
        return true;
      }
      return false;
    }

    /**
     * A numeric constant (with its exponent sign and a unary minus that belongs to it); digits that
     * continue a name, as in {@code t1}, are part of the name.
     */
    private boolean number(char c) {
      if (!(Character.isDigit(c) || (c == '.' && Character.isDigit(next())))
          || identChar(prev(out))) {
        return false;
      }
      int j = i;
      while (j < len && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '.')) {
        if ((sql.charAt(j) == 'e' || sql.charAt(j) == 'E')
            && j + 1 < len
            && (sql.charAt(j + 1) == '-' || sql.charAt(j + 1) == '+')) {
          j++;
        }
        j++;
      }
      unaryMinus(out);
      placeholder();
      i = j;
      return true;
    }

    /** The character after {@code i}, or a NUL past the end (which no test above matches). */
    private char next() {
      return i + 1 < len ? sql.charAt(i + 1) : '\0';
    }

    private void placeholder() {
      out.append('$').append(++n);
    }
  }

  /** The highest {@code $n} parameter outside literals, quoted names and comments; 0 when none. */
  public static int highestParameter(String sql) {
    int max = 0;
    int i = 0;
    int len = sql.length();
    while (i < len) {
      int n = parameterEnd(sql, i);
      if (n > i) {
        max = Math.max(max, parameter(sql, i, n));
        i = n;
      } else {
        i = Math.max(i + 1, opaqueEnd(sql, i));
      }
    }
    return max;
  }

  /**
   * The statements of a query string as the server's simple protocol runs them: split at each
   * semicolon outside literals, quoted names, dollar quotes and comments; empty ones dropped. A
   * string of one statement gives a list of one.
   */
  public static java.util.List<String> parts(String sql) {
    java.util.List<String> out = new java.util.ArrayList<>();
    int start = 0;
    int i = 0;
    int len = sql.length();
    while (i < len) {
      if (sql.charAt(i) == ';') {
        addPart(out, sql.substring(start, i));
        start = ++i;
      } else {
        i = Math.max(i + 1, opaqueEnd(sql, i));
      }
    }
    addPart(out, sql.substring(start));
    return out;
  }

  private static void addPart(java.util.List<String> out, String part) {
    if (!stripComments(part).isBlank()) {
      out.add(part.strip());
    }
  }

  /**
   * Where the token at {@code i} that no SQL character inside it can change ends: a string constant
   * (E'' strings with their backslash escapes), a quoted name, a comment (block comments nest), a
   * dollar-quoted string (its tag not glued to a name, as in {@code a$b$}); {@code i} itself when
   * none starts there. The one scanner that splitting, parameter numbering and pgjdbc's text share,
   * as the server's lexer reads them.
   */
  static int opaqueEnd(String sql, int i) {
    int len = sql.length();
    char c = sql.charAt(i);
    if (c == '\'') {
      boolean escapes = i > 0 && (sql.charAt(i - 1) == 'E' || sql.charAt(i - 1) == 'e');
      return skipString(sql, i, escapes);
    }
    if (c == '"') {
      int end = sql.indexOf('"', i + 1);
      return end < 0 ? len : end + 1;
    }
    if (c == '-' && i + 1 < len && sql.charAt(i + 1) == '-') {
      int end = sql.indexOf('\n', i);
      return end < 0 ? len : end;
    }
    if (c == '/' && i + 1 < len && sql.charAt(i + 1) == '*') {
      return skipBlockComment(sql, i);
    }
    if (c == '$' && (i == 0 || !identChar(sql.charAt(i - 1)))) {
      String tag = dollarTag(sql, i);
      if (tag != null) {
        int end = sql.indexOf(tag, i + tag.length());
        return end < 0 ? len : end + tag.length();
      }
    }
    return i;
  }

  /** The end of a {@code $n} parameter at {@code i} (not glued to a name), else {@code i}. */
  private static int parameterEnd(String sql, int i) {
    if (sql.charAt(i) != '$' || (i > 0 && identChar(sql.charAt(i - 1)))) {
      return i;
    }
    int j = i + 1;
    while (j < sql.length() && Character.isDigit(sql.charAt(j))) {
      j++;
    }
    return j > i + 1 ? j : i;
  }

  /** n of the {@code $n} from {@code i} to {@code end} (at most six digits read). */
  private static int parameter(String sql, int i, int end) {
    return Integer.parseInt(sql.substring(i + 1, Math.min(end, i + 7)));
  }

  /** Block comments nest in PostgreSQL. */
  private static int skipBlockComment(String sql, int i) {
    int depth = 0;
    int len = sql.length();
    while (i < len) {
      if (sql.startsWith("/*", i)) {
        depth++;
        i += 2;
      } else if (sql.startsWith("*/", i)) {
        i += 2;
        if (--depth == 0) {
          return i;
        }
      } else {
        i++;
      }
    }
    return len;
  }

  /** BEGIN / START TRANSACTION open a block; COMMIT, END, ROLLBACK, ABORT and PREPARE end it. */
  public static TxControl txControl(String sql) {
    String s = stripComments(sql).strip().toLowerCase(Locale.ROOT);
    String w = firstWord(s);
    return switch (w) {
      case "begin" -> TxControl.BEGIN;
      case "start" -> s.matches("start\\s+transaction\\b.*") ? TxControl.BEGIN : TxControl.NONE;
      case "commit", "end", "abort" ->
          s.matches("commit\\s+prepared\\b.*") ? TxControl.NONE : TxControl.END;
      case "rollback" ->
          s.matches("rollback\\s+(to|prepared)\\b.*")
                  || s.matches("rollback\\s+(work|transaction)\\s+to\\b.*")
              ? TxControl.NONE
              : TxControl.END;
      case "prepare" -> s.matches("prepare\\s+transaction\\b.*") ? TxControl.END : TxControl.NONE;
      default -> TxControl.NONE;
    };
  }

  /**
   * Statements about logging itself, which a capture sets and a replay must not repeat: ALTER
   * SYSTEM, a reload, a log rotation, SET log_... ; null when the statement is none of these.
   */
  public static String maintenance(String sql) {
    String s = stripComments(sql).strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    if (s.startsWith("alter system ")) {
      return "ALTER SYSTEM";
    }
    if (s.contains("pg_reload_conf(") || s.contains("pg_rotate_logfile(")) {
      return "reload/rotate";
    }
    if (s.matches("set (session |local )?log_\\w+.*")
        || s.matches("reset log_\\w+.*")
        || s.matches(".*set_config\\( ?'log_.*")) {
      return "SET log_*";
    }
    return null;
  }

  /**
   * What a statement changes, by the word that starts it: INSERT, UPDATE, DELETE, MERGE, TRUNCATE,
   * COPY (from a client), DDL (CREATE, ALTER, DROP, ...), or a data-changing WITH; null for a
   * statement that reads or controls the session. A SELECT calling a function that writes, or
   * SELECT INTO, is not seen.
   */
  public static String dataChange(String sql) {
    String s = stripComments(sql).strip().toLowerCase(Locale.ROOT);
    String w = firstWord(s);
    return switch (w) {
      case "insert", "update", "delete", "merge", "truncate" -> w.toUpperCase(Locale.ROOT);
      case "copy" -> s.matches("(?s)copy\\b.*\\bfrom\\b.*") ? "COPY" : null;
      case "create", "alter", "drop", "comment", "grant", "revoke", "reindex", "cluster" ->
          s.startsWith("alter system") ? null : "DDL";
      case "with" -> {
        var m = java.util.regex.Pattern.compile("\\b(insert|update|delete|merge)\\b").matcher(s);
        yield m.find() ? m.group(1).toUpperCase(Locale.ROOT) : null;
      }
      default -> null;
    };
  }

  private static String firstWord(String s) {
    int i = 0;
    while (i < s.length() && Character.isLetter(s.charAt(i))) {
      i++;
    }
    return s.substring(0, i);
  }

  /**
   * The text with its comments blanked. Called for every part of every statement (the capture's
   * classes and the order's, the transaction count at replay): the patterns are compiled once, and
   * a text with no comment (most) is returned as it is; compiling both per call was the largest
   * frame of a 16-client replay's statement path
   * (bench/results/2026-12-05-replay-pace-and-cost.md).
   */
  public static String stripComments(String sql) {
    if (sql.indexOf("/*") < 0 && sql.indexOf("--") < 0) {
      return sql;
    }
    return LINE_COMMENT.matcher(BLOCK_COMMENT.matcher(sql).replaceAll(" ")).replaceAll(" ");
  }

  private static final java.util.regex.Pattern BLOCK_COMMENT =
      java.util.regex.Pattern.compile("(?s)/\\*.*?\\*/");

  private static final java.util.regex.Pattern LINE_COMMENT =
      java.util.regex.Pattern.compile("--[^\n]*");

  private static int skipString(String sql, int quote, boolean backslashEscapes) {
    int i = quote + 1;
    int len = sql.length();
    while (i < len) {
      char c = sql.charAt(i);
      if (backslashEscapes && c == '\\') {
        i += 2;
        continue;
      }
      if (c == '\'') {
        if (i + 1 < len && sql.charAt(i + 1) == '\'') {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return len;
  }

  /** "$tag$" or "$$" starting at {@code i}, or null. */
  private static String dollarTag(String sql, int i) {
    int j = i + 1;
    while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
      j++;
    }
    if (j < sql.length()
        && sql.charAt(j) == '$'
        && (j == i + 1 || !Character.isDigit(sql.charAt(i + 1)))) {
      return sql.substring(i, j + 1);
    }
    return null;
  }

  /**
   * An extended-protocol statement as pgjdbc's PreparedStatement takes it: each {@code $n} becomes
   * a {@code ?} (bound in order of appearance, so {@code $1} twice is bound twice), and a {@code ?}
   * the text had (a jsonb operator) is doubled so pgjdbc does not take it for a placeholder.
   *
   * @param sql the text for prepareStatement
   * @param order for each placeholder in order, the number n of its {@code $n}
   */
  public record Jdbc(String sql, int[] order) {}

  public static Jdbc forJdbc(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    java.util.List<Integer> order = new java.util.ArrayList<>();
    int i = 0;
    int len = sql.length();
    while (i < len) {
      int n = parameterEnd(sql, i);
      if (n > i) {
        order.add(parameter(sql, i, n));
        out.append('?');
        i = n;
      } else if (sql.charAt(i) == '?') {
        out.append("??");
        i++;
      } else {
        int end = Math.max(i + 1, opaqueEnd(sql, i));
        out.append(sql, i, end);
        i = end;
      }
    }
    return new Jdbc(out.toString(), order.stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * A minus sign that is part of the constant ({@code + -5}, {@code (-5}, {@code = -5}) goes with
   * it, as the server folds it into the constant pg_stat_statements replaces.
   */
  private static void unaryMinus(StringBuilder out) {
    int end = out.length();
    if (end > 0 && out.charAt(end - 1) == ' ') {
      end--;
    }
    if (end == 0 || out.charAt(end - 1) != '-') {
      return;
    }
    int before = end - 1;
    while (before > 0 && out.charAt(before - 1) == ' ') {
      before--;
    }
    if (before == 0 || "+-*/%=<>(,[".indexOf(out.charAt(before - 1)) >= 0) {
      out.setLength(end - 1);
    }
  }

  private static void space(StringBuilder out) {
    if (out.length() > 0 && out.charAt(out.length() - 1) != ' ') {
      out.append(' ');
    }
  }

  private static char prev(StringBuilder out) {
    return out.length() == 0 ? ' ' : out.charAt(out.length() - 1);
  }

  private static boolean identChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
