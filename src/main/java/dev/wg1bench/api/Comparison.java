package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import dev.wg1bench.advise.Advice;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.BlockDefaults;
import dev.wg1bench.plan.BlockDesignRules;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RoundTrip;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.result.AdviceResult;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.run.BlockExperiment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A baseline against a treatment, measured as {@code advise} measures a claim: randomized complete
 * blocks of one baseline and one treatment trial, each arm on its own target, the order drawn from
 * the seed for each pair of blocks and reversed in the pair's second block. Before any ratio is
 * read, each arm's failed and attempted ops are counted per block: an arm whose ops fail above the
 * allowed rate (none by default), of which a block measured nothing, or that could not run is
 * {@link Verdict#BROKEN}. Otherwise the blocks' log ratios give a paired t interval of the ratio
 * treatment/baseline (of tps, or of a latency percentile) and its p-value; the verdict says what
 * that interval shows, never how fast this machine is.
 *
 * <p>The test is two-sided at 5%: on an A/A pair (the same code as both arms) each of FASTER and
 * SLOWER comes out in about 2.5% of runs, so a gate on {@link Verdicts#assertNotSlower} raises a
 * false alarm in about 2.5% of them, and {@link Verdicts#assertFaster} passes by chance as often:
 * the price of asserting on a difference with uncertainty rather than on an absolute speed that
 * changes with the machine.
 */
@API(status = STABLE, since = "0.1")
public final class Comparison {
  /** What the treatment is against the baseline. */
  @API(status = STABLE, since = "0.1")
  public enum Verdict {
    /** significantly better: higher tps, or lower latency (p ≤ 0.05, two-sided) */
    FASTER,
    /** significantly worse */
    SLOWER,
    /** the 95% interval of the ratio lies within the margin: no difference that matters */
    EQUIVALENT,
    /** neither: more blocks would be needed to say */
    INCONCLUSIVE,
    /**
     * an arm's ops failed above the allowed rate, a block of it measured nothing, or it could not
     * run: no verdict on speed ({@link #broken()}, {@link #table()} say which and why)
     */
    BROKEN
  }

  /** One side of a comparison. */
  @API(status = STABLE, since = "0.1")
  public enum Arm {
    /** the arm given first to {@link Wg1bench#compare}: what the treatment is measured against */
    BASELINE,
    /** the arm given second: the change under test */
    TREATMENT
  }

  private final AdviceResult result;
  private final BenchmarkRun run;
  private final String baseline;
  private final String treatment;
  private final Duration rtt;

  private Comparison(
      AdviceResult result, BenchmarkRun run, String baseline, String treatment, Duration rtt) {
    this.result = result;
    this.run = run;
    this.baseline = baseline;
    this.treatment = treatment;
    this.rtt = rtt;
  }

  /**
   * The round-trip time both arms ran at when the comparison is one of {@link Builder#runAt}'s;
   * null for {@link Builder#run()} (each arm at its own {@link Wg1bench#rtt}, zero by default).
   */
  public Duration rtt() {
    return rtt;
  }

  /**
   * Treatment / baseline of the metric: the geometric mean of the blocks' ratios; NaN when no block
   * measured both arms.
   */
  public double ratio() {
    Double r = result.estimate().ratio();
    return r == null ? Double.NaN : r;
  }

  /** Low end of the ratio's 95% interval (paired t over the blocks), NaN under 2 blocks. */
  public double low() {
    return result.estimate().ciLow() == null ? Double.NaN : result.estimate().ciLow();
  }

  /** High end of the ratio's 95% interval, NaN under 2 blocks. */
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

  /**
   * The arm that is broken when {@link #verdict()} is {@link Verdict#BROKEN} and the arm is known;
   * else null.
   */
  public Arm broken() {
    String arm = result.brokenArm();
    return arm == null ? null : Arm.valueOf(arm.toUpperCase(Locale.ROOT));
  }

  /**
   * {@link #broken()}'s name, "baseline" or "treatment" (as the JSON result's {@code brokenArm}),
   * or null.
   *
   * @deprecated a name compared as a string; use {@link #broken()}, an {@link Arm}
   */
  @Deprecated
  public String brokenArm() {
    return result.brokenArm();
  }

  /** The broken arm's first error as "SQLSTATE: message", or null. */
  public String firstError() {
    return result.firstError() == null && result.firstErrorSqlState() == null
        ? null
        : result.firstErrorSqlState() + ": " + result.firstError();
  }

  /** Each block's ratio, in block order; null for a block where an arm measured nothing. */
  public List<Double> blockRatios() {
    return result.measured().blockRatios();
  }

  /** Each block's order ("BT" or "TB"). */
  public List<String> orders() {
    return result.measured().orders();
  }

  /** What the ratio is of, as set by {@link Builder#metric}. */
  public Metric judgedOn() {
    return Metric.valueOf(result.metric().toUpperCase(Locale.ROOT));
  }

  /**
   * {@link #judgedOn()}'s name as the JSON result writes it: tps, p50 or p99.
   *
   * @deprecated a name compared as a string; use {@link #judgedOn()}, a {@link Metric}
   */
  @Deprecated
  public String metric() {
    return result.metric();
  }

  /** The equivalence margin M as a fraction. */
  public double margin() {
    return result.estimate().margin();
  }

  /** Every trial and the verdict as the JSON the command line's {@code advise} writes. */
  public String json() {
    return Json.text(run);
  }

  /** Writes {@link #json()} to {@code file}, atomically. */
  public void writeJson(Path file) {
    Json.write(run, file);
  }

  /** The engine's record, for this package (the JSON result). */
  BenchmarkRun benchmarkRun() {
    return run;
  }

  /** What the treatment is against the baseline. */
  public Verdict verdict() {
    // the engine's verdict of the claim "the treatment is faster", named for a test
    return switch (result.finding().verdict()) {
      case BROKEN -> Verdict.BROKEN;
      case CONFIRMS -> Verdict.FASTER;
      case CONTRADICTS -> Verdict.SLOWER;
      case EQUIVALENT -> Verdict.EQUIVALENT;
      case INCONCLUSIVE -> Verdict.INCONCLUSIVE;
    };
  }

  /**
   * The whole comparison in a few lines: what assertion helpers put in their message. Under the
   * verdict, each arm per op side by side and {@link #mechanism()}.
   */
  public String table() {
    return ComparisonTable.of(result, baseline, treatment, rtt, verdict());
  }

  /**
   * How the arms differ per op, in one line, the largest differences first ({@code why: round trips
   * per op 10.0 -> 1.0; ...}), a figure an arm did not count said so; null in a result written
   * before the line. Counts (round trips, statements, rows, bytes) are exact: a line that names
   * them names the code's difference, whatever the timing.
   */
  public String mechanism() {
    return result.mechanism();
  }

  @Override
  public String toString() {
    return table();
  }

  /**
   * How the comparison runs; {@link #run()} runs it, as often as called. Defaults: 10 blocks, no
   * precision goal, margin 5%, metric tps, seed 42, no failed op allowed; where they differ from
   * {@code advise}'s, each setting says why.
   */
  @API(status = STABLE, since = "0.1")
  public static final class Builder {
    private final Wg1bench baseline;
    private final Wg1bench treatment;
    private int blocks = BlockDefaults.API.blocks();
    private Double precision;
    private Duration budget;
    private double margin = BlockDefaults.API.margin();
    private String metric = "tps";
    private long seed = 42;
    private double allowedFailureRate = BlockDefaults.API.allowedFailureRate();

    /** The round-trip time of {@link #runAt}'s comparisons, null for {@link #run()}. */
    private Duration rtt;

    Builder(Wg1bench baseline, Wg1bench treatment) {
      this.baseline = baseline;
      this.treatment = treatment;
    }

    /**
     * Blocks to run (default 10; advise's is 5: a test judges one claim and gets no second run, and
     * ten blocks' interval is about 42% narrower than five's at the same block sd); at least 2, and
     * 3 with a precision goal, at most 1000; with a precision goal, the pilot's.
     */
    public Builder blocks(int n) {
      this.blocks = (int) Args.range("blocks", n, 2, Matrix.MAX_REPEAT, "from 2 to 1000 blocks");
      return this;
    }

    /**
     * Half-width goal of the ratio's 95% interval, e.g. 0.02 for ±2% (Stein's two stages; default:
     * none, the blocks are fixed). Between 0.001 and 1.
     */
    public Builder precision(double halfWidth) {
      this.precision = Args.share("precision", halfWidth, 0.001, 1);
      return this;
    }

    /**
     * Wall time a precision goal may spend at most (default 10 minutes; advise's is 1 hour: a
     * build's budget, not a tuning session's shared by a dozen claims); refused without {@link
     * #precision}.
     */
    public Builder budget(Duration d) {
      this.budget = Args.duration("budget", d, Duration.ZERO, true, null, "a time more than 0");
      return this;
    }

    /**
     * M of "equivalent within ±M" as a fraction (default 0.05, as advise's), between 0.001 and 1.
     */
    public Builder margin(double m) {
      this.margin = Args.share("margin", m, 0.001, 1);
      return this;
    }

    /**
     * The share of an arm's attempted ops that may fail (after all their tries) before the arm is
     * {@link Verdict#BROKEN}, as a fraction between 0 and 1 (default 0, as advise's: any failed op
     * breaks it). For code that is expected to fail now and then, e.g. 0.01 for 1%.
     */
    public Builder allowedFailureRate(double fraction) {
      this.allowedFailureRate = Args.share("allowedFailureRate", fraction, 0, 1);
      return this;
    }

    /** What "faster" is judged on (default {@link Metric#TPS}). */
    public Builder metric(Metric m) {
      this.metric = Args.given("metric", m, "TPS, P50 or P99").wire();
      return this;
    }

    /** Seed of the blocks' orders (default 42): the same seed runs the same orders. */
    public Builder seed(long s) {
      this.seed = s;
      return this;
    }

    /** The labels a block's analysis pairs trials by. */
    private static Map<String, String> labels(String name, String arm) {
      Map<String, String> l = new LinkedHashMap<>();
      l.put("advice", name);
      l.put("arm", arm);
      return l;
    }

    /**
     * Runs the blocks and returns the comparison; a setting the command line would refuse throws
     * {@link InvalidSettingException} with its words, before anything runs.
     */
    public Comparison run() {
      return Failures.translated(this::execute);
    }

    /**
     * Runs the comparison once per round-trip time, in the order given, each arm at that {@link
     * Wg1bench#rtt} (its own replaced), each with its own blocks, orders and verdict: whether an
     * app-side choice holds at the network the application has, as {@code advise --rtt 0,0.5ms,2ms}
     * asks it. A value the command line would refuse (negative, over 10 s) throws {@link
     * InvalidSettingException} before anything runs.
     */
    public List<Comparison> runAt(Duration... rtts) {
      if (rtts == null || rtts.length == 0) {
        throw Args.refused("runAt()", "at least one round-trip time, e.g. Duration.ZERO", "none");
      }
      for (Duration d : rtts) {
        Args.duration(
            "runAt", d, Duration.ZERO, false, RoundTrip.MAX, "round-trip times from 0 to 10 s");
      }
      // the design's own rules, checked once before the first comparison runs
      Failures.translated(this::design);
      List<Comparison> out = new ArrayList<>();
      for (Duration d : rtts) {
        Builder at = new Builder(baseline.rtt(d), treatment.rtt(d));
        at.blocks = blocks;
        at.precision = precision;
        at.budget = budget;
        at.margin = margin;
        at.metric = metric;
        at.seed = seed;
        at.allowedFailureRate = allowedFailureRate;
        at.rtt = d;
        out.add(at.run());
      }
      return List.copyOf(out);
    }

    /** The design, checked by the rules {@code advise} checks its options by. */
    BlockExperiment.Design design() {
      // each value was checked by its setter; what is left is how they combine
      boolean goal = precision != null;
      if (goal && blocks < BlockDesignRules.MIN_PILOT) {
        throw Args.refused(
            "blocks(" + blocks + ")",
            "3 blocks at least with precision(" + Args.plain(precision) + ") (the pilot's)",
            blocks);
      }
      if (budget != null && !goal) {
        throw Args.refused(
            "budget(" + budget + ")", "needs precision(...), a goal to spend it on", "no goal");
      }
      return new BlockExperiment.Design(
          blocks,
          seed,
          margin,
          precision,
          goal ? (budget != null ? budget : BlockDefaults.API.budget()) : null,
          Matrix.BetweenTrials.AUTO,
          allowedFailureRate);
    }

    /** One target per arm: the treatment's own, or the baseline's when it names none. */
    private static TargetSpec target(String arm, List<TargetSpec> targets) {
      if (targets.size() != 1) {
        throw Args.refused(
            "compare(baseline, treatment)",
            "each arm runs on one target: give the " + arm + " exactly one against(...)",
            targets.size() + " targets");
      }
      return targets.get(0);
    }

    private Comparison execute() {
      return ApiRegistrations.withOutput(null, "wg1bench-compare-", this::execute);
    }

    private Comparison execute(Path out) {
      BlockExperiment.Design design = design();
      ArmTargets arms =
          ArmTargets.of(
              target("baseline", baseline.targets()),
              treatment.targets().isEmpty() ? null : target("treatment", treatment.targets()));
      TargetSpec base = arms.baseline();
      TargetSpec treat = arms.treatment();
      baseline.init(List.of(base));
      if (treatment.initScale() != null
          && (treat != base || !treatment.initScale().equals(baseline.initScale()))) {
        treatment.init(List.of(treat));
      }
      String b = baseline.label();
      String t = treatment.label();
      String name = "compare";
      // a claim that the treatment raises tps, or lowers a latency percentile
      String expect = metric.equals("tps") ? "higher" : "lower";
      Advice advice =
          Advice.claim(name, t + " against " + b)
              .seed("custom")
              .expect(expect)
              .metric(metric)
              .arms(b, t)
              .build();
      BlockExperiment.Planned planned =
          new BlockExperiment.Planned(
              advice,
              List.of(
                  new Matrix.Point(
                      baseline.plan(out, List.of(base)), base, labels(name, "baseline"))),
              List.of(
                  new Matrix.Point(
                      treatment.plan(out, List.of(treat)), treat, labels(name, "treatment"))),
              out);
      BenchmarkRun run =
          new BlockExperiment(baseline.console(), false).run(List.of(planned), design, out);
      return new Comparison(run.advice().get(0), run, b, t, rtt);
    }
  }
}
