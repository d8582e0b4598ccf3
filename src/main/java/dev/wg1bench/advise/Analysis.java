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

  public Analysis(Advice advice, String target, List<TrialResult> trials, Integer pilot) {
    this.pilot = pilot;
    this.advice = advice;
    this.target = target;
    this.blocks = blocks(target, trials);
    double[] d = new double[blocks.size()];
    for (int i = 0; i < d.length; i++) {
      Block b = blocks.get(i);
      d[i] =
          Math.log(value(advice.metric(), b.treatment()))
              - Math.log(value(advice.metric(), b.baseline()));
    }
    this.estimate = pilot == null ? Stats.paired(d) : Stats.twoStage(d, pilot);
  }

  /** Complete blocks on this target, by block index; a block missing an arm is left out. */
  static List<Block> blocks(String target, List<TrialResult> trials) {
    Map<Integer, TrialResult[]> byBlock = new TreeMap<>();
    for (TrialResult t : trials) {
      if (!t.target().equals(target)) {
        continue;
      }
      TrialResult[] pair = byBlock.computeIfAbsent(t.repeat(), k -> new TrialResult[2]);
      pair["baseline".equals(t.point().get("arm")) ? 0 : 1] = t;
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

  public boolean measurable() {
    return estimate.hasInterval() && !Double.isNaN(estimate.mean());
  }

  /** The result, given Holm's adjusted p and the level of this claim's step (null: not tested). */
  public AdviceResult result(Double holmP, Double holmAlpha, double margin, String failure) {
    Verdict v = verdict(holmP, margin, failure);
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
                        value(advice.metric(), b.treatment())
                            / value(advice.metric(), b.baseline()))
                .toList(),
            geomean(base, "tps"),
            geomean(treat, "tps")),
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
            pilot != null && blocks.size() > pilot ? pilot : null));
  }

  /**
   * The verdict: failed when no block completed, inconclusive without an interval, else the verdict
   * of the Holm-adjusted test, saying how many blocks it took and any failure after them.
   */
  private Verdict verdict(Double holmP, double margin, String failure) {
    if (failure != null && blocks.isEmpty()) {
      return new Verdict("failed", "failed: " + failure, null);
    }
    if (!measurable()) {
      return new Verdict(
          failure != null ? "failed" : "inconclusive",
          (failure != null ? "failed after " + blocks.size() + " block(s): " + failure + "; " : "")
              + "fewer than 2 complete blocks, no interval",
          null);
    }
    Verdict v = Verdict.of(estimate, holmP, advice.expect(), margin);
    String took =
        blocks.size()
            + " blocks"
            + (pilot != null && blocks.size() > pilot ? " (pilot " + pilot + ")" : "");
    v = new Verdict(v.kind(), v.text() + ", after " + took, v.moreBlocks());
    if (failure != null) {
      v = new Verdict(v.kind(), v.text() + " (then failed: " + failure + ")", v.moreBlocks());
    }
    return v;
  }

  /** The ratio with its 95% interval and, when tested, Holm's adjusted p, level and interval. */
  private AdviceResult.Estimate estimate(Double holmP, Double holmAlpha, double margin) {
    Stats.Estimate e = estimate;
    boolean interval = measurable();
    double[] ci = interval ? e.interval(0.95) : null;
    double[] holmCi = interval && holmAlpha != null ? e.interval(1 - holmAlpha) : null;
    return new AdviceResult.Estimate(
        e.ratio(),
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
    if (blocks.isEmpty()) {
      return null;
    }
    double s = 0;
    for (Block b : blocks) {
      s += Math.log(value(metric, b.treatment()) / value(metric, b.baseline()));
    }
    double r = Math.exp(s / blocks.size());
    return Double.isFinite(r) ? r : null;
  }

  private static double geomean(List<TrialResult> ts, String metric) {
    if (ts.isEmpty()) {
      return Double.NaN;
    }
    double s = 0;
    for (TrialResult t : ts) {
      s += Math.log(value(metric, t));
    }
    return Math.exp(s / ts.size());
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
