package dev.wg1bench.run;

import dev.wg1bench.BuildInfo;
import dev.wg1bench.advise.Advice;
import dev.wg1bench.advise.Analysis;
import dev.wg1bench.advise.Blocks;
import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.report.PerOpConsole;
import dev.wg1bench.result.AdviceResult;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Machine;
import dev.wg1bench.result.MatrixInfo;
import dev.wg1bench.result.Summaries;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.stats.Stats;
import dev.wg1bench.stats.Verdict;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs each piece of advice as a randomized complete block experiment on every target: blocks of
 * one baseline and one treatment trial, in an order drawn per pair of blocks and claim from the
 * seed and reversed in the pair's second block (see {@link dev.wg1bench.advise.Blocks}); then
 * judges first whether both arms worked (an arm whose ops failed above the allowed rate, of which a
 * block measured nothing, or that could not run is broken, see {@link
 * dev.wg1bench.advise.ArmHealth}) and only then analyses the blocks' log ratios (paired t, Holm
 * over the run's claims) into a verdict. With a precision goal the first blocks are a pilot whose
 * sd fixes, once, the blocks the goal needs (Stein's two stages: stopping on the observed width
 * would stop when the sd happens to be small and inflate false positives); the time budget may cut
 * them short. A claim that fails is recorded with its reason and the others go on.
 */
public final class BlockExperiment {
  /**
   * Runs a batch of a claim's trials, in the matrix's order, and returns their results: how an arm
   * that is not a run of a workload (a replay of a server log) takes part in the same design.
   */
  public interface TrialSource {
    List<TrialResult> run(Matrix batch);
  }

  /**
   * A piece of advice and its one-point arms, one per target (same target order in both).
   *
   * @param source runs its trials; null: the run stage's {@link RunStage}
   */
  public record Planned(
      Advice advice,
      List<Matrix.Point> baseline,
      List<Matrix.Point> treatment,
      Path output,
      TrialSource source) {
    public Planned(
        Advice advice, List<Matrix.Point> baseline, List<Matrix.Point> treatment, Path output) {
      this(advice, baseline, treatment, output, null);
    }
  }

  /**
   * How the experiment is run.
   *
   * @param blocks blocks per claim; with a precision goal, the minimum
   * @param seed seed of the blocks' orders
   * @param margin M of "equivalent within ±M%", as a fraction
   * @param precision half-width goal of the 95% interval as a fraction, or null for fixed blocks
   * @param budget wall time for the whole run with a precision goal
   * @param between hygiene before each trial
   * @param allowedFailureRate the share of attempted ops an arm may fail before it is broken
   */
  public record Design(
      int blocks,
      long seed,
      double margin,
      Double precision,
      Duration budget,
      Matrix.BetweenTrials between,
      double allowedFailureRate) {

    /** No failed op allowed. */
    public Design(
        int blocks,
        long seed,
        double margin,
        Double precision,
        Duration budget,
        Matrix.BetweenTrials between) {
      this(blocks, seed, margin, precision, budget, between, 0);
    }
  }

  private final PrintStream out;
  private final boolean verbose;

  public BlockExperiment(PrintStream out, boolean verbose) {
    this.out = out;
    this.verbose = verbose;
  }

  /** One claim's trials so far and, if it failed, why. */
  private static final class Claim {
    final Planned planned;
    final List<TrialResult> trials = new ArrayList<>();
    String failure;

    /** The arm that could not run (baseline or treatment), null when not known. */
    String failedArm;

    /** The matrix point taken up last: a failure belongs to its arm. */
    int point = -1;

    final List<Analysis> analyses = new ArrayList<>();

    Claim(Planned planned) {
      this.planned = planned;
    }
  }

