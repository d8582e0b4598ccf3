package dev.wg1bench.history.format;

import java.util.Locale;
import java.util.regex.Pattern;

/** The unit of a metric by its name, for the exports whose format names one. */
final class MetricUnits {
  private MetricUnits() {}

  private static final Pattern PERCENTILE = Pattern.compile("p\\d+(\\.\\d+)?|mean|max|min|stddev");

  static String of(String metric) {
    String m = metric.replace("Ms", "").replace("_ms", "");
    if (metric.equals("tps") || metric.endsWith("PerSecond") || metric.endsWith("/s")) {
      return "ops/s";
    }
    if (PERCENTILE.matcher(m).matches() || metric.endsWith("Ms") || metric.endsWith("_ms")) {
      return "ms";
    }
    if (metric.startsWith("commits")) {
      return "commits/s";
    }
    if (metric.toLowerCase(Locale.ROOT).contains("cpu")) {
      return "us/op";
    }
    if (metric.endsWith("Ops") || metric.startsWith("retr")) {
      return "ops";
    }
    return "";
  }
}
