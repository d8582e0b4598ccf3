package dev.wg1bench.plan;

import java.math.BigDecimal;

/**
 * Every range an option is checked against, in one wording: "OPTION must be between MIN and MAX,
 * got VALUE", a reason in brackets where the bound is not obvious. Commands, loaders and
 * experiments call these rather than word their own, so a user reads one form everywhere (and
 * {@code CliErrorsTest} can hold it).
 */
public final class Checks {
  private Checks() {}

  /** {@code value} within [min, max], else a {@link UsageException}; returns it. */
  public static long range(String option, long value, long min, long max) {
    return range(option, value, min, max, null);
  }

  /** As {@link #range(String, long, long, long)}, saying why a bound is what it is. */
  public static long range(String option, long value, long min, long max, String why) {
    if (value < min || value > max) {
      throw new UsageException(message(option, min, max, String.valueOf(value), why));
    }
    return value;
  }

  /** {@code value} within [min, max] (a NaN or infinity never is), numbers in plain digits. */
  public static double range(String option, double value, double min, double max) {
    return range(option, value, min, max, null);
  }

  /** As {@link #range(String, double, double, double)}, saying why or in what unit. */
  public static double range(String option, double value, double min, double max, String why) {
    if (!(value >= min && value <= max)) {
      throw new UsageException(message(option, plain(min), plain(max), plain(value), why));
    }
    return value;
  }

  /** "5%" or "5" as 0.05, the percentage within [lo, hi]. */
  public static double percent(String option, String text, double lo, double hi) {
    double v;
    try {
      v = Double.parseDouble(text.trim().replaceFirst("%$", ""));
    } catch (NumberFormatException e) {
      throw new UsageException(option + " '" + text + "' must be a percentage, e.g. 5%");
    }
    return range(option, v, lo, hi, "a percentage") / 100;
  }

  private static String message(Object option, Object min, Object max, String value, String why) {
    return option
        + " must be between "
        + min
        + " and "
        + max
        + ", got "
        + value
        + (why == null ? "" : " (" + why + ")");
  }

  /** 0.5, 100000 and 1.0E-4 as 0.5, 100000 and 0.0001. */
  private static String plain(double v) {
    return Double.isFinite(v)
        ? BigDecimal.valueOf(v).stripTrailingZeros().toPlainString()
        : String.valueOf(v);
  }
}