  public BenchmarkRun run(List<Planned> planned, Design d, Path output) {
    long start = System.nanoTime();
    Machine machine = Machine.current();
    List<Claim> claims = new ArrayList<>();
    List<TrialResult> all = new ArrayList<>();
    out.printf(
        Locale.ROOT,
        "randomized complete blocks: one baseline and one treatment trial per block, in mirrored"
            + " pairs (the order drawn for each pair of blocks, the second block reversed; --seed"
            + " %d)%s%n",
        d.seed(),
        d.precision() == null
            ? ", " + d.blocks() + " blocks per claim"
            : String.format(
                Locale.ROOT,
                ", a pilot of %d blocks per claim whose sd fixes the blocks for a 95%% interval"
                    + " within \u00b1%.1f%% (Stein's two stages), unless %s is spent",
                d.blocks(),
                100 * d.precision(),
                Durations.format(d.budget())));
    for (int i = 0; i < planned.size(); i++) {
      Planned p = planned.get(i);
      Advice a = p.advice();
      out.printf("%nadvice %s (%s): %s%n", a.name(), a.seed(), a.claim());
      out.printf(
          "  baseline: %s%n  treatment: %s%n",
          (a.common() + " " + a.baseline()).trim(), (a.common() + " " + a.treatment()).trim());
      Claim c = new Claim(p);
      claims.add(c);
      long deadline =
          d.budget() == null
              ? Long.MAX_VALUE
              : System.nanoTime()
                  + (d.budget().toNanos() - (System.nanoTime() - start)) / (planned.size() - i);
      measure(c, d, deadline, all.size());
      all.addAll(c.trials);
      for (Analysis an : c.analyses) {
        out.printf("  %s: %s%n", an.target, an.line());
      }
      if (c.failure != null) {
        out.printf("  failed: %s%n", c.failure);
      }
    }
    List<AdviceResult> results = verdicts(claims, d.margin(), d.allowedFailureRate());
    BenchmarkRun run = combined(planned, d, machine, all, results);
    for (Claim c : claims) {
      List<AdviceResult> own =
          results.stream().filter(r -> r.name().equals(c.planned.advice().name())).toList();
      JsonReport.write(combined(List.of(c.planned), d, machine, c.trials, own), c.planned.output());
    }
    var written = JsonReport.write(run, output);
    table(results);
    out.println("advice result written to " + written);
    return run;
  }

  /** Runs blocks of one claim until its design is satisfied, the deadline passes or it fails. */
  private void measure(Claim c, Design d, long deadline, int sequenceBefore) {
    int done = 0;
    int next = d.blocks();
    int total = -1;
    long started = System.nanoTime();
    while (next > 0) {
      Matrix m = batch(c.planned, d, done + 1, next);
      try {
        List<TrialResult> ran =
            c.planned.source() != null
                ? c.planned.source().run(m)
                : new RunStage(out, verbose).onPoint(i -> c.point = i).run(m).trials();
        for (TrialResult t : ran) {
          c.trials.add(t.withSequence(sequenceBefore + c.trials.size() + 1));
        }
      } catch (RuntimeException e) {
        // this claim stops here; what it measured so far is kept and the run goes on
        c.failure = ConnectionFactory.oneLine(e);
        int targets = c.planned.baseline().size();
        c.failedArm = c.point < 0 ? null : c.point < targets ? "baseline" : "treatment";
        break;
      } finally {
        done += next;
        analyse(c, d.precision() == null ? null : d.blocks(), d.allowedFailureRate());
      }
      if (d.precision() == null) {
        break;
      }
      if (total < 0) {
        // Stein's second stage: the blocks are fixed once, from the pilot's sd
        for (Analysis an : c.analyses) {
          total = Math.max(total, Blocks.totalBlocks(an.estimate, d.precision()));
        }
      }
      int needed = total - done;
      double perBlock = (System.nanoTime() - started) / (double) done;
      long affordable = (long) Math.floor((deadline - System.nanoTime()) / perBlock);
      next = Blocks.nextBatch(needed, done, affordable);
      if (needed > 0 && next <= 0) {
        out.printf(
            "  %s: budget spent after %d blocks (%d more wanted for \u00b1%.1f%%)%n",
            c.planned.advice().name(), done, needed, 100 * d.precision());
      }
    }
  }

  /** Each target's analysis: the baseline's point paired with the treatment's at its place. */
  private static void analyse(Claim c, Integer pilot, double allowed) {
    c.analyses.clear();
    for (int i = 0; i < c.planned.baseline().size(); i++) {
      c.analyses.add(
          new Analysis(
              c.planned.advice(),
              c.planned.baseline().get(i).target().name(),
              c.planned.treatment().get(i).target().name(),
              c.trials,
              pilot,
              allowed));
    }
  }

