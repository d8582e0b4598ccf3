package dev.wg1bench.replay.capture;

/**
 * Statement text as pg_stat_statements shows it: constants and parameters replaced by {@code $1,
 * $2, ...} in order, comments dropped, white space collapsed, so statements that differ only in
 * their values fall in one class.
 */
public final class SqlNormalizer {
  private SqlNormalizer() {}

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
      if (c == '\''
          || ((c == 'E' || c == 'e') && next() == '\'') && !SqlText.identChar(prev(out))) {
        boolean escapes = c != '\'';
        i = SqlText.skipString(sql, escapes ? i + 1 : i, escapes);
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
      if (j > i + 1 && !SqlText.identChar(prev(out))) {
        placeholder();
        i = j;
        return true;
      }
      String tag = SqlText.dollarTag(sql, i);
      if (tag != null && !SqlText.identChar(prev(out))) {
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
          || SqlText.identChar(prev(out))) {
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
}
