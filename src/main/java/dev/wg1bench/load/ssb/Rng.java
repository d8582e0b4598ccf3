package dev.wg1bench.load.ssb;

/**
 * One Park-Miller random stream of dbgen (GENERATOR.md sections 2.1 to 2.4).
 *
 * <p>Usage counters of the row protocol (2.5) are not tracked: every generator method knows how
 * many draws a row made and jumps the stream explicitly, which is equivalent.
 */
final class Rng {
  static final long M = 2147483647L;
  static final long A = 16807L;
  static final double MD = 2147483647.0;

  /** A^i mod M for small jumps, so per-row jumps cost one multiplication. */
  private static final long[] SMALL_POW = new long[64];

  static {
    SMALL_POW[0] = 1;
    for (int i = 1; i < SMALL_POW.length; i++) {
      SMALL_POW[i] = SMALL_POW[i - 1] * A % M;
    }
  }

  long state;

  Rng(long seed) {
    this.state = seed;
  }

  /** U(lo, hi) of 2.3: must use the double formula, not an integer equivalent. */
  long draw(long lo, long hi) {
    long x = state * A % M;
    state = x;
    double r = (double) (hi - lo + 1);
    return lo + (long) ((x / MD) * r);
  }

  /** Advances by n states (2.4); n &lt;= 0 does nothing. */
  void advance(long n) {
    if (n <= 0) {
      return;
    }
    state = state * pow(n) % M;
  }

  /** A^n mod M by square-and-multiply. */
  static long pow(long n) {
    if (n < SMALL_POW.length) {
      return SMALL_POW[(int) n];
    }
    long result = 1;
    long base = A;
    long e = n;
    while (e > 0) {
      if ((e & 1) != 0) {
        result = result * base % M;
      }
      base = base * base % M;
      e >>= 1;
    }
    return result;
  }

  /** A stream positioned so that its next draw uses x(skip + 1) of 2.7. */
  static Rng at(long seed, long skip) {
    Rng r = new Rng(seed);
    r.advance(skip);
    return r;
  }
}
