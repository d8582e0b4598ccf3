package dev.wg1bench.plan;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * A randomized block comparison's settings when nobody says, declared once for every front: {@code
 * advise} (and the margin every command with {@code --margin} shares) reads {@link #ADVISE}, the
 * Java API's {@code compare} {@link #API}; {@code --help} and the API's javadoc show these values
 * (ApiDefaultsTest holds them to it).
 *
 * @param blocks blocks per claim, each one baseline and one treatment trial; with a precision goal,
 *     the pilot's
 * @param margin M of "equivalent within ±M", as a fraction
 * @param budget wall time a precision goal may spend
 * @param allowedFailureRate the share of an arm's attempted ops that may fail before it is broken
 */
public record BlockDefaults(int blocks, double margin, Duration budget, double allowedFailureRate) {
  /**
   * {@code advise}'s: five blocks a claim, since a run asks every shipped claim (a dozen) and an
   * inconclusive one says how many more blocks would settle it; an hour for a whole run's precision
   * goals, shared by its claims.
   */
  public static final BlockDefaults ADVISE = new BlockDefaults(5, 0.05, Duration.ofHours(1), 0);

  /**
   * The Java API's {@code compare}: one claim, judged by a test that gets no second run, so twice
   * advise's blocks (ten blocks' paired t interval is about 42% narrower than five's at the same
   * block sd: t(0.975, 9) / √10 = 0.72 against t(0.975, 4) / √5 = 1.24); ten minutes for a
   * precision goal, a build's budget rather than a tuning session's. The margin and the failures
   * allowed are advise's.
   */
  public static final BlockDefaults API =
      new BlockDefaults(10, ADVISE.margin, Duration.ofMinutes(10), ADVISE.allowedFailureRate);

  /** A fraction as an option takes it and {@code --help} shows it: 0.05 as "5%", 0 as "0%". */
  public static String percent(double fraction) {
    return BigDecimal.valueOf(fraction * 100).stripTrailingZeros().toPlainString() + "%";
  }
}
