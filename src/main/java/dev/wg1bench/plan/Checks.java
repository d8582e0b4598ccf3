package dev.wg1bench.plan;

/** The one shape of a range message: "OPTION must be between MIN and MAX, got VALUE". */
final class Checks {
  private Checks() {}

  static void range(String option, long value, long min, long max) {
    if (value < min || value > max) {
      throw new UsageException(
          option + " must be between " + min + " and " + max + ", got " + value);
    }
  }
}
