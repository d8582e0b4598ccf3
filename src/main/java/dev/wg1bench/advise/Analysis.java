package dev.wg1bench.advise;

import dev.wg1bench.result.AdviceResult;
import dev.wg1bench.result.Latency;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.stats.Stats;
import dev.wg1bench.stats.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The paired analysis of one claim on one target: its trials grouped into blocks (the trial's
 * {@code repeat} is its block), one log ratio per complete block, and the result once Holm's
 * adjustment over the run is known.
 */
public final class Analysis {
  /** A block's two trials. */
  public record Block(int index, TrialResult baseline, TrialResult treatment) {
    String order() {
      return baseline.sequence() < treatment.sequence() ? "BT" : "TB";
    }
  }

  public final Advice advice;
  public final String target;
  public final List<Block> blocks;
  public final Stats.Estimate estimate;

  /** Stein's pilot blocks when the number of blocks was chosen from them, else null. */
  public final Integer pilot;

  /** The share of attempted ops an arm may fail before it is broken. */
  public final double allowedFailureRate;

  /** Whether each arm worked, from the blocks' counts (a failure to run is added by result). */
  public final ArmHealth health;

  /** Both arms on one target, no failed op allowed. */
  public Analysis(Advice advice, String target, List<TrialResult> trials, Integer pilot) {
    this(advice, target, target, trials, pilot, 0);
  }

  /**
   * The baseline's trials on {@code target} paired with the treatment's on {@code treatmentTarget},
   * block by block; only blocks where both arms measured a positive figure enter the statistics.
   */
  public Analysis(
      Advice advice,
      String target,
      String treatmentTarget,
      List<TrialResult> trials,
      Integer pilot,
      double allowedFailureRate) {
    this.pilot = pilot;
    this.advice = advice;
    this.target = target.equals(treatmentTarget) ? target : target + " / " + treatmentTarget;
    this.allowedFailureRate = allowedFailureRate;
    this.blocks = blocks(target, treatmentTarget, trials);
    this.health = ArmHealth.of(blocks, advice.metric(), allowedFailureRate, null, null);
    double[] d =
        blocks.stream()
            .filter(b -> ArmHealth.usable(b, advice.metric()))
            .mapToDouble(
                b ->
                    Math.log(value(advice.metric(), b.treatment()))
                        - Math.log(value(advice.metric(), b.baseline())))
            .toArray();
    this.estimate = pilot == null ? Stats.paired(d) : Stats.twoStage(d, pilot);
  }

  /**
   * Complete blocks, by block index: the baseline's trial on its target and the treatment's on its
   * own; a block missing an arm is left out.
   */
  static List<Block> blocks(String target, String treatmentTarget, List<TrialResult> trials) {
    Map<Integer, TrialResult[]> byBlock = new TreeMap<>();
    for (TrialResult t : trials) {
      boolean baseline = "baseline".equals(t.point().get("arm"));
      if (!t.target().equals(baseline ? target : treatmentTarget)) {
        continue;
      }
      TrialResult[] pair = byBlock.computeIfAbsent(t.repeat(), k -> new TrialResult[2]);
      pair[baseline ? 0 : 1] = t;
    }
    List<Block> out = new ArrayList<>();
    byBlock.forEach(
        (i, pair) -> {
          if (pair[0] != null && pair[1] != null) {
            out.add(new Block(i, pair[0], pair[1]));
          }
        });
    return out;
  }

  /**
   * A trial's figure named as the history names it; the ratio figures only (a count such as
   * failedOps may be 0, whose log ratio is no estimate). NaN where the trial lacks it.
   */
  static double value(String metric, TrialResult t) {
    Latency l = t.measurement().latencyMs();
    return switch (metric) {
      case "p50" -> l == null ? Double.NaN : l.p50();
      case "p99" -> l == null ? Double.NaN : l.p99();
      case "p99.9" -> l == null ? Double.NaN : l.p999();
      case "clientCpuPerOp" -> orNaN(t.measurement().clientCpuMicrosPerOp());
      case "serverCommitsPerSec" -> orNaN(t.measurement().serverCommitsPerSecond());
      default -> t.measurement().tps();
    };
  }

  /** The metrics {@link #value} reads, as the history names them. */
  public static final List<String> METRICS =
      List.of("tps", "p50", "p99", "p99.9", "clientCpuPerOp", "serverCommitsPerSec");

  private static double orNaN(Double d) {
    return d == null ? Double.NaN : d;
  }

  /** Whether the ratio has an interval to test: two usable blocks or more, and no broken arm. */
  public boolean measurable() {
    return !health.broken() && estimate.hasInterval() && Double.isFinite(estimate.mean());
  }

  /** The result, given Holm's adjusted p and the level of this claim's step (null: not tested). */
  public AdviceResult result(Double holmP, Double holmAlpha, double margin, String failure) {
    return result(holmP, holmAlpha, margin, failure, null);
  }

