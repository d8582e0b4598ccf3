package dev.wg1bench.history.analysis;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Which way a series moved, by its better direction: worse is a regression whether the figure rose
 * (latency, failed ops) or fell (tps). The JSON, the CSV and every line write it as its {@link
 * #label()}, lower case, as they wrote the strings it replaced.
 */
public enum Direction {
  REGRESSION,
  IMPROVEMENT,
  /** unchanged: a count test's latest rate equal to the baseline's */
  NONE;

  /** "regression", "improvement", "none". */
  @JsonValue
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return label();
  }
}
