package dev.wg1bench.history.analysis;

import java.time.Instant;

/**
 * One metric of one series at one stored run: the value with its own interval where the run
 * measured one (batch means for tps), and the run's identity, so a change point can name the run
 * and the commit where it starts.
 *
 * @param time when the run started
 * @param runId the stored run's id (unique in its history)
 * @param commit the git commit the run measured, or null when unknown
 * @param value the metric's value
 * @param low the lower end of the run's own 95% interval, or NaN when it has none
 * @param high the upper end of the run's own 95% interval, or NaN when it has none
 * @param attempts the ops the run attempted in this configuration (successful and failed), the
 *     exposure a count (failed ops, retries) is a rate of; NaN when the run did not record it
 */
public record SeriesPoint(
    Instant time,
    String runId,
    String commit,
    double value,
    double low,
    double high,
    double attempts) {

  /** A point of a series that is not a count of ops, or whose attempts are unknown. */
  public SeriesPoint(
      Instant time, String runId, String commit, double value, double low, double high) {
    this(time, runId, commit, value, low, high, Double.NaN);
  }

  /** Whether this point carries the run's own interval. */
  public boolean hasInterval() {
    return !Double.isNaN(low) && !Double.isNaN(high);
  }
}
