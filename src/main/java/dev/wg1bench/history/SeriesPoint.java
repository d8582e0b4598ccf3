package dev.wg1bench.history;

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
 */
public record SeriesPoint(
    Instant time, String runId, String commit, double value, double low, double high) {

  /** Whether this point carries the run's own interval. */
  public boolean hasInterval() {
    return !Double.isNaN(low) && !Double.isNaN(high);
  }
}
