package dev.wg1bench.plan;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations the way a pgbench user writes them: {@code 10}, {@code 10s}, {@code 500ms},
 * {@code 2m}, {@code 1h}.
 */
public final class Durations {
  private static final Pattern P = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|min|h)?");

  private Durations() {}

  public static Duration parse(String text) {
    Matcher m = P.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration; use e.g. 10 (seconds), 10s, 500ms, 2m or 1h");
    }
    double n = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    double millis =
        switch (unit) {
          case "ms" -> n;
          case "s" -> n * 1000;
          case "m", "min" -> n * 60_000;
          default -> n * 3_600_000;
        };
    return Duration.ofMillis(Math.round(millis));
  }

  /** A duration as an option takes it and {@code --help} shows it: 1h, 10m, 5s, 500ms. */
  public static String option(Duration d) {
    long ms = d.toMillis();
    if (ms >= 3_600_000 && ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms >= 60_000 && ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }

  /** Short human form: 10 s, 1.5 s, 250 ms, 2 min. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms < 1000) {
      return ms + " ms";
    }
    if (ms % 60_000 == 0 && ms >= 60_000) {
      return (ms / 60_000) + " min";
    }
    if (ms % 1000 == 0) {
      return (ms / 1000) + " s";
    }
    return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }
}
