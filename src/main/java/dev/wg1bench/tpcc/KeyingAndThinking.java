package dev.wg1bench.tpcc;

import java.time.Duration;
import java.util.Random;

/**
 * TPC-C's keying and think times (clause 5.2.5.7), under {@code -D keyandthink=true} (HammerDB's
 * name for the same option): before each transaction the terminal's user keys its input for a fixed
 * time, after it they think for a time drawn from a negative exponential distribution with the
 * type's mean, truncated at ten times the mean (clause 5.2.5.4). Both are waited between
 * transactions ({@code Op.thinkTime}): outside the transactions' response times, inside the
 * throughput, so that the New-Orders per minute are a tpmC (unaudited) and each terminal runs at
 * most a few a minute. Off by default, as in HammerDB.
 */
final class KeyingAndThinking {
  /** Keying times in seconds, by card: New-Order, Payment, Order-Status, Delivery, Stock-Level. */
  private static final double[] KEYING = {18, 3, 2, 2, 2};

  /** Mean think times in seconds, by card. */
  private static final double[] THINK = {12, 12, 10, 5, 5};

  private KeyingAndThinking() {}

  /** Whether -D keyandthink (null when not given) asks for them; true and false are valid. */
  static boolean on(String value) {
    String v = value == null ? "false" : value.strip();
    if (!v.equals("true") && !v.equals("false")) {
      throw new IllegalArgumentException(
          "-D keyandthink="
              + v
              + " is not valid: true (TPC-C's keying and think times, clause 5.2.5.7) or false"
              + " (none, the default)");
    }
    return v.equals("true");
  }

  /** The keying time before a transaction of this card. */
  static Duration keying(int card) {
    return seconds(KEYING[card]);
  }

  /** A think time after a transaction of this card: -ln(r) times the mean, at most 10 means. */
  static Duration think(int card, Random random) {
    double r = 1.0 - random.nextDouble(); // (0, 1]: ln is finite
    return seconds(Math.min(-Math.log(r) * THINK[card], 10 * THINK[card]));
  }

  private static Duration seconds(double s) {
    return Duration.ofNanos(Math.round(s * 1e9));
  }
}
