package dev.wg1bench.tpcc;

import java.util.Random;

/**
 * The random values of TPC-C 5.11 clause 2.1 and 4.3.2: uniform integers, NURand, a-strings and
 * n-strings, last names from the ten syllables, and the data fields of which 10% hold "ORIGINAL".
 */
final class TpccRandom {
  /** Clause 4.3.2.3: a last name is three of these, picked by the digits of a number 0..999. */
  private static final String[] SYLLABLES = {
    "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"
  };

  private static final char[] ALNUM =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

  private final Random random;

  TpccRandom(Random random) {
    this.random = random;
  }

  /** Uniform in [lo, hi], both included (clause 2.1.4's random(x..y)). */
  int uniform(int lo, int hi) {
    return lo + random.nextInt(hi - lo + 1);
  }

  /** Clause 2.1.6: NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x. */
  int nurand(int a, int c, int lo, int hi) {
    return (((uniform(0, a) | uniform(lo, hi)) + c) % (hi - lo + 1)) + lo;
  }

  /** Clause 4.3.2.3: the last name of number {@code n} (0..999). */
  static String lastName(int n) {
    return SYLLABLES[n / 100] + SYLLABLES[n / 10 % 10] + SYLLABLES[n % 10];
  }

  /** Clause 4.3.2.2: a random alphanumeric string of length in [lo, hi], appended to {@code b}. */
  StringBuilder astring(StringBuilder b, int lo, int hi) {
    int n = uniform(lo, hi);
    for (int i = 0; i < n; i++) {
      b.append(ALNUM[random.nextInt(ALNUM.length)]);
    }
    return b;
  }

  String astring(int lo, int hi) {
    return astring(new StringBuilder(hi), lo, hi).toString();
  }

  /** A random numeric string of exactly {@code n} digits, appended to {@code b}. */
  StringBuilder nstring(StringBuilder b, int n) {
    for (int i = 0; i < n; i++) {
      b.append((char) ('0' + random.nextInt(10)));
    }
    return b;
  }

  /**
   * Clause 4.3.3.1: i_data and s_data, a-string [26..50], 10% with "ORIGINAL" at a random place.
   */
  StringBuilder data(StringBuilder b) {
    if (random.nextInt(10) != 0) {
      return astring(b, 26, 50);
    }
    int n = uniform(26, 50);
    int at = random.nextInt(n - 8 + 1);
    int start = b.length();
    astring(b, n - 8, n - 8);
    b.insert(start + at, "ORIGINAL");
    return b;
  }

  /** Clause 4.3.2.7: a zip code, four random digits and "11111". */
  StringBuilder zip(StringBuilder b) {
    return nstring(b, 4).append("11111");
  }

  /** A state: two random letters. */
  StringBuilder state(StringBuilder b) {
    b.append((char) ('A' + random.nextInt(26)));
    return b.append((char) ('A' + random.nextInt(26)));
  }

  /** A fixed-point value in [lo, hi] hundredths (or ten-thousandths), as text with the point. */
  static StringBuilder fixed(StringBuilder b, int value, int decimals) {
    int unit = decimals == 2 ? 100 : 10_000;
    int whole = value / unit;
    int frac = value % unit;
    b.append(whole).append('.');
    String f = Integer.toString(frac);
    for (int i = f.length(); i < decimals; i++) {
      b.append('0');
    }
    return b.append(f);
  }

  /**
   * The position of each of 1..n in a random permutation (clause 4.3.3.1: o_c_id is "selected
   * sequentially from a random permutation of [1 .. 3,000]").
   */
  int[] permutation(int n) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i + 1;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }

  Random source() {
    return random;
  }
}
