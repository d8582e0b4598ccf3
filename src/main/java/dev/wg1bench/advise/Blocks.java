package dev.wg1bench.advise;

import dev.wg1bench.stats.Stats;
import dev.wg1bench.stats.Verdict;

/**
 * The order of the two arms in each block of a randomized complete block design: every block holds
 * one baseline and one treatment trial. Blocks come in pairs: which arm runs first in a pair's
 * first block is a fair coin drawn independently for every claim, target and pair from the run's
 * seed, and the pair's second block runs the other order. Drift (growing tables, autovacuum, a
 * neighbour's load) then adds noise to the block differences instead of a bias of one sign; and a
 * bias of the position in a block (the first trial of a block warming what the second then finds
 * warm) cancels within every pair, where independent coins cancelled it only on average: with 5
 * blocks all of one order one claim in 16, whose A/A verdicts it pushed above α.
 */
public final class Blocks {
  private Blocks() {}

  /**
   * Whether the treatment runs first in this block. A pure function of its arguments, so a run is
   * reproducible from its seed and adding blocks later (adaptive runs) leaves earlier ones as
   * drawn.
   */
  public static boolean treatmentFirst(long seed, String claim, String target, int block) {
    boolean first = coin(seed, claim, target, (block + 1) / 2);
    // blocks 1 and 2 are a pair, 3 and 4 the next: the second of a pair runs the other order
    return block % 2 == 1 ? first : !first;
  }

  /** The pair's coin. */
  private static boolean coin(long seed, String claim, String target, int pair) {
    // each component goes through a full 64-bit mix in turn: combining them linearly first left
    // visible patterns (12 alternating blocks in a row) for some seeds
    long h = mix64(seed + 0x9E3779B97F4A7C15L);
    h = mix64(h ^ claim.hashCode());
    h = mix64(h ^ target.hashCode());
    return mix64(h ^ pair) < 0;
  }

  /** SplitMix64's finalizer (Stafford's variant 13): every input bit affects every output bit. */
  private static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The block's order as B (baseline) and T (treatment), e.g. "TB". */
  public static String order(long seed, String claim, String target, int block) {
    return treatmentFirst(seed, claim, target, block) ? "TB" : "BT";
  }

  /**
   * Stein's two-stage sample size: the blocks for which the pilot's t quantile and sd give a 95%
   * half-width of at most {@code precision} (at least the pilot itself).
   */
  public static int totalBlocks(Stats.Estimate pilot, double precision) {
    if (!pilot.hasInterval()) {
      return pilot.n() + 1;
    }
    double k = Stats.tQuantile(0.975, pilot.df()) * pilot.sd() / Math.log1p(precision);
    return (int) Math.min(Verdict.MAX_BLOCKS, Math.max(pilot.n(), Math.ceil(k * k)));
  }

  /**
   * The next batch: what is wanted, at most what the time left affords, and at most as many as done
   * so far, so that the budget is looked at now and then while the second stage runs.
   */
  public static int nextBatch(int wanted, int done, long affordable) {
    return (int) Math.max(0, Math.min(Math.min(wanted, affordable), Math.min(done, 1000 - done)));
  }
}
