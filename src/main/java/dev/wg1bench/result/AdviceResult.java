package dev.wg1bench.result;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.wg1bench.stats.Verdict;
import java.util.List;

/**
 * One piece of advice measured on one target in randomized complete blocks (one baseline and one
 * treatment trial each, in random order): the paired analysis of the blocks' log ratios. Its
 * figures come in named parts, each written into the JSON in its place as if the record were flat.
 * Each:
 *
 * <p>{@code metric}: what the ratio is of: tps, p50 or p99 (latency)
 *
 * <p>{@code status}: measured, or failed (then {@code failure} says why)
 *
 * <p>{@code blocks}: complete blocks measured
 *
 * <p>{@code orders}: each block's order, BT (baseline first) or TB
 *
 * <p>{@code blockRatios}: each block's treatment / baseline ratio of the metric (null for a block
 * where an arm measured nothing)
 *
 * <p>{@code baselineTps}: geometric mean of the baseline trials' tps
 *
 * <p>{@code treatmentTps}: geometric mean of the treatment trials' tps
 *
 * <p>{@code blockOps}: per block, each arm's failed ops and attempted ops (successful plus failed)
 * over the whole trial, warmup included
 *
 * <p>{@code allowedFailureRate}: the share of attempted ops an arm may fail before it is broken
 * (default 0)
 *
 * <p>{@code brokenArm}: baseline or treatment when that arm is broken: its ops failed above {@code
 * allowedFailureRate}, a block of it measured nothing, or it could not run; else null
 *
 * <p>{@code firstErrorSqlState}, {@code firstError}: the broken arm's first error: its SQLSTATE and
 * message
 *
 * <p>{@code ratio}: geometric mean of the block ratios of the metric; null when no block measured
 * both arms
 *
 * <p>{@code ciLow}: lower bound of the 95% Student interval of the ratio over the blocks (not
 * adjusted for multiplicity); null with fewer than 2 blocks
 *
 * <p>{@code pValue}: two-sided p of "ratio 1" (paired t test on the log ratios)
 *
 * <p>{@code holmP}: p after Holm's adjustment over the measured claims of the run
 *
 * <p>{@code holmLevel}: confidence level of Holm's step for this claim (1 - alpha / (m - k))
 *
 * <p>{@code holmLow}: lower bound of the interval at {@code holmLevel}
 *
 * <p>{@code halfWidthPct}: half-width of the 95% interval, as a percentage (exp(t se) - 1)
 *
 * <p>{@code margin}: the equivalence margin M: equivalent when the 95% interval lies in [1/(1+M),
 * 1+M]
 *
 * <p>{@code p50Ratio}: geometric mean of the blocks' p50 latency ratios
 *
 * <p>{@code p99Ratio}: geometric mean of the blocks' p99 latency ratios (below 1 = faster)
 *
 * <p>{@code retriesAdded}: retries of the treatment minus those of the baseline, over all trials
 *
 * <p>{@code failuresAdded}: failed ops of the treatment minus those of the baseline
 *
 * <p>{@code verdict}: confirms, contradicts, equivalent, inconclusive or broken (an arm's ops
 * failed above the allowed rate, a block of it measured nothing, or it could not run)
 *
 * <p>{@code verdictText}: the verdict as printed (margin, blocks that would settle it, reason)
 *
 * <p>{@code moreBlocks}: for inconclusive: further blocks that would likely settle it
 *
 * <p>{@code pilotBlocks}: with --precision, when blocks were added: the first blocks, whose sd
 * fixed the number of blocks and gives the interval its degrees of freedom (Stein's two stages)
 *
 * <p>{@code baselinePerOp}, {@code treatmentPerOp}: each arm per op over its blocks' trials ({@link
 * ArmFigures}: round trips, statements, server ms, rows, bytes, the clients' wait shares; a figure
 * not counted is null)
 *
 * <p>{@code mechanism}: the one line that says how the arms differ per op, the largest differences
 * first ({@link ArmFigures#mechanism})
 */
