package dev.wg1bench.result;

/**
 * A workload class's step counted over the whole trial, warmup included: what the data shows, so
 * that a user can match a step's commits against the rows it added (TPC-C's New-Orders against
 * {@code orders}) whatever the warmup. A view of the step's part of the trial's whole counts
 * (workload.OpCounts), built once with its {@link CommandStats}.
 *
 * @param count completions (rolled back by design included)
 * @param rolledBack of count, those the workload reported rolled back by design
 * @param failures ops that failed on this step after all tries
 * @param retries retries its errors caused
 */
public record StepCounts(long count, long rolledBack, long failures, long retries) {}
