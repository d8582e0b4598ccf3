package dev.wg1bench.api;

/**
 * Assertions on a {@link Comparison}'s verdict for JUnit tests (an {@link AssertionError}, which
 * every test framework reports as a failure), with the whole comparison as the message. They assert
 * what the interval shows, never an absolute speed: a gate on {@link #assertNotSlower} fails an A/A
 * pair in about 5% of runs (α), whatever the machine.
 */
public final class Verdicts {
  private Verdicts() {}

  /** Fails when the treatment is significantly slower than the baseline. */
  public static void assertNotSlower(Comparison c) {
    if (c.verdict() == Comparison.Verdict.SLOWER) {
      throw new AssertionError("the treatment is slower than the baseline:\n" + c.table());
    }
  }

  /** Fails unless the treatment is significantly faster. */
  public static void assertFaster(Comparison c) {
    if (c.verdict() != Comparison.Verdict.FASTER) {
      throw new AssertionError("the treatment is not shown faster:\n" + c.table());
    }
  }

  /** Fails unless the treatment is significantly slower (a check that a gate would catch it). */
  public static void assertSlower(Comparison c) {
    if (c.verdict() != Comparison.Verdict.SLOWER) {
      throw new AssertionError("the treatment is not shown slower:\n" + c.table());
    }
  }

  /** Fails unless the two are equivalent within the margin. */
  public static void assertEquivalent(Comparison c) {
    if (c.verdict() != Comparison.Verdict.EQUIVALENT) {
      throw new AssertionError("the two are not shown equivalent:\n" + c.table());
    }
  }
}
