package dev.wg1bench.advise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.stats.Stats;
import dev.wg1bench.stats.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Calibrates advise's statistics by simulation: thousands of experiments on a server that drifts (a
 * linear trend over time, noise, and now and then a lasting step), analysed by the same code the
 * command uses. A/A experiments must be called significant about 5% of the time; the old design
 * (one shared permutation: all treatment trials, then all baseline ones) is fooled by the drift; a
 * +10% effect must be found as often as the analytic power says.
 */
class AaSimulationTest {
  static final int EXPERIMENTS = 20_000;
  static final int BLOCKS = 5;

  /** Trend per trial (log tps), per-trial noise sd, chance of a step before a trial, step sd. */
  static final double TREND = 0.01;

  static final double NOISE = 0.04;
  static final double STEP_CHANCE = 0.05;
  static final double STEP = 0.08;

  /** A server's log tps over successive trials: trend, noise and lasting steps of random sign. */
  static final class DriftingServer {
    final SplittableRandom rnd;
    double level;
    int trial;

    DriftingServer(SplittableRandom rnd) {
      this.rnd = rnd;
      this.level = rnd.nextGaussian();
    }

    double next(double effect) {
      if (trial > 0 && rnd.nextDouble() < STEP_CHANCE) {
        level += (rnd.nextBoolean() ? 1 : -1) * STEP;
      }
      double y = level + TREND * trial + NOISE * rnd.nextGaussian() + effect;
      trial++;
      return y;
    }
  }

  /** One randomized-complete-block experiment: the block log ratios, in the command's order. */
  static Stats.Estimate blocked(long seed, int experiment, double effect) {
    DriftingServer s = new DriftingServer(new SplittableRandom(seed * 1_000_003L + experiment));
    double[] d = new double[BLOCKS];
    for (int b = 1; b <= BLOCKS; b++) {
      boolean tFirst = Blocks.treatmentFirst(seed, "claim-" + experiment, "sim", b);
      double first = s.next(tFirst ? effect : 0);
      double second = s.next(tFirst ? 0 : effect);
      d[b - 1] = tFirst ? first - second : second - first;
    }
    return Stats.paired(d);
  }

  /** The old design: every claim used the same permutation, here TTTTT BBBBB, and Welch. */
  static Stats.Estimate sharedPermutation(long seed, int experiment, double effect) {
    DriftingServer s = new DriftingServer(new SplittableRandom(seed * 1_000_003L + experiment));
    double[] t = new double[BLOCKS];
    double[] b = new double[BLOCKS];
    for (int i = 0; i < BLOCKS; i++) {
      t[i] = s.next(effect);
    }
    for (int i = 0; i < BLOCKS; i++) {
      b[i] = s.next(0);
    }
    return Stats.welch(b, t);
  }

  /** sd of a block's log ratio under the model: trend ± one step, two noises, a step inside. */
  static double blockSd() {
    return Math.sqrt(TREND * TREND + 2 * NOISE * NOISE + STEP_CHANCE * STEP * STEP);
  }

  static double significant(java.util.function.IntFunction<Stats.Estimate> experiment) {
    int hits = 0;
    for (int i = 0; i < EXPERIMENTS; i++) {
      Stats.Estimate e = experiment.apply(i);
      hits += e.p() <= Verdict.ALPHA ? 1 : 0;
    }
    return (double) hits / EXPERIMENTS;
  }

  @Test
  void aaFalsePositiveRateIsNominalUnderDrift() {
    double fp = significant(i -> blocked(42, i, 0));
    System.out.printf(Locale.ROOT, "A/A false-positive rate, blocks: %.4f%n", fp);
    assertTrue(fp >= 0.03 && fp <= 0.07, "false-positive rate " + fp);
  }

