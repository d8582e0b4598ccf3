package dev.wg1bench.advise;

import java.util.SplittableRandom;

/**
 * The order of the two arms in each block of a randomized complete block design: every block holds
 * one baseline and one treatment trial, and which runs first is a fair coin drawn independently for
 * every claim, target and block from the run's seed. Drift (growing tables, autovacuum, a
 * neighbour's load) then adds noise to the block differences instead of a bias of one sign.
 */
public final class Blocks {
  private Blocks() {}

  /**
   * Whether the treatment runs first in this block. A pure function of its arguments, so a run is
   * reproducible from its seed and adding blocks later (adaptive runs) leaves earlier ones as
   * drawn.
   */
  public static boolean treatmentFirst(long seed, String claim, String target, int block) {
    long key = claim.hashCode() * 0x9E3779B97F4A7C15L + target.hashCode() * 0xC2B2AE3D27D4EB4FL;
    return new SplittableRandom(seed ^ key ^ (block * 0x165667B19E3779F9L)).nextBoolean();
  }

  /** The block's order as B (baseline) and T (treatment), e.g. "TB". */
  public static String order(long seed, String claim, String target, int block) {
    return treatmentFirst(seed, claim, target, block) ? "TB" : "BT";
  }
}
