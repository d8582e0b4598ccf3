package dev.wg1bench.advise;

import dev.wg1bench.BuildInfo;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.result.AdviceResult;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.MatrixInfo;
import dev.wg1bench.result.PointSummary;
import dev.wg1bench.result.Summaries;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.run.Runner;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs each piece of advice as one matrix of two arms (baseline, treatment) on every target,
 * repeated and interleaved in random order, then says per target whether this server confirms the
 * claim, shows no significant difference, or contradicts it.
 */
public final class Adviser {
  /** An advice and its matrix (points labeled arm=baseline or arm=treatment). */
  public record Planned(Advice advice, Matrix matrix) {}

  private final PrintStream out;
  private final boolean verbose;

  public Adviser(PrintStream out, boolean verbose) {
    this.out = out;
    this.verbose = verbose;
  }

  public BenchmarkRun run(List<Planned> planned, Path output) {
    List<TrialResult> trials = new ArrayList<>();
    List<PointSummary> summary = new ArrayList<>();
    List<AdviceResult> results = new ArrayList<>();
    BenchmarkRun first = null;
    for (Planned p : planned) {
      Advice a = p.advice();
      out.printf("%nadvice %s (%s): %s%n", a.name(), a.seed(), a.claim());
      out.printf(
          "  baseline: %s%n  treatment: %s%n",
          a.common() + " " + a.baseline(), a.common() + " " + a.treatment());
      BenchmarkRun run = new Runner(out, verbose).run(p.matrix());
      if (first == null) {
        first = run;
      }
      trials.addAll(run.trials());
      summary.addAll(run.summary());
      for (String target : run.trials().stream().map(TrialResult::target).distinct().toList()) {
        AdviceResult r = evaluate(a, target, run.trials());
        results.add(r);
        print(r);
      }
    }
    BenchmarkRun all =
        new BenchmarkRun(
            "wg1bench",
            BuildInfo.version(),
            BuildInfo.jmh(),
            "advise",
            "tuning advice from the seeds, baseline against treatment",
            String.join("; ", planned.stream().map(p -> p.advice().seed()).distinct().toList()),
            first.plan(),
            new MatrixInfo(
                summary.size(),
                first.matrix().repeat(),
                first.matrix().order(),
                first.matrix().seed(),
                first.matrix().betweenTrials()),
            first.machine(),
            trials,
            summary,
            results);
    JsonReport.write(all, output);
    table(results);
    out.println("advice result written to " + output);
    return all;
  }

  static AdviceResult evaluate(Advice a, String target, List<TrialResult> trials) {
    List<TrialResult> base = arm(trials, target, "baseline");
    List<TrialResult> treat = arm(trials, target, "treatment");
    double[] b = base.stream().mapToDouble(t -> t.measurement().tps()).toArray();
    double[] t = treat.stream().mapToDouble(x -> x.measurement().tps()).toArray();
    Stats.Interval ci = Stats.ratio(b, t);
    double p99b =
        Summaries.median(
            base.stream().mapToDouble(x -> x.measurement().latencyMs().p99()).toArray());
    double p99t =
        Summaries.median(
            treat.stream().mapToDouble(x -> x.measurement().latencyMs().p99()).toArray());
    long retries = sum(treat, true) - sum(base, true);
    long failures = sum(treat, false) - sum(base, false);
    return new AdviceResult(
        a.name(),
        a.claim(),
        a.seed(),
        a.expect(),
        (a.common() + " " + a.baseline()).trim(),
        (a.common() + " " + a.treatment()).trim(),
        target,
        Math.min(b.length, t.length),
        Summaries.median(b),
        Summaries.median(t),
        ci.ratio(),
        ci.low(),
        ci.high(),
        p99b > 0 ? p99t / p99b : Double.NaN,
        retries,
        failures,
        verdict(a.expect(), ci));
  }

  /** Whether the interval lies on the claimed side of 1, on the other side, or straddles it. */
  static String verdict(String expect, Stats.Interval ci) {
    if (ci.low() == null) {
      return "not enough trials (need --repeat 2 or more)";
    }
    boolean higher = ci.low() > 1;
    boolean lower = ci.high() < 1;
    if (!higher && !lower) {
      return "no significant difference";
    }
    boolean asClaimed = expect.equals("higher") ? higher : lower;
    return asClaimed ? "confirms" : "contradicts";
  }

  private static List<TrialResult> arm(List<TrialResult> trials, String target, String arm) {
    return trials.stream()
        .filter(t -> t.target().equals(target) && arm.equals(t.point().get("arm")))
        .toList();
  }

  private static long sum(List<TrialResult> ts, boolean retries) {
    return ts.stream()
        .mapToLong(t -> retries ? t.measurement().retries() : t.measurement().totalFailedOps())
        .sum();
  }

  private void print(AdviceResult r) {
    out.printf(
        Locale.ROOT,
        "  %s: baseline %.1f tps, treatment %.1f tps, ratio %.2f %s, p99 ratio %.2f, retries %+d, failures %+d -> %s%n",
        r.target(),
        r.baselineTps(),
        r.treatmentTps(),
        r.ratio(),
        ci(r),
        r.p99Ratio(),
        r.retriesAdded(),
        r.failuresAdded(),
        r.verdict());
  }

  private static String ci(AdviceResult r) {
    return r.ciLow() == null
        ? "(no CI)"
        : String.format(Locale.ROOT, "[%.2f, %.2f] 95%% CI", r.ciLow(), r.ciHigh());
  }

  private void table(List<AdviceResult> results) {
    out.println();
    out.printf(
        "%-24s %-12s %10s %10s %7s %16s %8s  %s%n",
        "advice", "target", "base tps", "treat tps", "ratio", "95% CI", "p99 x", "verdict");
    for (AdviceResult r : results) {
      out.printf(
          Locale.ROOT,
          "%-24s %-12s %10.1f %10.1f %7.2f %16s %8.2f  %s%n",
          r.name(),
          r.target(),
          r.baselineTps(),
          r.treatmentTps(),
          r.ratio(),
          r.ciLow() == null
              ? "-"
              : String.format(Locale.ROOT, "[%.2f, %.2f]", r.ciLow(), r.ciHigh()),
          r.p99Ratio(),
          r.verdict());
    }
  }
}
