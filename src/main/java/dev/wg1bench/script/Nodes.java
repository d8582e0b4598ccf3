package dev.wg1bench.script;

/**
 * Compiled expression nodes. Each operator is its own class (a record where it only holds its
 * operands) so evaluation is a chain of direct virtual calls: no maps, strings or regexes at run
 * time. Semantics follow pgbench's evalStandardFunc: NULL arguments give NULL (except IS and
 * debug), int op int stays int with overflow checks, any double makes the operation double (except
 * % and bitwise ops, which coerce to int). Built-in functions are in {@link FunctionNodes}.
 */
final class Nodes {
  private Nodes() {}

  static ScriptRuntimeException err(String msg) {
    return new ScriptRuntimeException(msg);
  }

  /** pgbench names the operation that overflowed: "bigint add out of range". */
  static ScriptRuntimeException outOfRange(String op) {
    return new ScriptRuntimeException("bigint " + op + " out of range");
  }

  /** Root of a step's expression: attaches source:line to errors raised inside. */
  record Located(String source, int line, Expr e) implements Expr {
    @Override
    public Object eval(EvalContext ctx) {
      try {
        return e.eval(ctx);
      } catch (ScriptRuntimeException ex) {
        if (ex.located()) {
          throw ex;
        }
        throw new ScriptRuntimeException(source, line, ex.detail(), ex);
      }
    }
  }

  /**
   * A {@code \sleep} amount as pgbench reads it: {@code atoi()} of the variable's text (so 1.5
   * sleeps 1 unit and a non-number 0), or the literal.
   */
  record ToLong(Expr e) implements Expr {
    @Override
    public Object eval(EvalContext ctx) {
      if (e instanceof VarRef ref) {
        Object raw = ctx.slots()[ref.slot];
        if (raw == Values.UNDEFINED) {
          throw err("sleep: undefined variable \"" + ref.name + "\"");
        }
        return atoi(Values.toText(raw));
      }
      Object v = e.eval(ctx);
      return v instanceof Long ? v : Values.toLong(v);
    }

