package dev.wg1bench.script;

/**
 * Compiled expression nodes. Each operator is its own class so evaluation is a chain of direct
 * virtual calls: no maps, strings or regexes at run time. Semantics follow pgbench's
 * evalStandardFunc: NULL arguments give NULL (except IS and debug), int op int stays int with
 * overflow checks, any double makes the operation double (except % and bitwise ops, which coerce to
 * int).
 */
final class Nodes {
  private Nodes() {}

  static ScriptRuntimeException err(String msg) {
    return new ScriptRuntimeException(msg);
  }

  static ScriptRuntimeException outOfRange() {
    return new ScriptRuntimeException("bigint out of range");
  }

  /** Root of a step's expression: attaches source:line to errors raised inside. */
  static final class Located implements Expr {
    final String source;
    final int line;
    final Expr e;

    Located(String source, int line, Expr e) {
      this.source = source;
      this.line = line;
      this.e = e;
    }

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

  /** Coerces a \sleep amount to a Long. */
  static final class ToLong implements Expr {
    final Expr e;

    ToLong(Expr e) {
      this.e = e;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object v = e.eval(ctx);
      if (v instanceof Long) {
        return v;
      }
      return Values.toLong(v);
    }
  }

  static final class Const implements Expr {
    final Object v;

    Const(Object v) {
      this.v = v;
    }

    @Override
    public Object eval(EvalContext ctx) {
      return v;
    }
  }

  static final class VarRef implements Expr {
    final int slot;

    VarRef(int slot) {
      this.slot = slot;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object v = ctx.slots()[slot];
      if (v == null || v instanceof Long || v instanceof Double || v instanceof Boolean) {
        return v;
      }
      // raw value (-D define, \gset column): interpret it as pgbench would
      return Values.normalize(v);
    }
  }

  // ---- arithmetic ----

  static final int ADD = 0;
  static final int SUB = 1;
  static final int MUL = 2;
  static final int DIV = 3;
  static final int MOD = 4;

  static final class Arith implements Expr {
    final int op;
    final Expr l;
    final Expr r;

