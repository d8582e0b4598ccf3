package dev.wg1bench.result;

import java.util.List;

/**
 * One piece of advice measured on one target in randomized complete blocks (one baseline and one
 * treatment trial each, in random order): the paired analysis of the blocks' log ratios.
 *
 * @param metric what the ratio is of: tps, p50 or p99 (latency)
 * @param status measured, or failed (then {@code failure} says why)
 * @param blocks complete blocks measured
 * @param orders each block's order, BT (baseline first) or TB
 * @param blockRatios each block's treatment / baseline ratio of the metric
 * @param baselineTps geometric mean of the baseline trials' tps
 * @param treatmentTps geometric mean of the treatment trials' tps
 * @param ratio geometric mean of the block ratios of the metric
 * @param ciLow lower bound of the 95% Student interval of the ratio over the blocks (not adjusted
 *     for multiplicity); null with fewer than 2 blocks
 * @param pValue two-sided p of "ratio 1" (paired t test on the log ratios)
 * @param holmP p after Holm's adjustment over the measured claims of the run
 * @param holmLevel confidence level of Holm's step for this claim (1 - alpha / (m - k))
 * @param holmLow lower bound of the interval at {@code holmLevel}
 * @param halfWidthPct half-width of the 95% interval, as a percentage (exp(t se) - 1)
 * @param margin the equivalence margin M: equivalent when the 95% interval lies in [1/(1+M), 1+M]
 * @param p50Ratio geometric mean of the blocks' p50 latency ratios
 * @param p99Ratio geometric mean of the blocks' p99 latency ratios (below 1 = faster)
 * @param retriesAdded retries of the treatment minus those of the baseline, over all trials
 * @param failuresAdded failed ops of the treatment minus those of the baseline
 * @param verdict confirms, contradicts, equivalent, inconclusive or failed
 * @param verdictText the verdict as printed (margin, blocks that would settle it, reason)
 * @param moreBlocks for inconclusive: further blocks that would likely settle it
 * @param pilotBlocks with --precision, when blocks were added: the first blocks, whose sd fixed the
 *     number of blocks and gives the interval its degrees of freedom (Stein's two stages)
 */
public record AdviceResult(
    String name,
    String claim,
    String seed,
    String expect,
    String metric,
    String baseline,
    String treatment,
    String target,
    String status,
    String failure,
    int blocks,
    List<String> orders,
    List<Double> blockRatios,
    double baselineTps,
    double treatmentTps,
    double ratio,
    Double ciLow,
    Double ciHigh,
    Double pValue,
    Double holmP,
    Double holmLevel,
    Double holmLow,
    Double holmHigh,
    Double halfWidthPct,
    double margin,
    Double p50Ratio,
    Double p99Ratio,
    long retriesAdded,
    long failuresAdded,
    String verdict,
    String verdictText,
    Integer moreBlocks,
    Integer pilotBlocks) {}
