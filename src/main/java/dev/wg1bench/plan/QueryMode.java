package dev.wg1bench.plan;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * pgbench's {@code -M} protocols, expressed as pgjdbc settings.
 *
 * <ul>
 *   <li>{@code simple}: preferQueryMode=simple; pgjdbc inlines the bound values as typed literals
 *       and sends one Query message, as pgbench -M simple substitutes variables into the text.
 *   <li>{@code extended}: preferQueryMode=extended, prepareThreshold=0; every execution is an
 *       unnamed Parse/Bind/Execute, planned each time (pgbench -M extended).
 *   <li>{@code prepared}: preferQueryMode=extended, prepareThreshold=1; named server-side
 *       statements from the first execution, planned once per connection (pgbench -M prepared).
 * </ul>
 */
public enum QueryMode {
  SIMPLE("simple", 0),
  EXTENDED("extended", 0),
  PREPARED("extended", 1);

  private final String preferQueryMode;
  private final int prepareThreshold;

  QueryMode(String preferQueryMode, int prepareThreshold) {
    this.preferQueryMode = preferQueryMode;
    this.prepareThreshold = prepareThreshold;
  }

  public String preferQueryMode() {
    return preferQueryMode;
  }

  public int prepareThreshold() {
    return prepareThreshold;
  }

  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static QueryMode parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    for (QueryMode m : values()) {
      if (m.cliName().equals(t)) {
        return m;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not one of " + valid());
  }

  public static String valid() {
    return Arrays.stream(values()).map(QueryMode::cliName).collect(Collectors.joining(", "));
  }
}
