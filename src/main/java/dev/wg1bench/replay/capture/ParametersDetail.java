package dev.wg1bench.replay.capture;

import java.util.ArrayList;
import java.util.List;

/**
 * The bind values the server logs in a statement's DETAIL ({@code log_parameter_max_length}) or a
 * failed one's CONTEXT: {@code Parameters: $1 = '5', $2 = NULL, $3 = 'it''s'}. Its own class
 * because reading that list is a small grammar of its own, apart from rebuilding sessions.
 */
final class ParametersDetail {
  // "parameters:" up to PostgreSQL 15, "Parameters:" from 16: matched ignoring case
  private static final String PREFIX = "parameters: ";

  private ParametersDetail() {}

  /** The values as a list ($1 first); null when the detail is not such a list or skips a number. */
  static List<String> parse(String detail) {
    String d = detail.strip();
    if (!d.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
      return d.isEmpty() ? List.of() : null;
    }
    List<String> out = new ArrayList<>();
    int i = PREFIX.length();
    int len = d.length();
    while (i < len) {
      i = afterName(d, i, out.size() + 1);
      if (i < 0) {
        return null;
      }
      i = value(d, i, out);
      if (i < 0) {
        return null;
      }
      if (i < len) {
        if (!d.startsWith(", ", i)) {
          return null;
        }
        i += 2;
      }
    }
    return out;
  }

  /**
   * Where the value of {@code $n = } at {@code i} starts, or -1 when {@code i} holds anything else:
   * the numbers must run 1, 2, 3, ... as the list's positions are the parameters' numbers.
   */
  private static int afterName(String d, int i, int n) {
    if (d.charAt(i) != '$') {
      return -1;
    }
    int eq = d.indexOf(" = ", i);
    if (eq < 0) {
      return -1;
    }
    try {
      if (Integer.parseInt(d.substring(i + 1, eq)) != n) {
        return -1;
      }
    } catch (NumberFormatException e) {
      return -1;
    }
    return eq + 3;
  }

  /**
   * Adds the NULL or quoted value at {@code i} and returns where it ends, or -1 if it is neither.
   */
  private static int value(String d, int i, List<String> out) {
    int len = d.length();
    if (d.startsWith("NULL", i)) {
      out.add(null);
      return i + 4;
    }
    if (i >= len || d.charAt(i) != '\'') {
      return -1;
    }
    StringBuilder v = new StringBuilder();
    i++;
    while (i < len) {
      char c = d.charAt(i);
      if (c == '\'') {
        if (i + 1 < len && d.charAt(i + 1) == '\'') {
          v.append('\''); // a quote inside a value is doubled
          i += 2;
          continue;
        }
        out.add(v.toString());
        return i + 1;
      }
      v.append(c);
      i++;
    }
    return -1; // no closing quote: not a value list this can read
  }
}
