package dev.wg1bench.replay.capture;

import java.util.ArrayList;
import java.util.List;

/**
 * A statement's text read as the server's lexer reads it: where a token no SQL character inside it
 * can change ends (string constants, quoted names, comments, dollar quotes), and what that tells:
 * where a query string splits into statements and which {@code $n} parameters it takes. {@link
 * SqlNormalizer}, {@link StatementKind} and {@link JdbcStatement} read text through it.
 */
public final class SqlText {
  private SqlText() {}

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
  public static List<String> parts(String sql) {
    List<String> out = new ArrayList<>();
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

  private static void addPart(List<String> out, String part) {
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
  static int parameterEnd(String sql, int i) {
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
  static int parameter(String sql, int i, int end) {
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

  public static String stripComments(String sql) {
    return sql.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("--[^\n]*", " ");
  }

  static int skipString(String sql, int quote, boolean backslashEscapes) {
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
  static String dollarTag(String sql, int i) {
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

  static boolean identChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
