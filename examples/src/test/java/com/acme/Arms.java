package com.acme;

import dev.wg1bench.api.Comparison;
import dev.wg1bench.api.Wg1bench;
import java.time.Duration;

/**
 * What every example's arms share: two clients, short trials, an embedded PostgreSQL started by
 * the comparison. Short, because a comparison's verdict comes from the blocks' ratios, not from a
 * long trial: a large effect shows in a few blocks of a second each. The warmup is a second: the runs are in
 * this JVM, and the first trial of the first block also warms its JIT.
 *
 * <p>Commits do not wait for the disk ({@code synchronous_commit=off}, in both arms): the examples
 * are about round trips and plans, and an fsync per commit on a shared test machine's disk would
 * add its own noise to both arms.
 */
public final class Arms {
  private Arms() {}

  public static Wg1bench arm(Wg1bench w) {
    return w.clients(2)
        .warmup(Duration.ofSeconds(1))
        .duration(Duration.ofSeconds(1))
        .iterations(1)
        .set("synchronous_commit", "off")
        .againstEmbedded();
  }

  /** Runs the comparison in 5 blocks and prints its table, whatever the verdict. */
  public static Comparison compare(Wg1bench baseline, Wg1bench treatment) {
    return compare(baseline, treatment, Duration.ofSeconds(1));
  }

  /**
   * As {@link #compare(Wg1bench, Wg1bench)}, each trial warmed up for {@code warmup}: for ops so
   * heavy that a second's warmup is a few dozen of them, too few to warm the first block's JIT.
   */
  public static Comparison compare(Wg1bench baseline, Wg1bench treatment, Duration warmup) {
    return compare(baseline, treatment, warmup, 5);
  }

  /** As {@link #compare(Wg1bench, Wg1bench, Duration)}, in {@code blocks} blocks. */
  public static Comparison compare(
      Wg1bench baseline, Wg1bench treatment, Duration warmup, int blocks) {
    Comparison c =
        Wg1bench.compare(arm(baseline).warmup(warmup), arm(treatment).warmup(warmup))
            .blocks(blocks)
            .seed(1)
            .run();
    System.out.println(c.table());
    return c;
  }
}