  /** Blocks first..first+count-1 of one claim: per block and target, B and T in drawn order. */
  static Matrix batch(Planned p, Design d, int first, int count) {
    List<Matrix.Point> points = new ArrayList<>(p.baseline());
    points.addAll(p.treatment());
    int targets = p.baseline().size();
    List<Matrix.TrialRef> order = new ArrayList<>();
    for (int b = first; b < first + count; b++) {
      for (int t = 0; t < targets; t++) {
        String target = p.baseline().get(t).target().name();
        boolean tFirst = Blocks.treatmentFirst(d.seed(), p.advice().name(), target, b);
        order.add(new Matrix.TrialRef(tFirst ? targets + t : t, b));
        order.add(new Matrix.TrialRef(tFirst ? t : targets + t, b));
      }
    }
    return new Matrix(points, count, Matrix.Order.BLOCKS, d.seed(), d.between(), p.output(), order);
  }

  /** Holm over every claim and target with an interval, then each one's verdict. */
  static List<AdviceResult> verdicts(List<Claim> claims, double margin, double allowed) {
    List<Analysis> tested = new ArrayList<>();
    for (Claim c : claims) {
      c.analyses.stream().filter(Analysis::measurable).forEach(tested::add);
    }
    Stats.Holm holm = Stats.holm(tested.stream().map(a -> a.estimate).toList(), Verdict.ALPHA);
    double[] adj = holm.adjusted();
    double[] alphas = holm.alphas();
    Map<Analysis, Integer> index = new LinkedHashMap<>();
    for (int i = 0; i < tested.size(); i++) {
      index.put(tested.get(i), i);
    }
    List<AdviceResult> out = new ArrayList<>();
    for (Claim c : claims) {
      if (c.analyses.isEmpty()) {
        analyse(c, null, allowed);
      }
      for (Analysis a : c.analyses) {
        Integer i = index.get(a);
        out.add(
            a.result(
                i == null ? null : adj[i],
                i == null ? null : alphas[i],
                margin,
                c.failure,
                c.failedArm));
      }
    }
    return out;
  }

  private static BenchmarkRun combined(
      List<Planned> planned,
      Design d,
      Machine machine,
      List<TrialResult> trials,
      List<AdviceResult> results) {
    int maxBlocks = results.stream().mapToInt(AdviceResult::blocks).max().orElse(0);
    return new BenchmarkRun(
        new BenchmarkRun.Tool("wg1bench", BuildInfo.version(), BuildInfo.jmh()),
        new BenchmarkRun.WorkloadRun(
            "advise",
            "tuning advice from the seeds, baseline against treatment in randomized complete blocks",
            String.join("; ", planned.stream().map(p -> p.advice().seed()).distinct().toList())),
        planned.get(0).baseline().get(0).plan(),
        new MatrixInfo(
            planned.size() * 2,
            maxBlocks,
            "blocks",
            d.seed(),
            d.between().name().toLowerCase(Locale.ROOT)),
        machine,
        List.copyOf(trials),
        Summaries.of(trials),
        results);
  }

  private void table(List<AdviceResult> results) {
    out.println();
    out.println(
        "ratio: treatment / baseline, geometric mean over blocks; 95% CI: Student t over the"
            + " blocks' log ratios, not adjusted; Holm p: adjusted over the claims of this run");
    out.printf(
        "%-24s %-10s %6s %7s %18s %8s %8s  %s%n",
        "advice", "target", "blocks", "ratio", "95% CI", "Holm p", "p99 x", "verdict");
    for (AdviceResult r : results) {
      out.printf(
          Locale.ROOT,
          "%-24s %-10s %6d %7s %18s %8s %8s  %s%n",
          r.name(),
          r.target(),
          r.blocks(),
          r.ratio() == null ? "-" : String.format(Locale.ROOT, "%.3f", r.ratio()),
          r.ciLow() == null
              ? "-"
              : String.format(Locale.ROOT, "[%.3f, %.3f]", r.ciLow(), r.ciHigh()),
          r.holmP() == null ? "-" : String.format(Locale.ROOT, "%.3g", r.holmP()),
          r.p99Ratio() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.p99Ratio()),
          r.verdictText());
    }
    for (AdviceResult r : results) {
      if (r.why() != null) {
        out.printf("%n%s on %s, per op:%n", r.name(), r.target());
        out.print(
            PerOpConsole.arms(
                "  ",
                "baseline",
                r.why().baselinePerOp(),
                "treatment",
                r.why().treatmentPerOp(),
                r.mechanism()));
      }
    }
  }
}