  /**
   * A/A with a bias of the position in a block on top of the drift: the first trial of every block
   * 15% slower (it warms what the second finds warm). Pairs of opposite orders cancel it; with
   * independent coins a run of one order (1 in 16 with 5 blocks) read it as an effect, and the
   * false-positive rate rose above α.
   */
  @Test
  void aaFalsePositiveRateStaysNominalWhenTheFirstTrialOfABlockIsSlower() {
    double bias = Math.log(1.15);
    double fp =
        significant(
            i -> {
              DriftingServer s = new DriftingServer(new SplittableRandom(99 * 1_000_003L + i));
              double[] d = new double[BLOCKS];
              for (int b = 1; b <= BLOCKS; b++) {
                boolean tFirst = Blocks.treatmentFirst(99, "claim-" + i, "sim", b);
                double first = s.next(0) - bias;
                double second = s.next(0);
                d[b - 1] = tFirst ? first - second : second - first;
              }
              return Stats.paired(d);
            });
    System.out.printf(Locale.ROOT, "A/A false-positive rate, first trial 15%% slower: %.4f%n", fp);
    assertTrue(fp <= 0.06, "false-positive rate " + fp);
  }

  /** Regression: the design advise used to have reads drift as an effect. */
  @Test
  void oneSharedPermutationIsFooledByDrift() {
    double fp = significant(i -> sharedPermutation(42, i, 0));
    System.out.printf(Locale.ROOT, "A/A false-positive rate, shared permutation: %.4f%n", fp);
    assertTrue(fp > 0.07, "the old design should fail calibration, got " + fp);
  }

  @Test
  void aTenPercentEffectIsFoundWithTheClaimedPower() {
    double delta = Math.log(1.10);
    double claimed = Stats.power(BLOCKS, delta, blockSd(), Verdict.ALPHA);
    int hits = 0;
    for (int i = 0; i < EXPERIMENTS; i++) {
      Stats.Estimate e = blocked(7, i, delta);
      // detected = the verdict a claim of "higher" would get
      hits += Verdict.kindOf(e, e.p(), "higher", 0.05) == Verdict.Kind.CONFIRMS ? 1 : 0;
    }
    double power = (double) hits / EXPERIMENTS;
    System.out.printf(
        Locale.ROOT,
        "+10%% effect, %d blocks, block sd %.4f: power %.4f simulated, %.4f claimed%n",
        BLOCKS,
        blockSd(),
        power,
        claimed);
    assertTrue(claimed > 0.5 && claimed < 0.95, "a power that can be missed: " + claimed);
    assertEquals(claimed, power, 0.03);
  }

  /** Block log ratios of one A/A or A/B experiment, appended block after block. */
  static final class Experiment {
    final long seed;
    final int index;
    final double effect;
    final DriftingServer server;
    final List<Double> d = new ArrayList<>();

    Experiment(long seed, int index, double effect) {
      this.seed = seed;
      this.index = index;
      this.effect = effect;
      this.server = new DriftingServer(new SplittableRandom(seed * 1_000_003L + index));
    }

    double[] add(int blocks) {
      for (int i = 0; i < blocks; i++) {
        int b = d.size() + 1;
        boolean tFirst = Blocks.treatmentFirst(seed, "claim-" + index, "sim", b);
        double first = server.next(tFirst ? effect : 0);
        double second = server.next(tFirst ? 0 : effect);
        d.add(tFirst ? first - second : second - first);
      }
      return d.stream().mapToDouble(Double::doubleValue).toArray();
    }
  }

  static final int PILOT = 5;
  static final double PRECISION = 0.05;
  static final int BUDGET_BLOCKS = 40;

  /**
   * The --precision design with the command's own rules: a pilot of 5 blocks fixes the total
   * (Stein's two stages), which the budget may cut; the interval uses the pilot's degrees of
   * freedom.
   */
  static Stats.Estimate twoStage(long seed, int experiment, double effect, int[] blocksUsed) {
    Experiment x = new Experiment(seed, experiment, effect);
    double[] d = x.add(PILOT);
    int total = Blocks.totalBlocks(Stats.paired(d), PRECISION);
    int next = Blocks.nextBatch(total - PILOT, PILOT, BUDGET_BLOCKS - PILOT);
    while (next > 0) {
      d = x.add(next);
      next = Blocks.nextBatch(total - d.length, d.length, BUDGET_BLOCKS - d.length);
    }
    blocksUsed[0] += d.length;
    return Stats.twoStage(d, PILOT);
  }

