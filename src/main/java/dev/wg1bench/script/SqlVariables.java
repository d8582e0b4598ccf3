package dev.wg1bench.script;

import java.util.ArrayList;
import java.util.List;

/**
 * An SQL command of a script split at its {@code :variables}: the pieces around them as pgjdbc
 * takes them (a literal {@code ?} escaped as {@code ??}, {@code \;} as a semicolon) and as pgbench
 * -M simple substitutes into them. Comments, quoted text and {@code ::} casts hold no variables.
 */
final class SqlVariables {
  private final String cmd;
  private final List<String> pieces = new ArrayList<>();
  private final List<String> textPieces = new ArrayList<>();
  private final List<String> vars = new ArrayList<>();

  /** The piece being read, for pgjdbc and for -M simple. */
  private final StringBuilder cur = new StringBuilder();

  private final StringBuilder txt = new StringBuilder();

  private SqlVariables(String cmd) {
    this.cmd = cmd;
  }

  /** The command (stripped, not empty) starting on {@code line}, its variables found. */
  static ParsedCommand.Sql split(String cmd, int line) {
    SqlVariables v = new SqlVariables(cmd);
    v.scan();
    return new ParsedCommand.Sql(line, cmd, v.pieces, v.textPieces, v.vars, Lexer.txOf(cmd));
  }

  private void scan() {
    int n = cmd.length();
    int i = 0;
    while (i < n) {
      char c = cmd.charAt(i);
      char d = i + 1 < n ? cmd.charAt(i + 1) : '\0';
      int end = verbatimEnd(c, d, i);
      if (end >= 0) {
        // comments and quoted text are copied verbatim: no variables in there
        copy(i, end);
        i = end;
      } else if (c == ':') {
        i = colon(i, d);
      } else if (c == '?') {
        cur.append("??"); // pgjdbc's escape for a literal question mark
        txt.append('?');
        i++;
      } else if (c == '\\' && d == ';') {
        cur.append(';');
        txt.append(';');
        i += 2;
      } else {
        cur.append(c);
        txt.append(c);
        i++;
      }
    }
    pieces.add(cur.toString());
    textPieces.add(txt.toString());
  }

  /** Where a comment or quoted text starting at {@code i} ends; -1 when none starts there. */
  private int verbatimEnd(char c, char d, int i) {
    if (c == '-' && d == '-') {
      int end = cmd.indexOf('\n', i);
      return end < 0 ? cmd.length() : end;
    } else if (c == '/' && d == '*') {
      return Lexer.skipBlockComment(cmd, i);
    } else if (c == '\'' || c == '"' || c == '$') {
      return Lexer.skipQuoted(cmd, i);
    }
    return -1;
  }

  /** A colon at {@code i}: a cast, a variable, or a colon; returns where the scan goes on. */
  private int colon(int i, char d) {
    int n = cmd.length();
    int j = i + 1;
    if (d == ':') {
      // a "::" cast (or longer run of colons) is never a variable
      while (j < n && cmd.charAt(j) == ':') {
        j++;
      }
      copy(i, j);
      return j;
    }
    while (j < n && ExprParser.isNameChar(cmd.charAt(j))) {
      j++;
    }
    if (j == i + 1) {
      copy(i, j);
      return j;
    }
    pieces.add(cur.toString());
    cur.setLength(0);
    textPieces.add(txt.toString());
    txt.setLength(0);
    vars.add(cmd.substring(i + 1, j));
    return j;
  }

  private void copy(int from, int to) {
    cur.append(cmd, from, to);
    txt.append(cmd, from, to);
  }
}
