package dev.wg1bench.report;

import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.Timing;
import java.time.Duration;
import java.util.Locale;

/** The wall time a run will take, said on the console before its first trial starts. */
public final class WallTime {
  private WallTime() {}

  /**
   * What a trial will take on the wall clock, said before it starts: each fork is a fresh JVM that
   * starts, connects its clients and warms up before the measured time.
   */
  public static String expected(Timing t, int trials) {
    if (t.countsOps()) {
      return String.format(
          Locale.ROOT,
          "expected wall time: %s%s JVM start and setup, then as long as %d ops per client take"
              + " (-t)",
          trials > 1 ? trials + " trials x " : "",
          t.forks() == 0 ? "no" : "~" + Durations.format(Duration.ofSeconds((long) FORK_START_S)),
          t.transactions());
    }
    long forks = Math.max(1, t.forks());
    double perFork = t.warmup().toMillis() / 1000.0 + t.duration().toMillis() / 1000.0;
    double jvm = t.forks() == 0 ? 0 : FORK_START_S;
    double total = trials * forks * (jvm + perFork);
    String each =
        (t.forks() == 0 ? "in this JVM: " : forks + " fork" + (forks == 1 ? "" : "s") + " x (~")
            + (t.forks() == 0
                ? ""
                : Durations.format(Duration.ofMillis((long) (jvm * 1000)))
                    + " JVM start and setup + ")
            + Durations.format(t.warmup())
            + " warmup + "
            + Durations.format(t.duration())
            + " measured"
            + (t.forks() == 0 ? "" : ")");
    return String.format(
        Locale.ROOT,
        "expected wall time: about %s (%s%s)",
        Durations.format(Duration.ofMillis(Math.round(total * 1000))),
        trials > 1 ? trials + " trials x " : "",
        each);
  }

  /**
   * A trial's own cost beyond warmup and measurement (CHECKPOINT, the fork's JVM start, JMH setup,
   * connecting, the report): about 4 s measured on a 2-core machine (20.2 s for -T 10s, 5 s
   * warmup).
   */
  private static final double FORK_START_S = 4.0;
}
