package dev.wg1bench.cli;

import dev.wg1bench.history.analysis.ChangePointAnalysis;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.store.RunFilter;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.plan.Checks;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.stats.EDivisive;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options {@code history analyze} and {@code history check} share: which history and series,
 * and the change-point method's settings (Otava's defaults), each range checked here once.
 */
final class ChangePointOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  /** Larger windows cost memory as the square of the window; Otava's default is 50. */
  static final int MAX_WINDOW = 2000;

  @Mixin HistoryLocation history;

  @Mixin RunFilterOptions runs;

  @Option(
      names = "--series",
      paramLabel = "NAME|GLOB",
      description =
          "The series to analyze: a name (CONFIG/METRIC) or a glob of * and ? matched against the"
              + " whole name (default: every series).")
  String series;

  @Option(
      names = "--window",
      paramLabel = "N",
      description =
          "Points per window of the split pass, from 2 to "
              + MAX_WINDOW
              + "; a shorter series is one window (default: ${DEFAULT-VALUE}, as Otava).")
  int window = 50;

  @Option(
      names = "--p",
      paramLabel = "P",
      description =
          "Significance level of the t-test, in (0, 1); the split pass uses 10 x P below 0.05"
              + " (default: ${DEFAULT-VALUE}, as Otava).")
  double p = 0.001;

  @Option(
      names = "--magnitude",
      paramLabel = "M",
      description =
          "Smallest change kept: the larger of |after/before - 1| and |before/after - 1| must exceed"
              + " it; a fraction (0.05) or a percentage (5%%) (default: ${DEFAULT-VALUE}, as"
              + " Otava).")
  String magnitude = "0";

  @Option(
      names = "--min-segment",
      paramLabel = "N",
      description =
          "Fewest runs in a segment, so that one spike is not two change points; 1 is Otava's"
              + " behaviour (default: ${DEFAULT-VALUE}).")
  int minSegment = 1;

  @Option(
      names = "--use-intervals",
      description =
          "Take each run's own 95%% interval (where it has one) as its noise: in the t-test a"
              + " segment's variance is at least the mean of its runs' own variances.")
  boolean useIntervals;

  /** The settings, every value checked. */
  ChangePointAnalysis.Settings settings() {
    Checks.range("--window", window, 2, MAX_WINDOW, "runs; memory grows as its square");
    if (!(p > 0 && p < 1)) {
      throw new UsageException(
          "--p must be between 0 and 1, got " + p + " (both excluded; e.g. 0.001)");
    }
    Checks.range("--min-segment", minSegment, 1, 10000, "runs");
    return new ChangePointAnalysis.Settings(
        new EDivisive.Settings(window, p, magnitude(), minSegment), useIntervals);
  }

  private double magnitude() {
    String t = magnitude.trim();
    try {
      double v =
          t.endsWith("%")
              ? Double.parseDouble(t.substring(0, t.length() - 1)) / 100
              : Double.parseDouble(t);
      if (v >= 0 && Double.isFinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(
        "--magnitude must be a fraction or a percentage of at least 0, got '"
            + magnitude
            + "' (e.g. 0.05 or 5%)");
  }

  /** The history's runs the filter (--branch, --where) takes, oldest first. */
  List<StoredRun> takenRuns() {
    RunFilter filter = runs.filter();
    return history.use((store, at) -> filter.runs(store));
  }

  /**
   * The selected series long enough for the method ({@code fewest} points): the rest are named in a
   * note on stderr; when none is left, a usage error naming them.
   */
  List<Series> selected(ToIntFunction<Series> fewest, String needs) {
    RunFilter filter = runs.filter();
    List<Series> all = history.use((store, at) -> filter.series(store, series));
    String where = history.where();
    if (all.isEmpty()) {
      throw new UsageException(
          (series == null ? "the history" : "--series '" + series + "'")
              + ": no series in "
              + where
              + (filter.attributes().isEmpty() ? "" : " among its runs with " + filter.describe())
              + (series == null ? "" : "; 'history list' shows the names"));
    }
    List<Series> ok = new ArrayList<>();
    List<String> tooShort = new ArrayList<>();
    for (Series s : all) {
      int n = fewest.applyAsInt(s);
      if (s.points().size() >= n) {
        ok.add(s);
      } else {
        tooShort.add(
            "series "
                + s.name()
                + " has "
                + s.points().size()
                + (s.points().size() == 1 ? " run" : " runs")
                + ", fewer than the "
                + n
                + " "
                + needs);
      }
    }
    if (ok.isEmpty()) {
      // one line however many series: the first few named, the rest counted
      int shown = Math.min(3, tooShort.size());
      String rest =
          tooShort.size() > shown
              ? "; and " + (tooShort.size() - shown) + " more series as short ('history list')"
              : "";
      throw new UsageException(String.join("; ", tooShort.subList(0, shown)) + rest);
    }
    tooShort.forEach(t -> mixee.commandLine().getErr().println("wg1bench: note: skipped " + t));
    return ok;
  }
}
