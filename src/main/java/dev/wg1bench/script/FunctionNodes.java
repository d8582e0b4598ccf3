package dev.wg1bench.script;

/**
 * Compiled nodes for pgbench's built-in functions (abs, sqrt, random_*, hash_*, permute, ...). The
 * operators live in {@link Nodes}; the same rules apply here: NULL arguments give NULL (except
 * debug), and each function is its own class so evaluation stays a chain of direct virtual calls.
 */
final class FunctionNodes {
  private FunctionNodes() {}

  static final int F_ABS = 0;
  static final int F_DOUBLE = 1;
  static final int F_EXP = 2;
  static final int F_INT = 3;
  static final int F_LN = 4;
  static final int F_SQRT = 5;

  /** One-argument numeric functions. */
  record Unary(int fn, Expr e) implements Expr {
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
              // as pgbench (C negation): abs of the smallest bigint is itself, not an error
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

  static final class Pow extends Nodes.Binary {
    Pow(Expr l, Expr r) {
      super(0, l, r);
    }

    @Override
    Object apply(Object a, Object b) {
      return Math.pow(Values.toDouble(a), Values.toDouble(b));
    }
  }

  record Debug(String where, Expr e) implements Expr {
    @Override
    public Object eval(EvalContext ctx) {
      Object a = e.eval(ctx);
      System.err.println("debug(" + where + "): " + Values.describe(a));
      return a;
    }
  }

  /** least()/greatest(): double if any argument is a double, else int. */
  record Extremum(boolean greatest, Expr[] args) implements Expr {
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
  record Hash(boolean fnv, Expr value, Expr seed) implements Expr {
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

  record Random(int kind, Expr min, Expr max, Expr param) implements Expr {
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

  record Permute(Expr value, Expr size, Expr seed) implements Expr {
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
        throw Nodes.err("permute size parameter must be greater than zero");
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
