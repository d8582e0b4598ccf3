package dev.wg1bench.api;

import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.RoundTrip;
import dev.wg1bench.plan.UsageException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * An API method's arguments, checked where they are given and refused in the API's own words: the
 * call as the caller wrote it, what is valid, and the value in the caller's unit ({@code
 * allowedFailureRate(1.5): a share between 0 and 1, got 1.5}), never a command-line flag or a
 * converted unit, as HikariCP's setters refuse a bad value the moment it is set. The bounds are the
 * engine's: {@code ApiArgumentsTest} builds a plan at each bound the API accepts.
 */
final class Args {
  private Args() {}

  /**
   * The engine's bounds the API's checks repeat ({@code ApiArgumentsTest} builds a plan at each).
   */
  static final int MAX_CLIENTS = 10_000;

  static final double MAX_RATE = 10_000_000;

  /** A -D parameter's name, as the engine reads it. */
  static final String PARAM_NAME = "[A-Za-z0-9_]+";

  /** A server setting's name, as the engine reads it. */
  static final String SETTING_NAME = "[A-Za-z_][A-Za-z0-9_.]*";

  /** A NAME, VALUE pair: the name matching {@code pattern}, a value given. */
  static void named(String method, String name, String value, String pattern, String what) {
    String call = method + "(" + quoted(name) + ", " + quoted(value) + ")";
    if (name == null || !name.matches(pattern)) {
      throw refused(call, what, quoted(name));
    }
    given(call, value, "a value");
  }

  /**
   * A pgjdbc property checked against pgjdbc's list as the command line checks it; one the API sets
   * otherwise is refused naming how ({@code user}, {@code password}: {@code against}).
   */
  static void jdbcProperty(String name, String value) {
    checked(
        "jdbcProperty(" + quoted(name) + ", " + quoted(value) + ")",
        () -> {
          given("jdbcProperty", name, "a pgjdbc property's name");
          if (name.equals("user") || name.equals("password")) {
            throw refused(
                "jdbcProperty(" + quoted(name) + ", ...)",
                "give it to against(jdbcUrl, user, password)",
                quoted(name));
          }
          given("jdbcProperty(" + quoted(name) + ", null)", value, "a value");
          DriverKnobs.checkProperties(Map.of(name, value));
          return null;
        });
  }

  /** {@code call: valid, got value}. */
  static InvalidSettingException refused(String call, String valid, Object got) {
    return new InvalidSettingException(call + ": " + valid + ", got " + got, null);
  }

  /** {@code value} within [min, max], else refused as {@code method(value): what}. */
  static long range(String method, long value, long min, long max, String what) {
    if (value < min || value > max) {
      throw refused(method + "(" + value + ")", what, value);
    }
    return value;
  }

  /** {@code value} within [min, max] (never NaN), else refused as {@code method(value): what}. */
  static double range(String method, double value, double min, double max, String what) {
    if (!(value >= min && value <= max)) {
      throw refused(method + "(" + plain(value) + ")", what, plain(value));
    }
    return value;
  }

  /** A share given as a fraction, within [min, max]. */
  static double share(String method, double value, double min, double max) {
    return range(method, value, min, max, "a share between " + plain(min) + " and " + plain(max));
  }

  /** {@code d} from {@code min} (inclusive, or exclusive when {@code open}) to {@code max}. */
  static Duration duration(
      String method, Duration d, Duration min, boolean open, Duration max, String what) {
    if (d == null
        || d.compareTo(min) < 0
        || (open && d.equals(min))
        || (max != null && d.compareTo(max) > 0)) {
      throw refused(method + "(" + d + ")", what, d);
    }
    return d;
  }

  /**
   * Round-trip times in ms, in the order given: at least one, each from 0 to 10 s and given once,
   * else refused as {@code method(...)}.
   */
  static List<Double> rttsMs(String method, Duration[] rtts) {
    if (rtts == null || rtts.length == 0) {
      throw refused(
          method + "()", "at least one round-trip time, e.g. Duration.ofMillis(2)", "none");
    }
    List<Double> ms = new ArrayList<>();
    for (Duration d : rtts) {
      duration(method, d, Duration.ZERO, false, RoundTrip.MAX, "round-trip times from 0 to 10 s");
      double m = d.toNanos() / 1e6;
      if (ms.contains(m)) {
        throw refused(method + "(" + d + ")", "each round-trip time once", d + " twice");
      }
      ms.add(m);
    }
    return List.copyOf(ms);
  }

  /** {@code value}, refused as {@code method(null)} (or as the call given) when null. */
  static <T> T given(String method, T value, String what) {
    if (value == null) {
      throw refused(method.contains("(") ? method : method + "(null)", what, "null");
    }
    return value;
  }

  /**
   * Runs an engine check for {@code call}; its refusal becomes the call's, with the engine's
   * leading option name (e.g. {@code --workload-class}) dropped: what follows it is about the
   * value.
   */
  static <T> T checked(String call, Supplier<T> check) {
    try {
      return check.get();
    } catch (UsageException e) {
      String why = Failures.inApiWords(e.getMessage().replaceFirst("^--?[A-Za-z][\\w-]*:? ", ""));
      throw new InvalidSettingException(call + ": " + why, e);
    }
  }

  /** A string argument as Java source writes it. */
  static String quoted(String s) {
    return s == null ? "null" : "\"" + s + "\"";
  }

  /** 1.5, 0 and 1.0E-4 as 1.5, 0 and 0.0001: the number as the caller wrote it. */
  static String plain(double v) {
    return Double.isFinite(v)
        ? BigDecimal.valueOf(v).stripTrailingZeros().toPlainString()
        : String.valueOf(v);
  }
}
