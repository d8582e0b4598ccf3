package dev.wg1bench.script;

import dev.wg1bench.script.Ast.Call;
import dev.wg1bench.script.Ast.Fn;
import dev.wg1bench.script.Ast.Lit;
import dev.wg1bench.script.Ast.Var;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parser for pgbench {@code \set} expressions, following the precedence of pgbench 15's exprparse.y
 * (lowest first): OR, AND, NOT (right), IS/ISNULL/NOTNULL (non-assoc), comparisons (non-assoc),
 * {@code | # & << >> ~}, {@code + -}, {@code * / %}, unary {@code + -}.
 */
final class ExprParser extends ExprLexer {
  private static final int P_OR = 1;
  private static final int P_AND = 2;
  private static final int P_NOT = 3;
  private static final int P_IS = 4;
  private static final int P_CMP = 5;
  private static final int P_BIT = 6;
  private static final int P_ADD = 7;
  private static final int P_MUL = 8;
  private static final int P_UNARY = 9;

  static final Map<String, Fn> FUNCTIONS = new HashMap<>();

  static {
    FUNCTIONS.put("abs", Fn.ABS);
    FUNCTIONS.put("debug", Fn.DEBUG);
    FUNCTIONS.put("double", Fn.DOUBLE);
    FUNCTIONS.put("exp", Fn.EXP);
    FUNCTIONS.put("greatest", Fn.GREATEST);
    FUNCTIONS.put("least", Fn.LEAST);
    FUNCTIONS.put("hash", Fn.HASH_MURMUR2);
    FUNCTIONS.put("hash_murmur2", Fn.HASH_MURMUR2);
    FUNCTIONS.put("hash_fnv1a", Fn.HASH_FNV1A);
    FUNCTIONS.put("int", Fn.INT);
    FUNCTIONS.put("ln", Fn.LN);
    FUNCTIONS.put("mod", Fn.MOD);
    FUNCTIONS.put("permute", Fn.PERMUTE);
    FUNCTIONS.put("pi", Fn.PI);
    FUNCTIONS.put("pow", Fn.POW);
    FUNCTIONS.put("power", Fn.POW);
    FUNCTIONS.put("random", Fn.RANDOM);
    FUNCTIONS.put("random_exponential", Fn.RANDOM_EXPONENTIAL);
    FUNCTIONS.put("random_gaussian", Fn.RANDOM_GAUSSIAN);
    FUNCTIONS.put("random_zipfian", Fn.RANDOM_ZIPFIAN);
    FUNCTIONS.put("sqrt", Fn.SQRT);
  }

  /**
   * How deeply an expression may nest. Parsing, compiling and evaluating recurse once per level (a
   * run of one precedence, {@code 1+1+...+1}, is a loop at every stage, so it does not nest), a few
   * Java frames each (four to parse one), so this bounds the stack a script can ask for well inside
   * a thread's default, interpreted or compiled: an expression deeper than this is refused with its
   * line, never a StackOverflowError (1,000 levels overflowed a test thread's stack while the
   * parser still ran interpreted). pgbench refuses one deeper than its parser's stack of 10,000
   * entries ("memory exhausted": about 10,000 parentheses, 3,333 "1+(" or 10,000 unary minuses); no
   * script written by hand comes near either.
   */
  static final int MAX_DEPTH = 256;

  /** The levels of {@link #expr} open now. */
  private int depth;

  private ExprParser(String src, String sourceName, int line) {
    super(src, sourceName, line);
  }

  /** Parses a whole expression; errors carry {@code sourceName:line}. */
  static Ast parse(String src, String sourceName, int line) throws ScriptException {
    ExprParser p = new ExprParser(src, sourceName, line);
    p.advance();
    if (p.tok == T.EOF) {
      throw p.error("missing expression");
    }
    Ast e;
    try {
      e = p.expr(P_OR);
    } catch (StackOverflowError overflow) {
      // a thread of a small stack (a test's, a user's in the Java API) below MAX_DEPTH: refused
      // as too deep all the same, never thrown on
      throw p.error(
          "expression nested too deeply at column "
              + (p.tokStart + 1)
              + " for this thread's stack (the limit is "
              + MAX_DEPTH
              + " levels)");
    }
    if (p.tok != T.EOF) {
      throw p.unexpected();
    }
    return e;
  }

  /**
   * Precedence climbing: the operand, then each infix operator that binds at least as tightly as
   * {@code minPrec}, its right operand parsed one level tighter (left-associative).
   */
  private Ast expr(int minPrec) throws ScriptException {
    if (++depth > MAX_DEPTH) {
      throw error(
          "expression nested too deeply at column "
              + (tokStart + 1)
              + ": the limit is "
              + MAX_DEPTH
              + " levels (each parenthesis, function argument, unary operator or right-hand"
              + " operand of a tighter operator is one)");
    }
    try {
      return climb(minPrec);
    } finally {
      depth--;
    }
  }

  private Ast climb(int minPrec) throws ScriptException {
    Ast left = prefix();
    // IS and the comparisons do not associate ("a = b = c" is a syntax error, as in pgbench): the
    // level of the one just applied, reset by any other operator
    int lastNonAssoc = 0;
    while (true) {
      int prec = infixPrecedence();
      if (prec == 0 || prec < minPrec) {
        return left;
      }
      if (prec == P_IS || prec == P_CMP) {
        if (lastNonAssoc == prec) {
          throw unexpected();
        }
        left = prec == P_IS ? isTest(left) : comparison(left);
        lastNonAssoc = prec;
      } else {
        left = binary(prec, left);
        lastNonAssoc = 0;
      }
    }
  }

  /** The precedence of the current token as an infix operator, or 0 when it is none. */
  private int infixPrecedence() {
    if (tok == T.OR) {
      return P_OR;
    }
    if (tok == T.AND) {
      return P_AND;
    }
    if (tok == T.IS || tok == T.ISNULL || tok == T.NOTNULL) {
      return P_IS;
    }
    if (tok != T.OP) {
      return 0;
    }
    if (isComparison(text)) {
      return P_CMP;
    }
    if (isBitwise(text)) {
      return P_BIT;
    }
    if (text.equals("+") || text.equals("-")) {
      return P_ADD;
    }
    if (text.equals("*") || text.equals("/") || text.equals("%")) {
      return P_MUL;
    }
    return 0;
  }

  /** A left-associative operator of level {@code prec} (logical, bitwise or arithmetic). */
  private Ast binary(int prec, Ast left) throws ScriptException {
    String op = text;
    Fn fn =
        switch (prec) {
          case P_OR -> Fn.OR;
          case P_AND -> Fn.AND;
          case P_BIT ->
              op.equals("&")
                  ? Fn.BITAND
                  : op.equals("|")
                      ? Fn.BITOR
                      : op.equals("#") ? Fn.BITXOR : op.equals("<<") ? Fn.LSHIFT : Fn.RSHIFT;
          case P_ADD -> op.equals("+") ? Fn.ADD : Fn.SUB;
          default -> op.equals("*") ? Fn.MUL : op.equals("/") ? Fn.DIV : Fn.MOD;
        };
    advance();
    return call(fn, left, expr(prec + 1));
  }

  /** {@code > and >=} are {@code <} and {@code <=} with the operands swapped, as in pgbench. */
  private Ast comparison(Ast left) throws ScriptException {
    String op = text;
    advance();
    Ast right = expr(P_CMP + 1);
    return switch (op) {
      case "=" -> call(Fn.EQ, left, right);
      case "<>", "!=" -> call(Fn.NE, left, right);
      case "<" -> call(Fn.LT, left, right);
      case "<=" -> call(Fn.LE, left, right);
      case ">" -> call(Fn.LT, right, left);
      default -> call(Fn.LE, right, left); // ">="
    };
  }

  private Ast isTest(Ast left) throws ScriptException {
    if (tok == T.ISNULL) {
      advance();
      return call(Fn.IS, left, new Lit(null));
    }
    if (tok == T.NOTNULL) {
      advance();
      return new Call(Fn.NOT, List.of(call(Fn.IS, left, new Lit(null))));
    }
    advance(); // IS
    boolean negate = false;
    if (tok == T.NOT) {
      negate = true;
      advance();
    }
    Lit what;
    if (tok == T.NULL) {
      what = new Lit(null);
    } else if (tok == T.TRUE) {
      what = new Lit(Boolean.TRUE);
    } else if (tok == T.FALSE) {
      what = new Lit(Boolean.FALSE);
    } else {
      throw unexpected();
    }
    advance();
    Ast is = call(Fn.IS, left, what);
    return negate ? new Call(Fn.NOT, List.of(is)) : is;
  }

  private Ast prefix() throws ScriptException {
    switch (tok) {
      case LPAREN:
        {
          advance();
          Ast e = expr(P_OR);
          expect(T.RPAREN, "\")\"");
          return e;
        }
      case INT:
      case DOUBLE:
        {
          Ast e = new Lit(value);
          advance();
          return e;
        }
      case MAXINT_PLUS_ONE:
        throw error("bigint constant overflow: " + text);
      case NULL:
        advance();
        return new Lit(null);
      case TRUE:
        advance();
        return new Lit(Boolean.TRUE);
      case FALSE:
        advance();
        return new Lit(Boolean.FALSE);
      case VAR:
        {
          Ast e = new Var(text);
          advance();
          return e;
        }
      case NOT:
        advance();
        return new Call(Fn.NOT, List.of(expr(P_NOT)));
      case CASE:
        return caseExpr();
      case IDENT:
        return function();
      case OP:
        return unary();
      default:
        throw unexpected();
    }
  }

  /** A prefix {@code + - ~}; any other operator cannot start an operand. */
  private Ast unary() throws ScriptException {
    if (text.equals("+")) {
      advance();
      return expr(P_UNARY);
    } else if (text.equals("-")) {
      advance();
      if (tok == T.MAXINT_PLUS_ONE) {
        // -9223372036854775808 is a constant: its digits alone overflow
        advance();
        return new Lit(Long.MIN_VALUE);
      }
      // "-x" is "0 - x", as in pgbench
      return call(Fn.SUB, new Lit(0L), expr(P_UNARY));
    } else if (text.equals("~")) {
      // no %prec UNARY in pgbench's grammar: "~" binds like the bitwise operators
      advance();
      return call(Fn.BITXOR, new Lit(-1L), expr(P_BIT + 1));
    }
    throw unexpected();
  }

  private Ast caseExpr() throws ScriptException {
    advance(); // CASE
    List<Ast> args = new ArrayList<>();
    if (tok != T.WHEN) {
      throw unexpected();
    }
    while (tok == T.WHEN) {
      advance();
      args.add(expr(P_OR));
      expect(T.THEN, "THEN");
      args.add(expr(P_OR));
    }
    if (tok == T.ELSE) {
      advance();
      args.add(expr(P_OR));
    } else {
      args.add(new Lit(null));
    }
    expect(T.END, "END");
    return new Call(Fn.CASE, List.copyOf(args));
  }

  private Ast function() throws ScriptException {
    String name = text;
    int at = tokStart;
    advance();
    if (tok != T.LPAREN) {
      pos = at;
      throw error("unexpected word \"" + name + "\" at column " + (at + 1));
    }
    Fn fn = FUNCTIONS.get(name.toLowerCase(Locale.ROOT));
    if (fn == null) {
      throw error("unknown function \"" + name + "\"");
    }
    advance();
    List<Ast> args = new ArrayList<>();
    if (tok != T.RPAREN) {
      args.add(expr(P_OR));
      while (tok == T.COMMA) {
        advance();
        args.add(expr(P_OR));
      }
    }
    expect(T.RPAREN, "\")\"");
    int n = args.size();
    if (n < fn.minArgs || (fn.maxArgs >= 0 && n > fn.maxArgs)) {
      String expected =
          fn.maxArgs < 0
              ? "at least " + fn.minArgs
              : fn.minArgs == fn.maxArgs ? "" + fn.minArgs : fn.minArgs + " or " + fn.maxArgs;
      throw error(
          "wrong number of arguments for function \""
              + name.toLowerCase(Locale.ROOT)
              + "\": expected "
              + expected
              + ", got "
              + n);
    }
    if (n > MAX_FARGS) {
      // pgbench evaluates at most 16 arguments and fails every evaluation of a longer call: it
      // can never succeed, so it is refused before anything runs
      throw error(
          "too many function arguments, maximum is "
              + MAX_FARGS
              + " (\""
              + name.toLowerCase(Locale.ROOT)
              + "\" has "
              + n
              + ")");
    }
    return new Call(fn, List.copyOf(args));
  }

  /** pgbench's MAX_FARGS. */
  static final int MAX_FARGS = 16;

  private static Ast call(Fn fn, Ast a, Ast b) {
    return new Call(fn, List.of(a, b));
  }

  private static boolean isComparison(String op) {
    switch (op) {
      case "=":
      case "<>":
      case "!=":
      case "<":
      case "<=":
      case ">":
      case ">=":
        return true;
      default:
        return false;
    }
  }

  private static boolean isBitwise(String op) {
    return op.equals("&") || op.equals("|") || op.equals("#") || op.equals("<<") || op.equals(">>");
  }

  private void expect(T t, String what) throws ScriptException {
    if (tok != t) {
      throw error(
          "syntax error in expression: expected "
              + what
              + " but found "
              + describeToken()
              + " at column "
              + (tokStart + 1));
    }
    advance();
  }

  private ScriptException unexpected() {
    return error(
        "syntax error in expression: unexpected "
            + describeToken()
            + " at column "
            + (tokStart + 1));
  }

  private String describeToken() {
    return tok == T.EOF ? "end of expression" : "\"" + text + "\"";
  }
}
