package dev.wg1bench.history.analysis;

import java.util.List;

/**
 * The change points of one series, as the report draws and tabulates them. The analysis itself
 * (E-Divisive means, {@code history analyze}) is behind this one function, so the report neither
 * repeats it nor depends on how it is computed.
 */
@FunctionalInterface
public interface ChangePointFinder {

  /** The change points of {@code series}, in order of index. */
  List<Shift> find(Series series);

  /**
   * One change point.
   *
   * @param index the 0-based position in the series of the first point of the new segment
   * @param before the mean of the segment before it
   * @param after the mean of the segment from it on
   * @param change the relative change, after / before - 1
   * @param changeLow the lower end of the change's 95% interval, NaN when unknown
   * @param changeHigh the upper end of the change's 95% interval, NaN when unknown
   * @param p the significance of the change (the t-test's p-value)
   */
  record Shift(
      int index,
      double before,
      double after,
      double change,
      double changeLow,
      double changeHigh,
      double p) {}
}
