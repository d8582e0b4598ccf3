package dev.wg1bench.plan;

import java.time.Duration;

/**
 * The rules of a randomized block comparison's settings, in one place for {@code advise}, {@code
 * history check}'s re-measurement and the Java API's {@code compare}: each caller passes the name
 * its user wrote ({@code --blocks} on the command line, {@code blocks} in Java), so the two read
 * the same sentence for the same mistake.
 */
public final class BlockDesignRules {
  private BlockDesignRules() {}

  /** The smallest pilot with a precision goal: Stein's second stage needs a pilot sd with df 2. */
  public static final int MIN_PILOT = 3;

  /** Blocks within 2 (3 with a precision goal) and {@link Matrix#MAX_REPEAT}. */
  public static int blocks(String option, int n, boolean precision) {
    return (int)
        Checks.range(
            option,
            n,
            precision ? MIN_PILOT : 2,
            Matrix.MAX_REPEAT,
            precision ? "3 at least with a precision goal" : "an interval needs 2 blocks");
  }

  /** A half-width goal given in percent, between 0.1% and 100%; returns it as a fraction. */
  public static double precision(String option, double percent) {
    return Checks.range(option, percent, 0.1, 100, "a percentage") / 100;
  }

  /** An equivalence margin given in percent, between 0.1% and 100%; returns it as a fraction. */
  public static double margin(String option, double percent) {
    return Checks.range(option, percent, 0.1, 100, "a percentage") / 100;
  }

  /** The share of ops an arm may fail, in percent, between 0 and 100; returns a fraction. */
  public static double allowedFailureRate(String option, double percent) {
    return Checks.range(option, percent, 0, 100, "a percentage of attempted ops") / 100;
  }

  /**
   * A time budget: only with a precision goal (a goal to spend it on), and more than 0.
   *
   * @param text the budget as the user wrote it, for the message
   * @param precisionOption the name of the precision goal's setting
   */
  public static Duration budget(
      String option, Duration budget, String text, boolean precision, String precisionOption) {
    if (budget == null) {
      return null;
    }
    if (!precision) {
      throw new UsageException(
          option + " " + text + ": needs " + precisionOption + " (a goal to spend it on)");
    }
    if (budget.isZero() || budget.isNegative()) {
      throw new UsageException(option + " " + text + ": must be more than 0");
    }
    return budget;
  }
}
