package dev.wg1bench.result;

/**
 * One piece of advice measured on one target: treatment against baseline.
 *
 * @param ratio treatment tps / baseline tps (ratio of geometric means of the trials)
 * @param ciLow lower bound of the 95% confidence interval of the ratio (Welch, on log tps); null
 *     with fewer than 2 trials per arm
 * @param p99Ratio treatment median p99 / baseline median p99 (below 1 = faster)
 * @param retriesAdded retries of the treatment minus those of the baseline, over all trials
 * @param failuresAdded failed ops of the treatment minus those of the baseline
 * @param verdict confirms, contradicts, or no significant difference
 */
public record AdviceResult(
    String name,
    String claim,
    String seed,
    String expect,
    String baseline,
    String treatment,
    String target,
    int trialsPerArm,
    double baselineTps,
    double treatmentTps,
    double ratio,
    Double ciLow,
    Double ciHigh,
    double p99Ratio,
    long retriesAdded,
    long failuresAdded,
    String verdict) {}
