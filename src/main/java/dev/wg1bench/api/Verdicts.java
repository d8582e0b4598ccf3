package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * Assertions on a {@link Comparison}'s verdict for JUnit tests (an {@link AssertionError}, which
 * every test framework reports as a failure), with the whole comparison as the message: each
 * block's ratio and each arm's failed and attempted ops. They assert what the interval shows, never
 * an absolute speed. Every one of them fails on {@link Comparison.Verdict#BROKEN} (an arm whose ops
 * failed above the allowed rate, or that could not run), naming the arm and its first error.
 *
 * <p>The test under them is two-sided at 5%: on an A/A pair (the same code twice) {@link
 * #assertNotSlower} fails in about 2.5% of runs (one side of it), whatever the machine, and {@link
 * #assertFaster} passes in about 2.5%.
 */
@API(status = STABLE, since = "0.1")
public final class Verdicts {
  private Verdicts() {}

  /** Fails when the treatment is significantly slower than the baseline, or an arm is broken. */
  public static void assertNotSlower(Comparison c) {
    broken(c);
    if (c.verdict() == Comparison.Verdict.SLOWER) {
      throw new AssertionError("the treatment is slower than the baseline:\n" + c.table());
    }
  }

  /** Fails unless the treatment is significantly faster. */
  public static void assertFaster(Comparison c) {
    broken(c);
    if (c.verdict() != Comparison.Verdict.FASTER) {
      throw new AssertionError("the treatment is not shown faster:\n" + c.table());
    }
  }

  /** Fails unless the treatment is significantly slower (a check that a gate would catch it). */
  public static void assertSlower(Comparison c) {
    broken(c);
    if (c.verdict() != Comparison.Verdict.SLOWER) {
      throw new AssertionError("the treatment is not shown slower:\n" + c.table());
    }
  }

  /** Fails unless the two are equivalent within the margin. */
  public static void assertEquivalent(Comparison c) {
    broken(c);
    if (c.verdict() != Comparison.Verdict.EQUIVALENT) {
      throw new AssertionError("the two are not shown equivalent:\n" + c.table());
    }
  }

  /**
   * Fails when {@code t}'s ops made more than {@code max} round trips each on average, or when its
   * round trips were not counted. A count, not a timing: the same ops give the same figure on any
   * machine, so an N+1 (ten lookups where one query would do) fails it every time, and no noise
   * makes it pass or fail.
   */
  public static void assertRoundTripsPerOpAtMost(Trial t, double max) {
    Double rt = t.roundTripsPerOp();
    if (rt == null) {
      throw new AssertionError(
          "round trips per op of target "
              + t.target()
              + " were not counted (an application's DataSource, or a socketFactory in the JDBC"
              + " URL): nothing to assert at most "
              + max);
    }
    if (rt > max) {
      throw new AssertionError(
          String.format(
              Locale.ROOT,
              "target %s: %.2f round trips per op, more than %.2f allowed (%s statements per op"
                  + " over %d ops)",
              t.target(),
              rt,
              max,
              t.statementsPerOp() == null
                  ? "unknown"
                  : String.format(Locale.ROOT, "%.2f", t.statementsPerOp()),
              t.ops() + t.failedOps()));
    }
  }

  private static void broken(Comparison c) {
    if (c.verdict() == Comparison.Verdict.BROKEN) {
      throw new AssertionError(
          "the "
              + (c.broken() == null ? "comparison" : c.broken().name().toLowerCase(Locale.ROOT))
              + " is broken, no verdict on speed:\n"
              + c.table());
    }
  }
}
