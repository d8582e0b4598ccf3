package dev.wg1bench.result;

import dev.wg1bench.stats.Verdict;
import java.util.List;

/**
 * One claim on one target, asked again at each round-trip time of {@code advise --rtt}: its verdict
 * and ratio per RTT, and where the verdict flips or the effect moves beyond its interval.
 *
 * @param advice the claim's name (without the RTT its arms ran at)
 * @param byRtt the claim at each RTT, in the order --rtt listed them
 * @param changes each change between one RTT and the next, as printed; empty when none
 */
public record RttSweepRow(String advice, String target, List<Cell> byRtt, List<String> changes) {

  /**
   * The claim at one RTT.
   *
   * @param rtt the round-trip time as --rtt wrote it (0, 0.5ms, 2ms)
   * @param ratio treatment / baseline of the claim's metric, null when nothing measured both arms
   * @param ciLow lower bound of its 95% interval, null without one
   */
  public record Cell(String rtt, Verdict.Kind verdict, Double ratio, Double ciLow, Double ciHigh) {}
}
