package dev.wg1bench.script;

import java.util.Locale;

/** Lexical rules shared by the command splitter and the variable scanner of {@link Script}. */
final class Lexer {
  private Lexer() {}

  private static boolean isIdentChar(char c) {
    return ExprParser.isNameChar(c) || c == '$';
  }

  /** End (exclusive) of the nested block comment starting at i, or -1 if unterminated. */
  static int skipBlockComment(String s, int i) {
    int depth = 0;
    int n = s.length();
    int j = i;
    while (j < n) {
      if (s.startsWith("/*", j)) {
        depth++;
        j += 2;
      } else if (s.startsWith("*/", j)) {
        depth--;
        j += 2;
        if (depth == 0) {
          return j;
        }
      } else {
        j++;
      }
    }
    return -1;
  }

  /**
   * End (exclusive) of the quoted construct starting at i ('...', E'...', "...", $tag$...$tag$); -1
   * if the character at i does not start one (e.g. a {@code $1} parameter), -2 if unterminated.
   */
  static int skipQuoted(String s, int i) {
    int n = s.length();
    char c = s.charAt(i);
    if (c == '$') {
      if (i > 0 && isIdentChar(s.charAt(i - 1))) {
        return -1; // "$" inside an identifier
      }
      int j = i + 1;
      if (j < n && (Character.isLetter(s.charAt(j)) || s.charAt(j) == '_' || s.charAt(j) >= 0x80)) {
        while (j < n && ExprParser.isNameChar(s.charAt(j))) {
          j++;
        }
      }
      if (j >= n || s.charAt(j) != '$') {
        return -1;
      }
      String tag = s.substring(i, j + 1);
      int close = s.indexOf(tag, j + 1);
      return close < 0 ? -2 : close + tag.length();
    }
    // backslash escapes only in E'...' strings (standard_conforming_strings is on)
    boolean escapes =
        c == '\''
            && i > 0
            && (s.charAt(i - 1) == 'E' || s.charAt(i - 1) == 'e')
            && (i < 2 || !isIdentChar(s.charAt(i - 2)));
    int j = i + 1;
    while (j < n) {
      char x = s.charAt(j);
      if (escapes && x == '\\') {
        j += 2;
        continue;
      }
      if (x == c) {
        if (j + 1 < n && s.charAt(j + 1) == c) {
          j += 2; // doubled quote
          continue;
        }
        return j + 1;
      }
      j++;
    }
    return -2;
  }

  static int countLines(String s, int from, int to) {
    int k = 0;
    for (int i = from; i < to; i++) {
      if (s.charAt(i) == '\n') {
        k++;
      }
    }
    return k;
  }

  /** Transaction role from the leading keywords, ignoring case, whitespace and comments. */
  static TxControl txOf(String sql) {
    int[] pos = {0};
    String w1 = nextWord(sql, pos);
    String w2 = nextWord(sql, pos);
    String w3 = nextWord(sql, pos);
    switch (w1) {
      case "begin":
        return TxControl.BEGIN;
      case "start":
        return w2.equals("transaction") ? TxControl.BEGIN : TxControl.NONE;
      case "end":
      case "commit":
      case "rollback":
      case "abort":
        {
          // COMMIT/ROLLBACK PREPARED act on another transaction; ROLLBACK TO keeps this one; AND
          // CHAIN opens a new one at once
          if (w2.equals("prepared")
              || w2.equals("to")
              || w3.equals("to")
              || (w2.equals("and") && w3.equals("chain"))
              || (w3.equals("and") && nextWord(sql, pos).equals("chain"))) {
            return TxControl.NONE;
          }
          return w1.equals("end") || w1.equals("commit") ? TxControl.COMMIT : TxControl.ROLLBACK;
        }
      default:
        return TxControl.NONE;
    }
  }

  private static String nextWord(String s, int[] pos) {
    int n = s.length();
    int i = pos[0];
    while (i < n) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (s.startsWith("--", i)) {
        int e = s.indexOf('\n', i);
        i = e < 0 ? n : e;
      } else if (s.startsWith("/*", i)) {
        int e = skipBlockComment(s, i);
        i = e < 0 ? n : e;
      } else {
        break;
      }
    }
    int start = i;
    while (i < n && Character.isLetter(s.charAt(i))) {
      i++;
    }
    pos[0] = i;
    return s.substring(start, i).toLowerCase(Locale.ROOT);
  }
}
