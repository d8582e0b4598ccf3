package dev.wg1bench.plan;

import java.time.Duration;

/**
 * How long and how often a trial is measured when nobody says, declared once for every front: the
 * command line's run and a {@link PlanDraft} read {@link #RUN}, {@code advise} and {@code history
 * check}'s re-measurement {@link #BLOCKS}, the Java API {@link #API}; {@code --help}, the reference
 * pages and the API's javadoc show these values (tests hold them to it).
 *
 * @param duration measured time per trial ({@code -T})
 * @param warmup warmup before measuring ({@code --warmup})
 * @param iterations JMH iterations the duration is split into ({@code --iterations})
 * @param forks JMH forks, 0 for this JVM ({@code --forks})
 */
public record TimingDefaults(Duration duration, Duration warmup, int iterations, int forks) {
  /** A run's: 10 s in 5 iterations after 5 s of warmup, in one fork, as JMH would. */
  public static final TimingDefaults RUN =
      new TimingDefaults(Duration.ofSeconds(10), Duration.ofSeconds(5), 5, 1);

  /**
   * A block experiment's trial: shorter than a run's, since a claim runs at least ten of them (five
   * blocks of two arms) and the blocks, not the trial's length, carry the precision.
   */
  public static final TimingDefaults BLOCKS =
      new TimingDefaults(Duration.ofSeconds(5), Duration.ofSeconds(2), 3, 1);

  /**
   * The Java API's: in this JVM (a test's own workload objects cannot reach a fork) and short, as a
   * test that runs on every build wants.
   */
  public static final TimingDefaults API =
      new TimingDefaults(Duration.ofSeconds(5), Duration.ofSeconds(1), 3, 0);

  /** A duration as an option takes it and {@code --help} shows it: 10s, 500ms. */
  public static String text(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }
}
