package dev.wg1bench.script;

/**
 * Per-client evaluation state: the variable slots, the client's random generator and the seed used
 * by {@code hash()}/{@code permute()} when called without one ({@code :default_seed}).
 */
public final class EvalContext {
  private final Object[] slots;
  private final PgbenchRandom random;
  private final long defaultSeed;

  public EvalContext(Object[] slots, PgbenchRandom random, long defaultSeed) {
    this.slots = slots;
    this.random = random;
    this.defaultSeed = defaultSeed;
  }

  public Object[] slots() {
    return slots;
  }

  public PgbenchRandom random() {
    return random;
  }

  public long defaultSeed() {
    return defaultSeed;
  }
}
