package dev.wg1bench.script;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * pgbench-compatible pseudo-random generator: xoroshiro128** seeded through splitmix64 (the
 * generator PostgreSQL 15's pg_prng uses), with pgbench's distributions. The state can be saved and
 * restored so that a retried operation sees the same random values (pgbench --max-tries).
 *
 * <p>Not thread-safe: one instance per client.
 */
public final class PgbenchRandom {
  static final double MIN_GAUSSIAN_PARAM = 2.0;
  static final double MIN_ZIPFIAN_PARAM = 1.001;
  static final double MAX_ZIPFIAN_PARAM = 1000.0;

  private long s0;
  private long s1;

  public PgbenchRandom(long seed) {
    seed(seed);
  }

  /**
   * Client {@code clientId}'s stream for the random functions, as pgbench 15+ seeds it: pgbench
   * seeds its base_random_sequence with --random-seed, then seeds each client's state, in client
   * order, with the next 64 bits drawn from that base sequence.
   */
  public static PgbenchRandom forClient(long randomSeed, int clientId) {
    return new PgbenchRandom(baseDraw(randomSeed, clientId));
  }

  /**
   * pgbench's {@code :default_seed} (the seed of hash() and permute() when none is given): the base
   * sequence's next draw after the clients' seeds.
   */
  public static long defaultSeed(long randomSeed, int clients) {
    return baseDraw(randomSeed, clients);
  }

  /**
   * The stream that chooses among weighted scripts: pgbench draws it per thread (three states per
   * thread after {@code :default_seed}: choose, throttle, sample). wg1bench runs one client per
   * thread, so client i gets what pgbench's thread i draws with as many threads as clients ({@code
   * -c N -j N}).
   *
   * @param defaultSeedDrawn false when -D default_seed was given, so pgbench drew no default seed
   */
  public static PgbenchRandom chooserFor(
      long randomSeed, int clients, int clientId, boolean defaultSeedDrawn) {
    return new PgbenchRandom(
        baseDraw(randomSeed, clients + (defaultSeedDrawn ? 1 : 0) + 3 * clientId));
  }

  /** The {@code index}-th (0-based) 64-bit draw of pgbench's base_random_sequence. */
  private static long baseDraw(long randomSeed, int index) {
    PgbenchRandom base = new PgbenchRandom(randomSeed);
    for (int i = 0; i < index; i++) {
      base.nextLong();
    }
    return base.nextLong();
  }

  /** Re-seeds the generator (same result as constructing a new one with this seed). */
  public void seed(long seed) {
    long x = seed;
    x += 0x9E3779B97F4A7C15L;
    s0 = mix(x);
    x += 0x9E3779B97F4A7C15L;
    s1 = mix(x);
    // xoroshiro must never be all-zero
    if (s0 == 0 && s1 == 0) {
      s0 = 0x5851F42D4C957F2DL;
      s1 = 0x14057B7EF767814FL;
    }
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Next raw 64 random bits (xoroshiro128**). */
  public long nextLong() {
    long a = s0;
    long b = s1;
    long result = Long.rotateLeft(a * 5, 7) * 9;
    b ^= a;
    s0 = Long.rotateLeft(a, 24) ^ b ^ (b << 16);
    s1 = Long.rotateLeft(b, 37);
    return result;
  }

  /** Uniform double in [0, 1) built from 52 random bits, as pg_prng_double. */
  public double nextDouble() {
    return (nextLong() >>> 12) * 0x1.0p-52;
  }

  /** Uniform in [0, range] (range taken as unsigned), by bitmask rejection: no modulo bias. */
  long nextBelowOrEqual(long range) {
    if (range == 0) {
      return 0;
    }
    int shift = Long.numberOfLeadingZeros(range);
    long v;
    do {
      v = nextLong() >>> shift;
    } while (Long.compareUnsigned(v, range) > 0);
    return v;
  }

  /** Uniform integer in [min, max], both inclusive, as pgbench random(). */
  public long uniform(long min, long max) {
    checkRange(min, max);
    return min + nextBelowOrEqual(max - min);
  }

  /**
   * Exponentially distributed integer in [min, max] as pgbench random_exponential: inverse CDF of
   * an exponential truncated at {@code parameter}, so min is the most frequent value.
   */
  public long exponential(long min, long max, double parameter) {
    checkRange(min, max);
    if (!(parameter > 0.0)) {
      throw new ScriptRuntimeException(
          "exponential parameter must be greater than zero (not " + fmt(parameter) + ")");
    }
    double cut = Math.exp(-parameter);
    // (0, 1] so that the log below is finite
    double u = 1.0 - nextDouble();
    double rand = -Math.log(cut + (1.0 - cut) * u) / parameter;
    return min + (long) ((max - min + 1) * rand);
  }

  /**
   * Gaussian integer in [min, max] as pgbench random_gaussian: Box-Muller draws, rejecting those
   * outside [-parameter, parameter) standard deviations, mapped onto the range.
   */
  public long gaussian(long min, long max, double parameter) {
    checkRange(min, max);
    if (!(parameter >= MIN_GAUSSIAN_PARAM)) {
      throw new ScriptRuntimeException(
          "gaussian parameter must be at least "
              + fmt(MIN_GAUSSIAN_PARAM)
              + " (not "
              + fmt(parameter)
              + ")");
    }
    double stdev;
    do {
      // Box-Muller wants (0, 1] for the log
      double r1 = 1.0 - nextDouble();
      double r2 = 1.0 - nextDouble();
      stdev = Math.sqrt(-2.0 * Math.log(r1)) * Math.sin(2.0 * Math.PI * r2);
    } while (stdev < -parameter || stdev >= parameter);
    double rand = (stdev + parameter) / (parameter * 2.0);
    return min + (long) ((max - min + 1) * rand);
  }

  /**
   * Zipfian integer in [min, max] as pgbench random_zipfian since PostgreSQL 13:
   * rejection-inversion sampling (Devroye), valid for 1.001 &lt;= s &lt;= 1000; min is the most
   * frequent value.
   */
  public long zipfian(long min, long max, double s) {
    checkRange(min, max);
    if (!(s >= MIN_ZIPFIAN_PARAM && s <= MAX_ZIPFIAN_PARAM)) {
      throw new ScriptRuntimeException(
          "zipfian parameter must be in range ["
              + MIN_ZIPFIAN_PARAM
              + ", "
              + (long) MAX_ZIPFIAN_PARAM
              + "] (not "
              + fmt(s)
              + ")");
    }
    return min - 1 + zipfianRank(max - min + 1, s);
  }

  private long zipfianRank(long n, double s) {
    if (n <= 1) {
      return 1;
    }
    double b = Math.pow(2.0, s - 1.0);
    while (true) {
      double u = nextDouble();
      double v = nextDouble();
      double x = Math.floor(Math.pow(u, -1.0 / (s - 1.0)));
      double t = Math.pow(1.0 + 1.0 / x, s - 1.0);
      // accept if under the hat and within the range
      if (v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= n) {
        return (long) x;
      }
    }
  }

  /** The generator state, to hand back to {@link #restoreState} for a retry. */
  public long[] saveState() {
    return new long[] {s0, s1};
  }

  /** Saves into a caller-owned array of length 2, avoiding an allocation per operation. */
  public void saveState(long[] into) {
    into[0] = s0;
    into[1] = s1;
  }

  public void restoreState(long[] state) {
    s0 = state[0];
    s1 = state[1];
  }

  /** Same checks and messages as pgbench for random*() bounds. */
  static void checkRange(long min, long max) {
    if (min > max) {
      throw new ScriptRuntimeException("empty range given to random");
    }
    long d = max - min;
    // max - min + 1 must fit in a signed 64-bit integer
    if (d < 0 || d + 1 < 0) {
      throw new ScriptRuntimeException("random range is too large");
    }
  }

  /** C's %f (the exact decimal expansion, 6 places), which pgbench uses in these messages. */
  static String fmt(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return Values.formatDouble(d);
    }
    String s = new BigDecimal(d).setScale(6, RoundingMode.HALF_EVEN).toPlainString();
    return d == 0.0 && 1.0 / d < 0 ? "-" + s : s;
  }
}