    Arith(int op, Expr l, Expr r) {
      this.op = op;
      this.l = l;
      this.r = r;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object a = l.eval(ctx);
      Object b = r.eval(ctx);
      if (a == null || b == null) {
        return null;
      }
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
              throw outOfRange();
            }
            return s;
          }
        case SUB:
          {
            long s = x - y;
            if (((x ^ y) & (x ^ s)) < 0) {
              throw outOfRange();
            }
            return s;
          }
        case MUL:
          {
            long hi = Math.multiplyHigh(x, y);
            long lo = x * y;
            if ((hi != 0 || lo < 0) && (hi != -1 || lo >= 0)) {
              throw outOfRange();
            }
            return lo;
          }
        case DIV:
          if (y == 0) {
            throw err("division by zero");
          }
          if (y == -1) {
            if (x == Long.MIN_VALUE) {
              throw outOfRange();
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
          if (y == 0.0) {
            throw err("division by zero");
          }
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
  static final class Bit implements Expr {
    final int op;
    final Expr l;
    final Expr r;

    Bit(int op, Expr l, Expr r) {
      this.op = op;
      this.l = l;
      this.r = r;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object a = l.eval(ctx);
      Object b = r.eval(ctx);
      if (a == null || b == null) {
        return null;
      }
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
  static final class Cmp implements Expr {
    final int op;
    final Expr l;
    final Expr r;

    Cmp(int op, Expr l, Expr r) {
      this.op = op;
      this.l = l;
      this.r = r;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object a = l.eval(ctx);
      Object b = r.eval(ctx);
      if (a == null || b == null) {
        return null;
      }
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

  static final class And implements Expr {
    final Expr l;
    final Expr r;

    And(Expr l, Expr r) {
      this.l = l;
      this.r = r;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object a = l.eval(ctx);
      if (a == null) {
        return null;
      }
      if (!Values.truth(a)) {
        return Boolean.FALSE;
      }
      Object b = r.eval(ctx);
      return b == null ? null : (Object) Values.truth(b);
    }
  }

  static final class Or implements Expr {
    final Expr l;
    final Expr r;

    Or(Expr l, Expr r) {
      this.l = l;
      this.r = r;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object a = l.eval(ctx);
      if (a == null) {
        return null;
      }
      if (Values.truth(a)) {
        return Boolean.TRUE;
      }
      Object b = r.eval(ctx);
      return b == null ? null : (Object) Values.truth(b);
    }
  }

  static final class Not implements Expr {
    final Expr e;

    Not(Expr e) {
      this.e = e;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object a = e.eval(ctx);
      return a == null ? null : (Object) !Values.toBool(a);
    }
  }

  /** IS NULL / IS TRUE / IS FALSE: same type and value, no coercion (as pgbench). */
  static final class Is implements Expr {
    final Expr e;
    final Boolean what; // null means IS NULL

    Is(Expr e, Boolean what) {
      this.e = e;
      this.what = what;
    }

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

  static final class Case implements Expr {
    final Expr[] whens;
    final Expr[] thens;
    final Expr otherwise;

    Case(Expr[] whens, Expr[] thens, Expr otherwise) {
      this.whens = whens;
      this.thens = thens;
      this.otherwise = otherwise;
    }

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

  // ---- functions ----

  static final int F_ABS = 0;
  static final int F_DOUBLE = 1;
  static final int F_EXP = 2;
  static final int F_INT = 3;
  static final int F_LN = 4;
  static final int F_SQRT = 5;

  /** One-argument numeric functions. */
  static final class Unary implements Expr {
    final int fn;
    final Expr e;

    Unary(int fn, Expr e) {
      this.fn = fn;
      this.e = e;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object a = e.eval(ctx);
      if (a == null) {
        return null;
      }
      switch (fn) {
        case F_ABS:
          {
            if (!(a instanceof Long || a instanceof Double)) {
              a = Values.normalize(a);
              if (a == null) {
                return null;
              }
            }
            if (a instanceof Long) {
              long x = (Long) a;
              if (x == Long.MIN_VALUE) {
                throw outOfRange();
              }
              return x < 0 ? -x : x;
            }
            double d = Values.toDouble(a);
            return d < 0.0 ? -d : d;
          }
        case F_DOUBLE:
          return Values.toDouble(a);
        case F_EXP:
          return Math.exp(Values.toDouble(a));
        case F_INT:
          return Values.toLong(a);
        case F_LN:
          return Math.log(Values.toDouble(a));
        default:
          return Math.sqrt(Values.toDouble(a));
      }
    }
  }

  static final class Pow implements Expr {
    final Expr l;
    final Expr r;

    Pow(Expr l, Expr r) {
      this.l = l;
      this.r = r;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object a = l.eval(ctx);
      Object b = r.eval(ctx);
      if (a == null || b == null) {
        return null;
      }
      return Math.pow(Values.toDouble(a), Values.toDouble(b));
    }
  }

  static final class Debug implements Expr {
    final String where;
    final Expr e;

    Debug(String where, Expr e) {
      this.where = where;
      this.e = e;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object a = e.eval(ctx);
      System.err.println("debug(" + where + "): " + Values.describe(a));
      return a;
    }
  }

  /** least()/greatest(): double if any argument is a double, else int. */
  static final class Extremum implements Expr {
    final boolean greatest;
    final Expr[] args;

    Extremum(boolean greatest, Expr[] args) {
      this.greatest = greatest;
      this.args = args;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object[] vals = new Object[args.length];
      boolean haveDouble = false;
      boolean haveNull = false;
      for (int i = 0; i < args.length; i++) {
        Object v = args[i].eval(ctx);
        if (v != null && !(v instanceof Long || v instanceof Double || v instanceof Boolean)) {
          v = Values.normalize(v);
        }
        vals[i] = v;
        haveNull |= v == null;
        haveDouble |= v instanceof Double;
      }
      if (haveNull) {
        return null;
      }
      if (haveDouble) {
        double best = Values.toDouble(vals[0]);
        for (int i = 1; i < vals.length; i++) {
          double d = Values.toDouble(vals[i]);
          best = greatest ? Math.max(best, d) : Math.min(best, d);
        }
        return best;
      }
      long best = Values.toLong(vals[0]);
      for (int i = 1; i < vals.length; i++) {
        long x = Values.toLong(vals[i]);
        best = greatest ? Math.max(best, x) : Math.min(best, x);
      }
      return best;
    }
  }

  /** hash_murmur2 / hash_fnv1a; a null seed expression means ctx.defaultSeed(). */
  static final class Hash implements Expr {
    final boolean fnv;
    final Expr value;
    final Expr seed;

    Hash(boolean fnv, Expr value, Expr seed) {
      this.fnv = fnv;
      this.value = value;
      this.seed = seed;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object v = value.eval(ctx);
      Object s = seed == null ? (Object) ctx.defaultSeed() : seed.eval(ctx);
      if (v == null || s == null) {
        return null;
      }
      long x = Values.toLong(v);
      long sd = Values.toLong(s);
      return fnv ? fnv1a(x, sd) : murmur2(x, sd);
    }
  }

  static long fnv1a(long val, long seed) {
    long result = 0xcbf29ce484222325L ^ seed;
    for (int i = 0; i < 8; i++) {
      long octet = val & 0xff;
      val >>= 8;
      result ^= octet;
      result *= 0x100000001b3L;
    }
    return result;
  }

  static long murmur2(long val, long seed) {
    final long m = 0xc6a4a7935bd1e995L;
    // seed mixed with the input length (8 bytes) times the multiplier
    long result = seed ^ (8 * m);
    long k = val;
    k *= m;
    k ^= k >>> 47;
    k *= m;
    result ^= k;
    result *= m;
    result ^= result >>> 47;
    result *= m;
    result ^= result >>> 47;
    return result;
  }

  static final int R_UNIFORM = 0;
  static final int R_EXPONENTIAL = 1;
  static final int R_GAUSSIAN = 2;
  static final int R_ZIPFIAN = 3;

  static final class Random implements Expr {
    final int kind;
    final Expr min;
    final Expr max;
    final Expr param;

    Random(int kind, Expr min, Expr max, Expr param) {
      this.kind = kind;
      this.min = min;
      this.max = max;
      this.param = param;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object a = min.eval(ctx);
      Object b = max.eval(ctx);
      Object p = param == null ? null : param.eval(ctx);
      if (a == null || b == null || (param != null && p == null)) {
        return null;
      }
      long lo = a instanceof Long ? (Long) a : Values.toLong(a);
      long hi = b instanceof Long ? (Long) b : Values.toLong(b);
      PgbenchRandom rnd = ctx.random();
      switch (kind) {
        case R_UNIFORM:
          return rnd.uniform(lo, hi);
        case R_EXPONENTIAL:
          return rnd.exponential(lo, hi, Values.toDouble(p));
        case R_GAUSSIAN:
          return rnd.gaussian(lo, hi, Values.toDouble(p));
        default:
          return rnd.zipfian(lo, hi, Values.toDouble(p));
      }
    }
  }

  static final class Permute implements Expr {
    final Expr value;
    final Expr size;
    final Expr seed;

    Permute(Expr value, Expr size, Expr seed) {
      this.value = value;
      this.size = size;
      this.seed = seed;
    }

    @Override
    public Object eval(EvalContext ctx) {
      Object v = value.eval(ctx);
      Object n = size.eval(ctx);
      Object s = seed == null ? (Object) ctx.defaultSeed() : seed.eval(ctx);
      if (v == null || n == null || s == null) {
        return null;
      }
      long sz = Values.toLong(n);
      if (sz <= 0) {
        throw err("permute size parameter must be greater than zero");
      }
      return permute(Values.toLong(v), sz, Values.toLong(s));
    }
  }

  /**
   * Pseudorandom bijection of [0, size): several rounds of keyed multiply/xor/rotate on the largest
   * power-of-two block at either end of the range plus a keyed rotation of the whole range, with
   * keys drawn from a generator seeded by {@code seed}.
   */
  static long permute(long val, long size, long seed) {
    if (size < 2) {
      return 0;
    }
    PgbenchRandom rng = new PgbenchRandom(seed);
    long v = Long.remainderUnsigned(val, size);
    int masklen = 63 - Long.numberOfLeadingZeros(size);
    long mask = (1L << masklen) - 1;
    for (int i = 0; i < 6; i++) {
      long m = (rng.nextLong() & mask) | 1;
      long r = rng.nextLong() & mask;
      if (Long.compareUnsigned(v, mask) <= 0) {
        v = ((v * m) ^ r) & mask;
        v = ((v << 1) & mask) | (v >>> (masklen - 1));
      }
      m = (rng.nextLong() & mask) | 1;
      r = rng.nextLong() & mask;
      long t = size - 1 - v;
      if (Long.compareUnsigned(t, mask) <= 0) {
        t = ((t * m) ^ r) & mask;
        t = ((t << 1) & mask) | (t >>> (masklen - 1));
        v = size - 1 - t;
      }
      r = rng.nextBelowOrEqual(size - 1);
      v = Long.remainderUnsigned(v + r, size);
    }
    return v;
  }
}
