import dev.wg1bench.advise.Advice;
import dev.wg1bench.advise.Analysis;
import dev.wg1bench.history.analysis.ChangePointAnalysis;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import dev.wg1bench.history.gate.RegressionGate;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.stats.EDivisive;
import dev.wg1bench.stats.Stats;
import dev.wg1bench.stats.Verdict;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.hipparchus.distribution.continuous.BetaDistribution;

/**
 * Builds many short comparisons and histories out of the real blocks that GateCalibrationRun
 * recorded, and judges each with the tool's own code: a comparison with {@link Analysis} (the
 * paired t test of the blocks' log tps ratios), Holm over its one claim ({@link Stats#holm}) and
 * {@link Analysis#result}, whose verdict is named as Comparison.verdict() names it, as
 * BlockExperiment does for advise and Wg1bench.compare; a history with {@link
 * RegressionGate#judge}, as history check does, at its defaults (window 50, magnitude 0, min
 * segment 1) and the given --p.
 *
 * <pre>
 * GateCalibration compare RUN.json BLOCKS N SEED [swap]
 * GateCalibration history RUN.json RUNS N P SEED
 * </pre>
 *
 * A comparison of BLOCKS blocks draws ceil(BLOCKS/2) of the recorded pairs of blocks (a pair is
 * blocks 2i-1 and 2i, run in opposite orders, as the tool draws them) without replacement,
 * renumbered 1..BLOCKS; with "swap" each drawn pair's arm names are swapped with probability 1/2.
 * A history of RUNS runs draws RUNS recorded trials (both arms: in an A/A run they are one script)
 * without replacement, in random order ("perm"), or takes RUNS trials in the order they ran from a
 * random start ("chrono", which keeps the drift of a shared machine).
 */
public final class GateCalibration {
  public static void main(String[] args) throws Exception {
    BenchmarkRun run = JsonReport.read(Path.of(args[1]));
    if (args[0].equals("compare")) {
      boolean swap = args.length > 5 && args[5].equals("swap");
      compare(
          run, Integer.parseInt(args[2]), Integer.parseInt(args[3]), Long.parseLong(args[4]), swap);
    } else {
      history(
          run,
          Integer.parseInt(args[2]),
          Integer.parseInt(args[3]),
          Double.parseDouble(args[4]),
          Long.parseLong(args[5]));
    }
  }

  static final Advice ADVICE =
      new Advice("compare", "calibration", "custom", "higher", "tps", "", "b", "t", 0);

  static void compare(BenchmarkRun run, int blocks, int n, long seed, boolean swap) {
    Map<Integer, List<TrialResult>> byBlock = new TreeMap<>();
    for (TrialResult t : run.trials()) {
      byBlock.computeIfAbsent(t.repeat(), k -> new ArrayList<>()).add(t);
    }
    List<List<TrialResult>> pairs = new ArrayList<>();
    for (int b = 1; byBlock.containsKey(b + 1); b += 2) {
      List<TrialResult> pair = new ArrayList<>(byBlock.get(b));
      pair.addAll(byBlock.get(b + 1));
      pairs.add(pair);
    }
    String base = target(run, "baseline");
    String treat = target(run, "treatment");
    Random r = new Random(seed);
    Map<String, Integer> verdicts = new TreeMap<>();
    double[] all = new double[pairs.size() * 2];
    for (int k = 0; k < n; k++) {
      List<List<TrialResult>> shuffled = new ArrayList<>(pairs);
      Collections.shuffle(shuffled, r);
      List<TrialResult> trials = new ArrayList<>();
      for (int p = 0; p < (blocks + 1) / 2; p++) {
        boolean swapped = swap && r.nextBoolean();
        for (TrialResult t0 : shuffled.get(p)) {
          TrialResult t = swapped ? armSwapped(t0) : t0;
          int within = (t.repeat() - 1) % 2; // first or second block of its pair
          int at = 2 * p + 1 + within;
          if (at <= blocks) { // an odd count ends on the first block of a pair, as the tool's does
            trials.add(renumbered(t, at));
          }
        }
      }
      Analysis a = new Analysis(ADVICE, base, treat, trials, null, 0);
      Stats.Holm holm = Stats.holm(List.of(a.estimate), Verdict.ALPHA);
      String v =
          a.measurable()
              ? a.result(holm.adjusted()[0], holm.alphas()[0], 0.05, null).finding().verdict()
              : a.result(null, null, 0.05, null).finding().verdict();
      verdicts.merge(api(v), 1, Integer::sum);
    }
    Analysis whole = new Analysis(ADVICE, base, treat, run.trials(), null, 0);
    System.out.printf(
        Locale.ROOT,
        "pool: %d blocks, ratio %.4f [%.4f, %.4f], block sd of log ratio %.4f%n",
        whole.estimate.n(),
        whole.estimate.ratio(),
        whole.estimate.interval(0.95)[0],
        whole.estimate.interval(0.95)[1],
        whole.estimate.sd());
    for (String v : List.of("FASTER", "SLOWER", "EQUIVALENT", "INCONCLUSIVE", "BROKEN")) {
      int c = verdicts.getOrDefault(v, 0);
      System.out.printf(
          Locale.ROOT,
          "%d blocks%s %-12s %4d / %d  %s%n",
          blocks,
          swap ? " (arms swapped per pair at random)" : "",
          v,
          c,
          n,
          rate(c, n));
    }
  }

