package dev.wg1bench.report;

import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.TrialResult;
import java.io.PrintStream;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The console's tables over several trials, printed after their blocks: targets side by side with
 * their ratios, and a sweep's summary per point.
 */
public final class ConsoleTables {
  private ConsoleTables() {}

  /** Side-by-side table when a run had several targets; ratios are against the first target. */
  public static void comparison(BenchmarkRun run, PrintStream out) {
    if (run.trials().size() < 2) {
      return;
    }
    out.println();
    Map<String, String> data = new LinkedHashMap<>();
    for (TrialResult t : run.trials()) {
      data.putIfAbsent(t.target(), t.dataset() + " (scale " + t.scale() + ")");
    }
    String differ = dataDiffers(data);
    if (differ != null) {
      out.println(differ);
    }
    out.printf(
        "%-20s %-10s %12s %10s %9s %9s %8s %8s %7s%n",
        "target", "server", "tps", "±95%", "p50 ms", "p99 ms", "failed", "retries", "ratio");
    double base = run.trials().get(0).measurement().tps();
    for (TrialResult t : run.trials()) {
      Measurement m = t.measurement();
      out.printf(
          Locale.ROOT,
          "%-20s %-10s %12.1f %10s %9.3f %9.3f %8d %8d %7.2f%n",
          t.target(),
          t.server().version().split(" ")[0],
          m.tps(),
          m.tpsError() == null ? "-" : String.format(Locale.ROOT, "%.1f", m.tpsError()),
          m.latencyMs().p50(),
          m.latencyMs().p99(),
          m.failedOps(),
          m.retries(),
          base > 0 ? m.tps() / base : Double.NaN);
    }
  }

  /**
   * A warning when targets compared side by side hold different data (scale or dataset): their
   * ratio then compares databases, not servers. Null when they agree.
   */
  static String dataDiffers(Map<String, String> data) {
    if (data.size() < 2 || new HashSet<>(data.values()).size() < 2) {
      return null;
    }
    StringBuilder b = new StringBuilder("warning: the targets hold different data (");
    data.forEach(
        (k, v) ->
            b.append(b.charAt(b.length() - 1) == '(' ? "" : ", ").append(k).append(": ").append(v));
    return b.append("); the ratios compare databases, not only servers").toString();
  }

  /** The sweep's result: per point, the median of its trials and their spread. */
  public static void summary(BenchmarkRun run, Set<String> keys, PrintStream out) {
    out.println();
    // failed and retries over the measurement windows, as each trial's line shows them; the whole
    // trials' failures (warmup included) beside them under a name of their own
    List<Column<PointRow>> shown = Column.onConsole(PointColumns.ALL);
    StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-44s", "point"));
    shown.forEach(c -> head.append(' ').append(c.consoleHeading()));
    out.println(head);
    for (PointRow r : PointRow.of(run.summary(), run.trials())) {
      StringBuilder row =
          new StringBuilder(
              String.format(
                  Locale.ROOT, "%-44s", ConsoleReport.describe(r.summary().point(), keys)));
      shown.forEach(c -> row.append(' ').append(c.console(r)));
      out.println(row);
    }
    out.printf(
        "%d trials, %s order%s; medians of %d repeat(s) per point%n",
        run.trials().size(),
        run.matrix().order(),
        run.matrix().order().equals("random") ? " (seed " + run.matrix().seed() + ")" : "",
        run.matrix().repeat());
  }
}
