package dev.wg1bench.report;

import dev.wg1bench.result.PointSummary;
import dev.wg1bench.result.TrialResult;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The order in which the report lists points and trials, and how it prints instants. Runs execute
 * their trials in a random order (so drift does not favour one point); a reader wants them grouped:
 * by workload, target, then each knob's values in natural order (numbers numerically: 2 before 16).
 */
final class ReportOrder {
  private static final DateTimeFormatter READABLE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private ReportOrder() {}

  /**
   * The points' keys: workload and target first (when the points have them), then the other knobs
   * in first-seen order (the plan's order).
   */
  static List<String> keys(Collection<Map<String, String>> points) {
    Set<String> seen = new LinkedHashSet<>();
    points.forEach(p -> seen.addAll(p.keySet()));
    List<String> out = new ArrayList<>();
    for (String first : List.of("workload", "target")) {
      if (seen.remove(first)) {
        out.add(first);
      }
    }
    out.addAll(seen);
    return out;
  }

  static Comparator<Map<String, String>> points(List<String> keys) {
    return (a, b) -> {
      for (String k : keys) {
        int c = natural(a.get(k), b.get(k));
        if (c != 0) {
          return c;
        }
      }
      return 0;
    };
  }

  static List<PointSummary> sortedSummaries(List<PointSummary> summaries) {
    Comparator<Map<String, String>> byPoint =
        points(keys(summaries.stream().map(PointSummary::point).toList()));
    List<PointSummary> out = new ArrayList<>(summaries);
    out.sort((x, y) -> byPoint.compare(x.point(), y.point()));
    return out;
  }

  /** By point, then repeat, then the order they ran in. */
  static List<TrialResult> sortedTrials(List<TrialResult> trials) {
    Comparator<Map<String, String>> byPoint =
        points(keys(trials.stream().map(t -> pt(t)).toList()));
    List<TrialResult> out = new ArrayList<>(trials);
    out.sort(
        Comparator.<TrialResult, Map<String, String>>comparing(ReportOrder::pt, byPoint)
            .thenComparingInt(TrialResult::repeat)
            .thenComparingInt(TrialResult::sequence));
    return out;
  }

  private static Map<String, String> pt(TrialResult t) {
    return t.point() == null ? Map.of() : t.point();
  }

  /**
   * Numbers numerically, and before words; words case-insensitively; a missing value (a knob this
   * point did not set) last.
   */
  static int natural(String a, String b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : 1) : -1;
    }
    BigDecimal x = number(a);
    BigDecimal y = number(b);
    if (x != null && y != null) {
      int c = x.compareTo(y);
      return c != 0 ? c : a.compareTo(b);
    }
    if (x != null || y != null) {
      return x != null ? -1 : 1;
    }
    int c = a.compareToIgnoreCase(b);
    return c != 0 ? c : a.compareTo(b);
  }

  private static BigDecimal number(String s) {
    try {
      return new BigDecimal(s.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** "2026-11-23 12:46:09 UTC" from an ISO-8601 instant; other text unchanged, null as "". */
  static String date(String iso) {
    if (iso == null || iso.isBlank()) {
      return "";
    }
    try {
      return READABLE.format(Instant.parse(iso.trim()));
    } catch (DateTimeParseException e) {
      return iso;
    }
  }
}