  /** The API's name of an advise verdict, as Comparison.verdict() maps it (claim: higher tps). */
  static String api(String v) {
    return switch (v) {
      case "broken" -> "BROKEN";
      case "confirms" -> "FASTER";
      case "contradicts" -> "SLOWER";
      case "equivalent" -> "EQUIVALENT";
      default -> "INCONCLUSIVE";
    };
  }

  static String target(BenchmarkRun run, String arm) {
    return run.trials().stream()
        .filter(t -> arm.equals(t.point().get("arm")))
        .findFirst()
        .orElseThrow()
        .target();
  }

  /**
   * The trial under the other arm's name: in an A/A run the arms are the same code, so which one
   * is called the treatment is arbitrary; swapping the names of a random half of the pairs gives
   * A/A comparisons in which no difference between the recorded arms can show up as an effect.
   */
  static TrialResult armSwapped(TrialResult t) {
    Map<String, String> point = new TreeMap<>(t.point());
    point.put("arm", "baseline".equals(point.get("arm")) ? "treatment" : "baseline");
    return withPosition(t, new TrialResult.Position(point, t.repeat(), t.sequence()));
  }

  static TrialResult renumbered(TrialResult t, int repeat) {
    return withPosition(t, new TrialResult.Position(t.point(), repeat, t.sequence()));
  }

  static TrialResult withPosition(TrialResult t, TrialResult.Position position) {
    return new TrialResult(
        position,
        t.subject(),
        t.server(),
        t.client(),
        t.measurement(),
        t.errors(),
        t.progress(),
        t.serverSamples(),
        t.startedAt(),
        t.finishedAt(),
        t.outages(),
        t.check());
  }

  static void history(BenchmarkRun run, int runs, int n, double p, long seed) {
    List<TrialResult> pool = new ArrayList<>(run.trials());
    pool.sort((x, y) -> Integer.compare(x.sequence(), y.sequence()));
    Random r = new Random(seed);
    ChangePointAnalysis.Settings s =
        new ChangePointAnalysis.Settings(new EDivisive.Settings(50, p, 0, 1), false);
    for (String order : List.of("perm", "chrono")) {
      int[] alarms = new int[3];
      for (int k = 0; k < n; k++) {
        List<TrialResult> h;
        if (order.equals("perm")) {
          List<TrialResult> shuffled = new ArrayList<>(pool);
          Collections.shuffle(shuffled, r);
          h = shuffled.subList(0, runs);
        } else {
          int start = r.nextInt(pool.size() - runs + 1);
          h = pool.subList(start, start + runs);
        }
        String[] metrics = {"tps", "failedOps", "retries"};
        for (int m = 0; m < 3; m++) {
          RegressionGate.Judged j = RegressionGate.judge(series(h, metrics[m]), s, 1);
          alarms[m] += j.outcome() == RegressionGate.Outcome.REGRESSION ? 1 : 0;
        }
      }
      for (int m = 0; m < 3; m++) {
        System.out.printf(
            Locale.ROOT,
            "history %-6s %2d runs p=%s %-9s alarms %4d / %d  %s%n",
            order,
            runs,
            p,
            new String[] {"tps", "failedOps", "retries"}[m],
            alarms[m],
            n,
            rate(alarms[m], n));
      }
    }
  }

  static Series series(List<TrialResult> h, String metric) {
    List<SeriesPoint> pts = new ArrayList<>();
    for (int i = 0; i < h.size(); i++) {
      var m = h.get(i).measurement();
      double attempts = m.ops() + m.totalFailedOps();
      double v =
          switch (metric) {
            case "tps" -> m.tps();
            case "failedOps" -> m.totalFailedOps();
            default -> m.retries();
          };
      pts.add(
          new SeriesPoint(
              Instant.ofEpochSecond(i),
              "r" + i,
              null,
              v,
              Double.NaN,
              Double.NaN,
              metric.equals("tps") ? Double.NaN : attempts));
    }
    return new Series("aa/" + metric, metric, metric.equals("tps"), pts);
  }

  /** The rate with its exact (Clopper-Pearson) 95% interval. */
  static String rate(int k, int n) {
    double lo = k == 0 ? 0 : new BetaDistribution(k, n - k + 1).inverseCumulativeProbability(0.025);
    double hi =
        k == n ? 1 : new BetaDistribution(k + 1, n - k).inverseCumulativeProbability(0.975);
    return String.format(
        Locale.ROOT, "%5.1f%% [%.1f%%, %.1f%%]", 100.0 * k / n, 100 * lo, 100 * hi);
  }
}
