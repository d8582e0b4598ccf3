package dev.wg1bench.plan;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The round-trip time a run adds to every connection (--rtt), written as a network engineer writes
 * one: {@code 0}, {@code 200us}, {@code 0.5ms}, {@code 2ms}, {@code 1s}. Microsecond precision: a
 * zone's RTT is a fraction of a millisecond, so the millisecond rounding of other durations would
 * turn 0.5ms into 1ms.
 */
public final class RoundTrip {
  /** Longer is no network a database client runs over; most likely a unit mistaken. */
  public static final Duration MAX = Duration.ofSeconds(10);

  private static final Pattern P =
      Pattern.compile("(-?)(\\d+(?:\\.\\d+)?)\\s*([a-zµ]*)", Pattern.UNICODE_CASE);

  private static final String VALID = "use e.g. 0, 200us, 0.5ms or 2ms (units us, ms, s; <= 10s)";

  private RoundTrip() {}

  /** The round-trip time {@code text} names; an IllegalArgumentException says what is valid. */
  public static Duration parse(String text) {
    Matcher m = P.matcher(text.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not a round-trip time; " + VALID);
    }
    BigDecimal n = new BigDecimal(m.group(2));
    String unit = m.group(3);
    long perUnit =
        switch (unit) {
          case "us", "µs" -> 1_000L;
          case "ms" -> 1_000_000L;
          case "s" -> 1_000_000_000L;
          case "" -> n.signum() == 0 ? 1L : -1L;
          default -> -2L;
        };
    if (perUnit == -2L) {
      throw new IllegalArgumentException(
          "'" + text + "': unknown unit '" + unit + "' for a round-trip time; " + VALID);
    }
    if (perUnit == -1L) {
      throw new IllegalArgumentException("'" + text + "' needs a unit; " + VALID);
    }
    if (!m.group(1).isEmpty() && n.signum() != 0) {
      throw new IllegalArgumentException("'" + text + "' is negative; " + VALID);
    }
    BigDecimal nanos = n.multiply(BigDecimal.valueOf(perUnit));
    if (nanos.compareTo(BigDecimal.valueOf(MAX.toNanos())) > 0) {
      throw new IllegalArgumentException("'" + text + "' is over 10s; " + VALID);
    }
    // microsecond precision: finer is below what a park can wait for
    long micros = nanos.divide(BigDecimal.valueOf(1000), 0, RoundingMode.HALF_UP).longValue();
    return Duration.ofNanos(micros * 1000);
  }

  /**
   * A comma-separated list of round-trip times in ms, each given once ({@code --predict-rtt
   * 0.5ms,5ms,20ms}); a bad one is a {@link UsageException} naming {@code option} and the value.
   */
  public static List<Double> listMs(String option, List<String> texts) {
    List<Double> out = new ArrayList<>();
    for (String t : texts) {
      Duration d;
      try {
        d = parse(t);
      } catch (IllegalArgumentException e) {
        throw new UsageException(option + " " + e.getMessage());
      }
      double ms = d.toNanos() / 1e6;
      if (out.contains(ms)) {
        throw new UsageException(option + " lists " + text(d) + " twice");
      }
      out.add(ms);
    }
    if (out.isEmpty()) {
      throw new UsageException(option + " needs at least one round-trip time; " + VALID);
    }
    return List.copyOf(out);
  }

  /** Shortest exact text {@link #parse} reads back: 0, 250us, 0.5ms, 2ms, 1.5s. */
  public static String text(Duration d) {
    long us = d.toNanos() / 1000;
    if (us == 0) {
      return "0";
    }
    if (us % 1000 != 0 && us < 1000) {
      return us + "us";
    }
    if (us < 1_000_000) {
      return BigDecimal.valueOf(us, 3).stripTrailingZeros().toPlainString() + "ms";
    }
    return BigDecimal.valueOf(us, 6).stripTrailingZeros().toPlainString() + "s";
  }

  /** What a result says of the round-trip time a run added ({@code rttMs} in its client record). */
  public static String added(double ms) {
    return ms == 0
        ? "0 (no delay line)"
        : text(Duration.ofNanos(Math.round(ms * 1e6))) + " added (delay line)";
  }
}
