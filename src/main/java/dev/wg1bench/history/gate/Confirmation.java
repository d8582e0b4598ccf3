package dev.wg1bench.history.gate;

import dev.wg1bench.advise.Advice;
import dev.wg1bench.advise.Analysis;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.result.AdviceResult;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.stats.Stats;
import dev.wg1bench.stats.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * The gate's same-machine re-measurement of the series the history could not settle: baseline and
 * candidate run as the two arms of one randomized complete block experiment (the {@code advise}
 * engine: one trial of each per block, the order drawn per pair of blocks and mirrored in the
 * pair's second), then each series judged on its own metric from the same trials, Holm-adjusted
 * over the series judged. History runs from other days, machines and loads only set the question;
 * blocks interleaved on this machine answer it, because what drifted between CI runs (the runner's
 * load, its neighbours, the server's state) hits both arms alike within a block.
 */
public final class Confirmation {
  private Confirmation() {}

  /** What the blocks say of one series' regression. */
  public enum Decision {
    /** the candidate is worse, significantly after Holm: the regression is real */
    CONFIRMED,
    /** the candidate is equivalent within the margin, or better: the history's alarm was noise */
    CLEARED,
    /** the blocks settle nothing: the history's own outcome stands */
    UNSETTLED
  }

  /**
   * One series re-measured.
   *
   * @param series the series' name
   * @param decision what the blocks say
   * @param result the blocks' ratio (candidate / baseline), its intervals and verdict
   * @param arms the configuration the blocks measured and its two arms
   */
  public record Confirmed(String series, Decision decision, AdviceResult result, Arms arms) {}

  /**
   * What one experiment of the re-measurement ran: each series is re-measured with the arms of its
   * own configuration.
   *
   * @param configuration the configuration, the CONFIG of the series' {@code CONFIG/METRIC}
   * @param baseline the baseline arm's run options: the configuration's under --confirm-baseline's
   * @param candidate the candidate arm's run options: the configuration's under
   *     --confirm-candidate's
   * @param resultFile the experiment's result file
   */
  public record Arms(String configuration, String baseline, String candidate, String resultFile) {}

  /**
   * The claim the blocks test for a metric: the candidate (treatment) is worse than the baseline,
   * that is lower when more is better. Its name is what the result files and tables show.
   */
  public static Advice claim(
      String metric, boolean higherIsBetter, String baseline, String candidate) {
    return Advice.claim(
            "confirm-" + metric.replace('.', '_'),
            "the candidate is worse than the baseline on " + metric)
        .seed("history check")
        .expect(higherIsBetter ? "lower" : "higher")
        .metric(metric)
        .arms(baseline, candidate)
        .build();
  }

  /** Whether the blocks can re-measure a series of this metric (a ratio of positive figures). */
  public static boolean measurable(String metric) {
    return Analysis.METRICS.contains(metric);
  }

  /**
   * Each series judged from the experiment's trials on its own metric, on the first target the
   * trials ran on; Holm over the series with an interval.
   *
   * @param run the experiment's result: its trials carry the arm labels
   * @param series the series to judge, each with its metric and direction (measurable ones only)
   * @param base the claim the experiment ran (its arms' options, as recorded)
   * @param margin equivalence margin as a fraction
   * @param failure why the experiment stopped early, or null
   * @param arms the configuration and arms the experiment ran
   */
  public static List<Confirmed> judge(
      BenchmarkRun run,
      List<Series> series,
      Advice base,
      double margin,
      String failure,
      Arms arms) {
    List<TrialResult> trials = run.trials();
    String target = trials.isEmpty() ? "" : trials.get(0).target();
    List<Analysis> analyses = new ArrayList<>();
    for (Series s : series) {
      Advice a = claim(s.metric(), s.higherIsBetter(), base.baseline(), base.treatment());
      analyses.add(new Analysis(a, target, trials, null));
    }
    List<Analysis> tested = analyses.stream().filter(Analysis::measurable).toList();
    Stats.Holm holm = Stats.holm(tested.stream().map(a -> a.estimate).toList(), Verdict.ALPHA);
    List<Confirmed> out = new ArrayList<>();
    for (int i = 0; i < analyses.size(); i++) {
      Analysis a = analyses.get(i);
      int k = tested.indexOf(a);
      AdviceResult r =
          a.result(
              k < 0 ? null : holm.adjusted()[k], k < 0 ? null : holm.alphas()[k], margin, failure);
      out.add(new Confirmed(series.get(i).name(), decision(r.verdict()), r, arms));
    }
    return out;
  }

  /** "confirms" (the candidate is worse, as the claim says) is the regression confirmed. */
  static Decision decision(Verdict.Kind verdict) {
    return switch (verdict) {
      case CONFIRMS -> Decision.CONFIRMED;
      case CONTRADICTS, EQUIVALENT -> Decision.CLEARED;
      case INCONCLUSIVE, BROKEN -> Decision.UNSETTLED;
    };
  }
}
