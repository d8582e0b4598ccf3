package dev.wg1bench.api;

import dev.wg1bench.advise.Advice;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.result.AdviceResult;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.run.BlockExperiment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A baseline against a treatment, measured as {@code advise} measures a claim: randomized complete
 * blocks of one baseline and one treatment trial on one target, the order drawn from the seed for
 * each pair of blocks and reversed in the pair's second block; the blocks' log ratios give a paired
 * t interval of the ratio treatment/baseline (of tps, or of a latency percentile) and its p-value;
 * the verdict says what that interval shows, never how fast this machine is.
 *
 * <p>A gate built on it ({@link Verdicts#assertNotSlower}) raises a false alarm on an A/A pair (the
 * same code as both arms) about as often as α = 5% of its runs: the price of asserting on a
 * difference with uncertainty rather than on an absolute speed that changes with the machine.
 */
public final class Comparison {
  /** What the treatment is against the baseline. */
  public enum Verdict {
    /** significantly better: higher tps, or lower latency (p ≤ 0.05) */
    FASTER,
    /** significantly worse */
    SLOWER,
    /** the 95% interval of the ratio lies within the margin: no difference that matters */
    EQUIVALENT,
    /** neither: more blocks would be needed to say */
    INCONCLUSIVE
  }

  private final AdviceResult result;
  private final BenchmarkRun run;
  private final String baseline;
  private final String treatment;

  private Comparison(AdviceResult result, BenchmarkRun run, String baseline, String treatment) {
    this.result = result;
    this.run = run;
    this.baseline = baseline;
    this.treatment = treatment;
  }

  /** Treatment / baseline of the metric: the geometric mean of the blocks' ratios. */
  public double ratio() {
    return result.estimate().ratio();
  }

  /** Low end of the ratio's 95% interval (paired t over the blocks), NaN under 2 blocks. */
  public double low() {
    return result.estimate().ciLow() == null ? Double.NaN : result.estimate().ciLow();
  }

  public double high() {
    return result.estimate().ciHigh() == null ? Double.NaN : result.estimate().ciHigh();
  }

  /** Two-sided p of "no difference", NaN under 2 blocks. */
  public double p() {
    return result.estimate().pValue() == null ? Double.NaN : result.estimate().pValue();
  }

  /** Blocks measured. */
  public int blocks() {
    return result.measured().blocks();
  }

  /** Each block's ratio, in block order. */
  public List<Double> blockRatios() {
    return result.measured().blockRatios();
  }

  /** Each block's order ("BT" or "TB"). */
  public List<String> orders() {
    return result.measured().orders();
  }

  public String metric() {
    return result.metric();
  }

  public double margin() {
    return result.estimate().margin();
  }

  /** Every trial and the verdict, as the JSON result holds them. */
  public BenchmarkRun run() {
    return run;
  }

  public Verdict verdict() {
    String v = result.finding().verdict();
    return switch (v) {
      case "confirms" -> Verdict.FASTER;
      case "contradicts" -> Verdict.SLOWER;
      case "equivalent" -> Verdict.EQUIVALENT;
      default -> Verdict.INCONCLUSIVE;
    };
  }

  /** The whole comparison in a few lines: what assertion helpers put in their message. */
  public String table() {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "%s against %s on %s: %s ratio %.4f, 95%% interval [%.4f, %.4f], p = %.4g, %d blocks"
                + " (order drawn per pair of blocks, the second of a pair reversed), margin"
                + " \u00b1%.1f%%: %s%n",
            treatment,
            baseline,
            result.target(),
            metric(),
            ratio(),
            low(),
            high(),
            p(),
            blocks(),
            100 * margin(),
            verdict()));
    b.append(String.format(Locale.ROOT, "%-6s %-5s %10s%n", "block", "order", "ratio"));
    for (int i = 0; i < blockRatios().size(); i++) {
      b.append(
          String.format(
              Locale.ROOT,
              "%-6d %-5s %10.4f%n",
              i + 1,
              i < orders().size() ? orders().get(i) : "",
              blockRatios().get(i)));
    }
    b.append(
        String.format(
            Locale.ROOT,
            "tps: baseline %.1f, treatment %.1f (geometric means)%n",
            result.measured().baselineTps(),
            result.measured().treatmentTps()));
    if (result.measured().failure() != null) {
      b.append("failed: ").append(result.measured().failure()).append('\n');
    }
    return b.toString();
  }

  @Override
  public String toString() {
    return table();
  }

  /** How the comparison runs; {@link #run()} runs it. */
  public static final class Builder {
    private final Wg1bench baseline;
    private final Wg1bench treatment;
    private int blocks = 10;
    private Double precision;
    private Duration budget;
    private double margin = 0.05;
    private String metric = "tps";
    private long seed = 42;

    Builder(Wg1bench baseline, Wg1bench treatment) {
      this.baseline = baseline;
      this.treatment = treatment;
    }

    /** Blocks to run (default 10); with a precision goal, the pilot's. */
    public Builder blocks(int n) {
      this.blocks = n;
      return this;
    }

    /** Half-width goal of the ratio's 95% interval, e.g. 0.02 for ±2% (Stein's two stages). */
    public Builder precision(double halfWidth) {
      this.precision = halfWidth;
      return this;
    }

    /** Wall time a precision goal may spend at most (default 10 minutes). */
    public Builder budget(Duration d) {
      this.budget = d;
      return this;
    }

    /** M of "equivalent within ±M" (default 0.05). */
    public Builder margin(double m) {
      this.margin = m;
      return this;
    }

    /** tps (default), p50 or p99: what "faster" is judged on. */
    public Builder metric(String m) {
      this.metric = m;
      return this;
    }

    /** Seed of the blocks' orders (default 42): the same seed runs the same orders. */
    public Builder seed(long s) {
      this.seed = s;
      return this;
    }

    /** The labels a block's analysis pairs trials by. */
    private static java.util.Map<String, String> labels(String name, String arm) {
      java.util.Map<String, String> l = new java.util.LinkedHashMap<>();
      l.put("advice", name);
      l.put("arm", arm);
      return l;
    }

    public Comparison run() {
      if (!List.of("tps", "p50", "p99").contains(metric)) {
        throw new UsageException("metric '" + metric + "' is not one of tps, p50, p99");
      }
      if (blocks < 2) {
        throw new UsageException("blocks must be at least 2 for an interval, got " + blocks);
      }
      if (!(margin > 0 && margin < 1)) {
        throw new UsageException("margin must be above 0 and below 1, got " + margin);
      }
      List<TargetSpec> targets = baseline.targets();
      if (treatment.targets().isEmpty()) {
        // both arms run on the baseline's target: the treatment may leave it out
        treatment.sameTargetAs(baseline);
      }
      if (targets.size() != 1) {
        throw new UsageException(
            "compare runs both arms on one target: give the baseline exactly one, got "
                + targets.size());
      }
      try {
        Path out = Files.createTempFile("wg1bench-compare-", ".json");
        baseline.init();
        TargetSpec target = targets.get(0);
        String b = baseline.label();
        String t = treatment.label();
        String name = "compare";
        // a claim that the treatment raises tps, or lowers a latency percentile
        String expect = metric.equals("tps") ? "higher" : "lower";
        Advice advice =
            new Advice(name, t + " against " + b, "custom", expect, metric, "", b, t, 0);
        BlockExperiment.Planned planned =
            new BlockExperiment.Planned(
                advice,
                List.of(new Matrix.Point(baseline.plan(out), target, labels(name, "baseline"))),
                List.of(new Matrix.Point(treatment.plan(out), target, labels(name, "treatment"))),
                out);
        BlockExperiment.Design design =
            new BlockExperiment.Design(
                blocks,
                seed,
                margin,
                precision,
                precision == null ? null : budget != null ? budget : Duration.ofMinutes(10),
                Matrix.BetweenTrials.AUTO);
        BenchmarkRun run =
            new BlockExperiment(baseline.console(), false).run(List.of(planned), design, out);
        AdviceResult r = run.advice().get(0);
        return new Comparison(r, run, b, t);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        baseline.release();
        treatment.release();
      }
    }
  }
}