  /**
   * The result, given Holm's adjusted p and the level of this claim's step (null: not tested), and
   * why the claim stopped early with the arm that could not run (null when not known).
   */
  public AdviceResult result(
      Double holmP, Double holmAlpha, double margin, String failure, String failedArm) {
    ArmHealth h =
        health.broken() || failure == null
            ? health
            : ArmHealth.of(blocks, advice.metric(), allowedFailureRate, failure, failedArm);
    Verdict v = h.broken() ? broken(h, failure) : verdict(holmP, margin);
    List<TrialResult> base = blocks.stream().map(Block::baseline).toList();
    List<TrialResult> treat = blocks.stream().map(Block::treatment).toList();
    return new AdviceResult(
        new AdviceResult.Claim(
            advice.name(),
            advice.claim(),
            advice.seed(),
            advice.expect(),
            advice.metric(),
            (advice.common() + " " + advice.baseline()).trim(),
            (advice.common() + " " + advice.treatment()).trim(),
            target),
        new AdviceResult.Blocks(
            failure == null ? "measured" : "failed",
            failure,
            blocks.size(),
            blocks.stream().map(Block::order).toList(),
            blocks.stream()
                .map(
                    b ->
                        ArmHealth.usable(b, advice.metric())
                            ? value(advice.metric(), b.treatment())
                                / value(advice.metric(), b.baseline())
                            : null)
                .toList(),
            geomean(base, "tps"),
            geomean(treat, "tps"),
            h.blockOps(),
            allowedFailureRate,
            h.brokenArm(),
            h.sqlState(),
            h.message()),
        estimate(holmP, holmAlpha, margin),
        new AdviceResult.SideEffects(
            blockRatio("p50"),
            blockRatio("p99"),
            sum(treat, true) - sum(base, true),
            sum(treat, false) - sum(base, false)),
        new AdviceResult.Finding(
            v.kind(),
            v.text(),
            v.moreBlocks(),
            pilot != null && blocks.size() > pilot ? pilot : null),
        AdviceResult.Why.of(base, treat));
  }

  /** The broken verdict: what is wrong with which arm, and its first error. */
  private static Verdict broken(ArmHealth h, String failure) {
    String text = "broken: " + h.reason();
    if (h.sqlState() != null || h.message() != null) {
      text += "; first error " + h.sqlState() + ": " + h.message();
    }
    if (failure != null && !h.reason().contains(failure)) {
      text += " (then failed: " + failure + ")";
    }
    return new Verdict(Verdict.Kind.BROKEN, text, null);
  }

  /**
   * The verdict when both arms worked: inconclusive without an interval, else the verdict of the
   * Holm-adjusted test, saying how many blocks it took.
   */
  private Verdict verdict(Double holmP, double margin) {
    if (!measurable()) {
      return new Verdict(
          Verdict.Kind.INCONCLUSIVE, "fewer than 2 complete blocks, no interval", null);
    }
    Verdict v = Verdict.of(estimate, holmP, advice.expect(), margin);
    String took =
        blocks.size()
            + " blocks"
            + (pilot != null && blocks.size() > pilot ? " (pilot " + pilot + ")" : "");
    return new Verdict(v.kind(), v.text() + ", after " + took, v.moreBlocks());
  }

  /** The ratio with its 95% interval and, when tested, Holm's adjusted p, level and interval. */
  private AdviceResult.Estimate estimate(Double holmP, Double holmAlpha, double margin) {
    Stats.Estimate e = estimate;
    boolean interval = measurable();
    double[] ci = interval ? e.interval(0.95) : null;
    double[] holmCi = interval && holmAlpha != null ? e.interval(1 - holmAlpha) : null;
    return new AdviceResult.Estimate(
        Double.isFinite(e.ratio()) ? e.ratio() : null,
        ci == null ? null : ci[0],
        ci == null ? null : ci[1],
        interval ? e.p() : null,
        holmP,
        holmAlpha == null ? null : 1 - holmAlpha,
        holmCi == null ? null : holmCi[0],
        holmCi == null ? null : holmCi[1],
        interval ? 100 * Math.expm1(e.halfWidth(0.95)) : null,
        margin);
  }

  private Double blockRatio(String metric) {
    List<Block> usable = blocks.stream().filter(b -> ArmHealth.usable(b, metric)).toList();
    if (usable.isEmpty()) {
      return null;
    }
    double s = 0;
    for (Block b : usable) {
      s += Math.log(value(metric, b.treatment()) / value(metric, b.baseline()));
    }
    double r = Math.exp(s / usable.size());
    return Double.isFinite(r) ? r : null;
  }

  /** The geometric mean; null without trials, 0 when one of them measured 0. */
  private static Double geomean(List<TrialResult> ts, String metric) {
    if (ts.isEmpty()) {
      return null;
    }
    double s = 0;
    for (TrialResult t : ts) {
      s += Math.log(value(metric, t));
    }
    double g = Math.exp(s / ts.size());
    return Double.isNaN(g) ? null : g;
  }

  private static long sum(List<TrialResult> ts, boolean retries) {
    return ts.stream()
        .mapToLong(t -> retries ? t.measurement().retries() : t.measurement().totalFailedOps())
        .sum();
  }

  /** The half-width of the 95% interval as a fraction (exp(t se) - 1), NaN without an interval. */
  public double halfWidth() {
    return measurable() ? Math.expm1(estimate.halfWidth(0.95)) : Double.NaN;
  }

  public String line() {
    if (!measurable()) {
      return String.format(Locale.ROOT, "%d complete block(s), no interval yet", blocks.size());
    }
    double[] ci = estimate.interval(0.95);
    return String.format(
        Locale.ROOT,
        "%d blocks, %s ratio %.3f [%.3f, %.3f] 95%% CI (\u00b1%.1f%%), p = %.3g",
        blocks.size(),
        advice.metric(),
        estimate.ratio(),
        ci[0],
        ci[1],
        100 * halfWidth(),
        estimate.p());
  }
}