    /** C's atoi(): leading white space, a sign, digits up to the first other character; an int. */
    static long atoi(String s) {
      int i = 0;
      int n = s.length();
      while (i < n && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
      boolean neg = false;
      if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        neg = s.charAt(i++) == '-';
      }
      long v = 0;
      while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9' && v < Integer.MAX_VALUE + 1L) {
        v = v * 10 + (s.charAt(i++) - '0');
      }
      return (int) (neg ? -v : v);
    }
  }

  record Const(Object v) implements Expr {
    @Override
    public Object eval(EvalContext ctx) {
      return v;
    }
  }

  record VarRef(int slot, String name) implements Expr {
    @Override
    public Object eval(EvalContext ctx) {
      Object v = ctx.slots()[slot];
      if (v == null || v instanceof Long || v instanceof Double || v instanceof Boolean) {
        return v;
      }
      if (v == Values.UNDEFINED) {
        // an \aset that found no row leaves its variables unset, as in pgbench
        throw err("undefined variable \"" + name + "\"");
      }
      // raw value (-D define, \gset column): interpret it as pgbench would
      try {
        return Values.normalize(v);
      } catch (ScriptRuntimeException e) {
        if (e.detail().startsWith("value ")) {
          throw e;
        }
        throw err("malformed variable \"" + name + "\" value: \"" + v + "\"");
      }
    }
  }

  /**
   * A binary operator applied to the value so far: one link of a {@link Chain}, its right operand
   * evaluated by it.
   */
  interface Link {
    Object then(Object left, EvalContext ctx);
  }

  /**
   * A left-deep run of binary operators, {@code ((e0 op1 e1) op2 e2) ...}, as a loop over its
   * links: the same order of evaluation, the same nulls and errors as the nested nodes, but a sum
   * of 20,000 terms takes one frame, not 20,000 (which overflowed the stack at compile and run
   * time).
   */
  record Chain(Expr first, Link[] links) implements Expr {
    @Override
    public Object eval(EvalContext ctx) {
      Object v = first.eval(ctx);
      for (Link k : links) {
        v = k.then(v, ctx);
      }
      return v;
    }
  }

  /**
   * A binary operator: both sides are evaluated, left first, and a null (an unset value) on either
   * side makes the result null. In a {@link Chain} its left operand is null: the chain's value so
   * far is its left side.
   */
  abstract static class Binary implements Expr, Link {
    final int op;
    final Expr l;
    final Expr r;

    Binary(int op, Expr l, Expr r) {
      this.op = op;
      this.l = l;
      this.r = r;
    }

    @Override
    public final Object eval(EvalContext ctx) {
      return then(l.eval(ctx), ctx);
    }

    @Override
    public final Object then(Object a, EvalContext ctx) {
      Object b = r.eval(ctx);
      if (a == null || b == null) {
        return null;
      }
      return apply(a, b);
    }

    /** The operator on two non-null values. */
    abstract Object apply(Object a, Object b);
  }

  // ---- arithmetic ----

  static final int ADD = 0;
  static final int SUB = 1;
  static final int MUL = 2;
  static final int DIV = 3;
  static final int MOD = 4;

  static final class Arith extends Binary {
    Arith(int op, Expr l, Expr r) {
      super(op, l, r);
    }

    @Override
    Object apply(Object a, Object b) {
      if (a instanceof Long && b instanceof Long) {
        return intOp(op, (Long) a, (Long) b);
      }
      // mixed types or raw values: normalize (no-op for numbers) then decide
      return evalValues(op, Values.normalize(a), Values.normalize(b));
    }

    static Object evalValues(int op, Object a, Object b) {
      if (a == null || b == null) {
        return null;
      }
      if (op != MOD && (a instanceof Double || b instanceof Double)) {
        return doubleOp(op, Values.toDouble(a), Values.toDouble(b));
      }
      return intOp(op, Values.toLong(a), Values.toLong(b));
    }

    static Long intOp(int op, long x, long y) {
      switch (op) {
        case ADD:
          {
            long s = x + y;
            if (((x ^ s) & (y ^ s)) < 0) {
              throw outOfRange("add");
            }
            return s;
          }
        case SUB:
          {
            long s = x - y;
            if (((x ^ y) & (x ^ s)) < 0) {
              throw outOfRange("sub");
            }
            return s;
          }
        case MUL:
          {
            long hi = Math.multiplyHigh(x, y);
            long lo = x * y;
            if ((hi != 0 || lo < 0) && (hi != -1 || lo >= 0)) {
              throw outOfRange("mul");
            }
            return lo;
          }
        case DIV:
          if (y == 0) {
            throw err("division by zero");
          }
          if (y == -1) {
            if (x == Long.MIN_VALUE) {
              throw outOfRange("div");
            }
            return -x;
          }
          return x / y; // truncates toward zero, like C
        default: // MOD
          if (y == 0) {
            throw err("division by zero");
          }
          // sign follows the dividend, like C; -1 special-cased to avoid MIN % -1 trouble
          return y == -1 ? 0L : x % y;
      }
    }

    static Double doubleOp(int op, double x, double y) {
      switch (op) {
        case ADD:
          return x + y;
        case SUB:
          return x - y;
        case MUL:
          return x * y;
        default: // DIV
          // IEEE as in C: 1.0/0 is Infinity, 0.0/0 NaN; only integer division by zero fails
          return x / y;
      }
    }
  }

  static final int AND = 0;
  static final int OR = 1;
  static final int XOR = 2;
  static final int SHL = 3;
  static final int SHR = 4;

  /** Bitwise operators: integers only. */
  static final class Bit extends Binary {
    Bit(int op, Expr l, Expr r) {
      super(op, l, r);
    }

    @Override
    Object apply(Object a, Object b) {
      long x = Values.toLong(a);
      long y = Values.toLong(b);
      switch (op) {
        case AND:
          return x & y;
        case OR:
          return x | y;
        case XOR:
          return x ^ y;
        case SHL:
          return x << y;
        default:
          return x >> y;
      }
    }
  }

  static final int EQ = 0;
  static final int NE = 1;
  static final int LE = 2;
  static final int LT = 3;

  /** Comparisons: as doubles if either side is a double, else as integers. */
  static final class Cmp extends Binary {
    Cmp(int op, Expr l, Expr r) {
      super(op, l, r);
    }

    @Override
    Object apply(Object a, Object b) {
      if (!(a instanceof Long || a instanceof Double || a instanceof Boolean)) {
        a = Values.normalize(a);
      }
      if (!(b instanceof Long || b instanceof Double || b instanceof Boolean)) {
        b = Values.normalize(b);
      }
      if (a == null || b == null) {
        return null;
      }
      boolean res;
      if (a instanceof Double || b instanceof Double) {
        double x = Values.toDouble(a);
        double y = Values.toDouble(b);
        res = op == EQ ? x == y : op == NE ? x != y : op == LE ? x <= y : x < y;
      } else {
        long x = Values.toLong(a);
        long y = Values.toLong(b);
        res = op == EQ ? x == y : op == NE ? x != y : op == LE ? x <= y : x < y;
      }
      return res;
    }
  }

  /**
   * AND and OR, short-circuit as pgbench: a false left side decides an AND, a true one an OR, and
   * the right side is then not evaluated.
   */
  record Logic(boolean and, Expr l, Expr r) implements Expr, Link {
    @Override
    public Object eval(EvalContext ctx) {
      return then(l.eval(ctx), ctx);
    }

    @Override
    public Object then(Object a, EvalContext ctx) {
      if (a == null) {
        return null;
      }
      // pgbench's coerceToBool: only booleans (1 AND true is an error there)
      boolean left = Values.toBool(a);
      if (left != and) {
        return left;
      }
      Object b = r.eval(ctx);
      return b == null ? null : (Object) Values.toBool(b);
    }
  }

  record Not(Expr e) implements Expr {
    @Override
    public Object eval(EvalContext ctx) {
      Object a = e.eval(ctx);
      return a == null ? null : (Object) !Values.toBool(a);
    }
  }

  /**
   * IS NULL / IS TRUE / IS FALSE: same type and value, no coercion (as pgbench); {@code what} is
   * TRUE, FALSE, or null for IS NULL.
   */
  record Is(Expr e, Boolean what) implements Expr {
    @Override
    public Object eval(EvalContext ctx) {
      Object a = e.eval(ctx);
      if (a != null && !(a instanceof Long || a instanceof Double || a instanceof Boolean)) {
        a = Values.normalize(a);
      }
      if (what == null) {
        return a == null;
      }
      return what.equals(a);
    }
  }

  record Case(Expr[] whens, Expr[] thens, Expr otherwise) implements Expr {
    @Override
    public Object eval(EvalContext ctx) {
      for (int i = 0; i < whens.length; i++) {
        if (Values.truth(whens[i].eval(ctx))) {
          return thens[i].eval(ctx);
        }
      }
      return otherwise.eval(ctx);
    }
  }
}
