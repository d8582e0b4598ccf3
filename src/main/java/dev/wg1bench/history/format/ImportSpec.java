package dev.wg1bench.history.format;

import dev.wg1bench.history.store.StoredMetric;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What {@code history import} was asked to read: the file, the series its metrics go into, and how
 * an Otava CSV's columns are told apart (Otava's own test definition names them the same way).
 *
 * @param file the file to read
 * @param series NAME: each metric becomes the series {@code NAME/METRIC}
 * @param timeColumn the CSV column holding each run's time (Otava's {@code time_column})
 * @param attributes the CSV columns copied as attributes (Otava's {@code attributes}); null for
 *     those of {@link #DEFAULT_ATTRIBUTES} the header has
 * @param delimiter the CSV field separator
 * @param quote the CSV quote character
 * @param lowerIsBetter metrics for which a lower value is better (Otava's {@code direction: -1});
 *     every other metric is higher-is-better, Otava's default
 */
public record ImportSpec(
    Path file,
    String series,
    String timeColumn,
    List<String> attributes,
    char delimiter,
    char quote,
    Set<String> lowerIsBetter) {

  /** Columns taken as attributes, not metrics, when the header has them and none are named. */
  public static final List<String> DEFAULT_ATTRIBUTES =
      List.of("commit", "branch", "version", "run");

  public ImportSpec {
    attributes = attributes == null ? null : List.copyOf(attributes);
    lowerIsBetter = Set.copyOf(lowerIsBetter);
  }

  /** The stored figure of one metric of one imported run (no interval: Otava files carry none). */
  StoredMetric metric(String metric, double value) {
    return new StoredMetric(
        series, metric, !lowerIsBetter.contains(metric), value, Double.NaN, Double.NaN);
  }
}
