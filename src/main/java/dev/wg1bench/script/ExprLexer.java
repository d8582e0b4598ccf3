package dev.wg1bench.script;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The tokens of a pgbench {@code \set} expression, read one at a time by {@link ExprParser}, which
 * extends it: numbers (an integer one past the largest bigint kept apart for unary minus), {@code
 * :variables}, names and keywords, operators and punctuation, with pgbench's messages for what is
 * not one.
 */
abstract class ExprLexer {
  enum T {
    INT,
    MAXINT_PLUS_ONE,
    DOUBLE,
    VAR,
    IDENT,
    NULL,
    TRUE,
    FALSE,
    AND,
    OR,
    NOT,
    IS,
    ISNULL,
    NOTNULL,
    CASE,
    WHEN,
    THEN,
    ELSE,
    END,
    OP,
    LPAREN,
    RPAREN,
    COMMA,
    EOF
  }

  private static final Map<String, T> KEYWORDS = new HashMap<>();

  static {
    KEYWORDS.put("null", T.NULL);
    KEYWORDS.put("true", T.TRUE);
    KEYWORDS.put("false", T.FALSE);
    KEYWORDS.put("and", T.AND);
    KEYWORDS.put("or", T.OR);
    KEYWORDS.put("not", T.NOT);
    KEYWORDS.put("is", T.IS);
    KEYWORDS.put("isnull", T.ISNULL);
    KEYWORDS.put("notnull", T.NOTNULL);
    KEYWORDS.put("case", T.CASE);
    KEYWORDS.put("when", T.WHEN);
    KEYWORDS.put("then", T.THEN);
    KEYWORDS.put("else", T.ELSE);
    KEYWORDS.put("end", T.END);
  }

  final String src;
  final String sourceName;
  final int line;
  int pos;

  // current token
  T tok;
  String text;
  Object value;
  int tokStart;

  ExprLexer(String src, String sourceName, int line) {
    this.src = src;
    this.sourceName = sourceName;
    this.line = line;
  }

  ScriptException error(String msg) {
    return new ScriptException(sourceName, line, msg);
  }

  void advance() throws ScriptException {
    int n = src.length();
    while (pos < n && Character.isWhitespace(src.charAt(pos))) {
      pos++;
    }
    tokStart = pos;
    value = null;
    if (pos >= n) {
      tok = T.EOF;
      text = "";
      return;
    }
    char c = src.charAt(pos);
    if (isDigit(c) || (c == '.' && pos + 1 < n && isDigit(src.charAt(pos + 1)))) {
      number();
      return;
    }
    if (c == ':') {
      variable();
    } else if (Character.isLetter(c) || c == '_') {
      name();
    } else {
      operator(c, pos + 1 < n ? src.charAt(pos + 1) : '\0');
    }
  }

  /** A {@code :name}; a colon alone is an error. */
  private void variable() throws ScriptException {
    int n = src.length();
    int s = ++pos;
    while (pos < n && isNameChar(src.charAt(pos))) {
      pos++;
    }
    if (pos == s) {
      pos = s - 1;
      text = ":";
      throw error("syntax error in expression: invalid variable reference at column " + s);
    }
    tok = T.VAR;
    text = src.substring(s, pos);
  }

  /** A keyword (any case) or a function's name. */
  private void name() {
    int n = src.length();
    int s = pos;
    while (pos < n && isNameChar(src.charAt(pos))) {
      pos++;
    }
    text = src.substring(s, pos);
    T kw = KEYWORDS.get(text.toLowerCase(Locale.ROOT));
    tok = kw != null ? kw : T.IDENT;
  }

  /** An operator of one or two characters, a parenthesis or a comma. */
  private void operator(char c, char d) throws ScriptException {
    String two = "" + c + d;
    switch (two) {
      case "<=":
      case ">=":
      case "<>":
      case "!=":
      case "<<":
      case ">>":
        tok = T.OP;
        text = two;
        pos += 2;
        return;
      default:
        break;
    }
    pos++;
    text = String.valueOf(c);
    switch (c) {
      case '(':
        tok = T.LPAREN;
        return;
      case ')':
        tok = T.RPAREN;
        return;
      case ',':
        tok = T.COMMA;
        return;
      case '+':
      case '-':
      case '*':
      case '/':
      case '%':
      case '<':
      case '>':
      case '=':
      case '&':
      case '|':
      case '#':
      case '~':
        tok = T.OP;
        return;
      default:
        pos--;
        throw error(
            "syntax error in expression: unexpected character \""
                + c
                + "\" at column "
                + (pos + 1));
    }
  }

  private void number() throws ScriptException {
    int n = src.length();
    int s = pos;
    boolean isDouble = false;
    while (pos < n && isDigit(src.charAt(pos))) {
      pos++;
    }
    if (pos < n && src.charAt(pos) == '.') {
      isDouble = true;
      pos++;
      while (pos < n && isDigit(src.charAt(pos))) {
        pos++;
      }
    }
    if (pos < n && (src.charAt(pos) == 'e' || src.charAt(pos) == 'E')) {
      int e = pos + 1;
      if (e < n && (src.charAt(e) == '+' || src.charAt(e) == '-')) {
        e++;
      }
      if (e < n && isDigit(src.charAt(e))) {
        isDouble = true;
        pos = e;
        while (pos < n && isDigit(src.charAt(pos))) {
          pos++;
        }
      }
    }
    text = src.substring(s, pos);
    if (isDouble) {
      double d = Double.parseDouble(text);
      if (Double.isInfinite(d)) {
        throw error("double constant overflow: " + text);
      }
      tok = T.DOUBLE;
      value = d;
      return;
    }
    try {
      value = Long.parseLong(text);
      tok = T.INT;
    } catch (NumberFormatException e) {
      if (text.replaceFirst("^0+(?=.)", "").equals("9223372036854775808")) {
        tok = T.MAXINT_PLUS_ONE;
        return;
      }
      throw error("bigint constant overflow: " + text);
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  static boolean isNameChar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '_'
        || c >= 0x80;
  }
}
