package dev.wg1bench.api;

import dev.wg1bench.advise.ArmHealth;
import dev.wg1bench.plan.RoundTrip;
import dev.wg1bench.report.PerOpConsole;
import dev.wg1bench.result.AdviceResult;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@link Comparison#table()}: the comparison, its blocks, and each arm per op with the mechanism.
 */
final class ComparisonTable {
  private ComparisonTable() {}

  /** The comparison's table, its verdict given. */
  static String of(
      AdviceResult result,
      String baseline,
      String treatment,
      Duration rtt,
      Comparison.Verdict verdict) {
    StringBuilder b = new StringBuilder();
    if (verdict == Comparison.Verdict.BROKEN) {
      b.append(result.verdictText()).append('\n');
    }
    b.append(
        String.format(
            Locale.ROOT,
            "%s against %s on %s%s: %s ratio %s, 95%% interval %s, p = %s, %d blocks (order drawn"
                + " per pair of blocks, the second of a pair reversed), margin \u00b1%.1f%%,"
                + " allowed failures %s: %s%n",
            treatment,
            baseline,
            result.target(),
            rtt == null ? "" : " at rtt " + RoundTrip.text(rtt),
            result.metric(),
            figure(orNaN(result.estimate().ratio())),
            result.estimate().ciLow() == null
                ? "-"
                : "["
                    + figure(result.estimate().ciLow())
                    + ", "
                    + figure(result.estimate().ciHigh())
                    + "]",
            result.estimate().pValue() == null
                ? "-"
                : String.format(Locale.ROOT, "%.4g", result.estimate().pValue()),
            result.measured().blocks(),
            100 * result.estimate().margin(),
            ArmHealth.percent(result.allowedFailureRate()),
            verdict));
    blocks(b, result);
    if (result.measured().baselineTps() != null && result.measured().treatmentTps() != null) {
      b.append(
          String.format(
              Locale.ROOT,
              "tps: baseline %.1f, treatment %.1f (geometric means)%n",
              result.measured().baselineTps(),
              result.measured().treatmentTps()));
    }
    if (result.measured().failure() != null) {
      b.append("failed: ").append(result.measured().failure()).append('\n');
    }
    if (result.why() != null) {
      b.append(
          PerOpConsole.arms(
              "",
              "baseline",
              result.why().baselinePerOp(),
              "treatment",
              result.why().treatmentPerOp(),
              result.mechanism()));
    }
    return b.toString();
  }

  /** One row per block: its order, its ratio, each arm's failed and attempted ops. */
  private static void blocks(StringBuilder b, AdviceResult result) {
    b.append(
        String.format(
            Locale.ROOT,
            "%-6s %-5s %10s %20s %20s%n",
            "block",
            "order",
            "ratio",
            "baseline failed/all",
            "treatment failed/all"));
    List<AdviceResult.BlockOps> ops = result.blockOps() == null ? List.of() : result.blockOps();
    for (int i = 0; i < ops.size(); i++) {
      AdviceResult.BlockOps o = ops.get(i);
      Double r =
          i < result.measured().blockRatios().size()
              ? result.measured().blockRatios().get(i)
              : null;
      b.append(
          String.format(
              Locale.ROOT,
              "%-6d %-5s %10s %20s %20s%n",
              o.block(),
              i < result.measured().orders().size() ? result.measured().orders().get(i) : "",
              r == null ? "-" : figure(r),
              o.baselineFailed() + "/" + o.baselineAttempted(),
              o.treatmentFailed() + "/" + o.treatmentAttempted()));
    }
  }

  private static double orNaN(Double v) {
    return v == null ? Double.NaN : v;
  }

  private static String figure(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.4f", v) : "-";
  }
}