  @Test
  void precisionDesignKeepsTheFalsePositiveRate() {
    int[] blocks = {0};
    double fp = significant(i -> twoStage(5, i, 0, blocks));
    System.out.printf(
        Locale.ROOT,
        "A/A false-positive rate, --precision 5%% (two stages, pilot %d): %.4f, %.1f blocks on"
            + " average%n",
        PILOT,
        fp,
        (double) blocks[0] / EXPERIMENTS);
    assertTrue(fp >= 0.03 && fp <= 0.07, "false-positive rate " + fp);
    assertTrue(blocks[0] > PILOT * EXPERIMENTS, "blocks were added");
  }

  /**
   * Regression: looking at the interval's width after every batch and stopping once it is narrow
   * enough (what a naive --precision does) stops when the sd happens to be small, and is fooled.
   */
  @Test
  void stoppingOnTheObservedWidthInflatesFalsePositives() {
    double fp =
        significant(
            i -> {
              Experiment x = new Experiment(5, i, 0);
              double[] d = x.add(3);
              while (d.length < BUDGET_BLOCKS) {
                Stats.Estimate e = Stats.paired(d);
                if (Math.expm1(e.halfWidth(0.95)) <= PRECISION) {
                  break;
                }
                int n = Stats.blocksForHalfWidth(Math.log1p(PRECISION), e.sd(), 0.95, 1000);
                d = x.add((int) Math.min(Math.max(1, n - d.length), BUDGET_BLOCKS - d.length));
              }
              return Stats.paired(d);
            });
    System.out.printf(Locale.ROOT, "A/A false-positive rate, stop on observed width: %.4f%n", fp);
    assertTrue(fp > 0.07, "expected the naive rule to fail calibration, got " + fp);
  }

  @Test
  void aaVerdictsAreRarelyConfirmsOrContradicts() {
    int decided = 0;
    for (int i = 0; i < 2000; i++) {
      Stats.Estimate e = blocked(3, i, 0);
      Verdict.Kind k = Verdict.kindOf(e, e.p(), "higher", 0.05);
      decided += k == Verdict.Kind.CONFIRMS || k == Verdict.Kind.CONTRADICTS ? 1 : 0;
    }
    assertTrue(decided < 2000 * 0.07, decided + " of 2000 A/A verdicts decided");
  }

  /**
   * The simulations count kinds through {@link Verdict#kindOf}, which skips an inconclusive
   * verdict's power calculations: it must be the kind the whole verdict has, for every kind.
   */
  @Test
  void theKindAloneIsTheWholeVerdictsKind() {
    java.util.Set<Verdict.Kind> seen = java.util.EnumSet.noneOf(Verdict.Kind.class);
    for (double effect : new double[] {0, Math.log(1.02), Math.log(1.10), -Math.log(1.10)}) {
      for (int i = 0; i < 150; i++) {
        Stats.Estimate e = blocked(11, i, effect);
        Verdict.Kind kind = Verdict.of(e, e.p(), "higher", 0.05).kind();
        assertEquals(kind, Verdict.kindOf(e, e.p(), "higher", 0.05), "experiment " + i);
        seen.add(kind);
      }
    }
    // five quiet blocks within 1%, and a single block (no interval)
    for (double[] d : new double[][] {{0.004, -0.003, 0.001, 0.002, -0.001}, {0.03}}) {
      Stats.Estimate e = Stats.paired(d);
      double p = e.hasInterval() ? e.p() : 1; // one block has no test either
      Verdict.Kind kind = Verdict.of(e, p, "higher", 0.05).kind();
      assertEquals(kind, Verdict.kindOf(e, p, "higher", 0.05), java.util.Arrays.toString(d));
      seen.add(kind);
    }
    assertEquals(
        java.util.Set.of(
            Verdict.Kind.CONFIRMS,
            Verdict.Kind.CONTRADICTS,
            Verdict.Kind.EQUIVALENT,
            Verdict.Kind.INCONCLUSIVE),
        seen,
        "every kind met");
  }
}