public record AdviceResult(
    @JsonUnwrapped Claim advice,
    @JsonUnwrapped Blocks measured,
    @JsonUnwrapped Estimate estimate,
    @JsonUnwrapped SideEffects sideEffects,
    @JsonUnwrapped Finding finding,
    @JsonUnwrapped Why why) {

  /** Each arm per op, and the line that names how they differ. */
  public record Why(ArmFigures baselinePerOp, ArmFigures treatmentPerOp, String mechanism) {
    /** Both arms' figures over their trials, and the line. */
    public static Why of(List<TrialResult> baseline, List<TrialResult> treatment) {
      ArmFigures b = ArmFigures.of(baseline);
      ArmFigures t = ArmFigures.of(treatment);
      return new Why(b, t, ArmFigures.mechanism(b, t));
    }
  }

  /** What was claimed, and the two settings measured on which target. */
  public record Claim(
      String name,
      String claim,
      String seed,
      String expect,
      String metric,
      String baseline,
      String treatment,
      String target) {}

  /**
   * The blocks measured, the tps of each side, each block's failed and attempted ops per arm, and
   * the arm that is broken (its ops failed above the allowed rate, or it could not run), if any.
   */
  public record Blocks(
      String status,
      String failure,
      int blocks,
      List<String> orders,
      List<Double> blockRatios,
      Double baselineTps,
      Double treatmentTps,
      List<BlockOps> blockOps,
      double allowedFailureRate,
      String brokenArm,
      String firstErrorSqlState,
      String firstError) {}

  /**
   * One block's ops per arm over the whole trial, warmup included: failed after all tries, and
   * attempted (successful plus failed).
   */
  public record BlockOps(
      int block,
      long baselineFailed,
      long baselineAttempted,
      long treatmentFailed,
      long treatmentAttempted) {}

  /** The ratio and its intervals, raw and after Holm, against the margin. */
  public record Estimate(
      Double ratio,
      Double ciLow,
      Double ciHigh,
      Double pValue,
      Double holmP,
      Double holmLevel,
      Double holmLow,
      Double holmHigh,
      Double halfWidthPct,
      double margin) {}

  /** What else the treatment changed: latency, retries, failures. */
  public record SideEffects(
      Double p50Ratio, Double p99Ratio, long retriesAdded, long failuresAdded) {}

  /** The verdict, as printed, and what would settle it. */
  public record Finding(
      Verdict.Kind verdict, String verdictText, Integer moreBlocks, Integer pilotBlocks) {}

  // the figures by their names in the JSON

  public String name() {
    return advice.name();
  }

  public String claim() {
    return advice.claim();
  }

  public String seed() {
    return advice.seed();
  }

  public String expect() {
    return advice.expect();
  }

  public String metric() {
    return advice.metric();
  }

  public String baseline() {
    return advice.baseline();
  }

  public String treatment() {
    return advice.treatment();
  }

  public String target() {
    return advice.target();
  }

  public String status() {
    return measured.status();
  }

  public String failure() {
    return measured.failure();
  }

  public int blocks() {
    return measured.blocks();
  }

  public List<String> orders() {
    return measured.orders();
  }

  public List<Double> blockRatios() {
    return measured.blockRatios();
  }

  public List<BlockOps> blockOps() {
    return measured.blockOps();
  }

  public double allowedFailureRate() {
    return measured.allowedFailureRate();
  }

  public String brokenArm() {
    return measured.brokenArm();
  }

  public String firstErrorSqlState() {
    return measured.firstErrorSqlState();
  }

  public String firstError() {
    return measured.firstError();
  }

  public Double baselineTps() {
    return measured.baselineTps();
  }

  public Double treatmentTps() {
    return measured.treatmentTps();
  }

  /** The ratio, null when no block measured both arms. */
  public Double ratio() {
    return estimate.ratio();
  }

  public Double ciLow() {
    return estimate.ciLow();
  }

  public Double ciHigh() {
    return estimate.ciHigh();
  }

  public Double pValue() {
    return estimate.pValue();
  }

  public Double holmP() {
    return estimate.holmP();
  }

  public Double holmLevel() {
    return estimate.holmLevel();
  }

  public Double holmLow() {
    return estimate.holmLow();
  }

  public Double holmHigh() {
    return estimate.holmHigh();
  }

  public Double halfWidthPct() {
    return estimate.halfWidthPct();
  }

  public double margin() {
    return estimate.margin();
  }

  public Double p50Ratio() {
    return sideEffects.p50Ratio();
  }

  public Double p99Ratio() {
    return sideEffects.p99Ratio();
  }

  public long retriesAdded() {
    return sideEffects.retriesAdded();
  }

  public long failuresAdded() {
    return sideEffects.failuresAdded();
  }

  public Verdict.Kind verdict() {
    return finding.verdict();
  }

  public String verdictText() {
    return finding.verdictText();
  }

  public Integer moreBlocks() {
    return finding.moreBlocks();
  }

  public Integer pilotBlocks() {
    return finding.pilotBlocks();
  }

  /** The line naming how the arms differ per op; null in results written before it. */
  public String mechanism() {
    return why == null ? null : why.mechanism();
  }
}
