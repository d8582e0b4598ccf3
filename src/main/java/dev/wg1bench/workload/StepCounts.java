package dev.wg1bench.workload;

/**
 * A workload class's step counted over the whole trial, warmup included: what the data shows, so
 * that a user can match a step's commits against the rows it added (TPC-C's New-Orders against
 * {@code orders}) whatever the warmup. Its latency is the measured windows' alone.
 *
 * @param count completions (rolled back by design included)
 * @param rolledBack of count, those the workload reported rolled back by design
 * @param failures ops that failed on this step after all tries
 * @param retries retries its errors caused
 */
public record StepCounts(long count, long rolledBack, long failures, long retries) {
  /** Both parts' counts as one (another fork's, another agent's); null adds nothing. */
  public StepCounts plus(StepCounts y) {
    return y == null
        ? this
        : new StepCounts(
            count + y.count, rolledBack + y.rolledBack, failures + y.failures, retries + y.retries);
  }
}
