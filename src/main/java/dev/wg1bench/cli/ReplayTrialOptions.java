package dev.wg1bench.cli;

import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.UsageException;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * How each replay trial plays the log, declared once for {@code replay} and for an advise arm that
 * replays a log ({@code --replay LOG} in a claim's options): its pace and the database it starts
 * from.
 */
final class ReplayTrialOptions {
  @Option(
      names = "--speed",
      paramLabel = "N|max",
      description = {
        "1 = the log's timing (default), N = N times faster, max = no waits between statements"
      })
  String speed = "1";

  @Option(
      names = "--fresh",
      paramLabel = "template|template=NAME|dump=FILE",
      arity = "0..1",
      fallbackValue = "template",
      description = {
        "Before each trial DROP the target URL's database and CREATE it again: from a template"
            + " made once from it (template; dropped at the end), from an existing database"
            + " (template=NAME) or from a pg_dump file (dump=FILE, via pg_restore or psql on"
            + " PATH). Nothing else is dropped, and nothing without --fresh."
      })
  String fresh;

  /**
   * The warm-up replay's --warmup asks for ({@code text}, null when not given): the default with
   * --fresh, none without. Declared by replay alone: an advise arm's --warmup is the experiment's.
   */
  static Duration warmup(String text, boolean fresh) {
    if (text == null) {
      return fresh ? DEFAULT_WARMUP : Duration.ZERO;
    }
    Duration d;
    try {
      d = Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--warmup " + e.getMessage());
    }
    if (!d.isZero() && !fresh) {
      throw new UsageException(
          "--warmup "
              + text
              + " needs --fresh: a warm-up plays the log's writes, and only --fresh restores the"
              + " database before the measured trial (or --warmup 0)");
    }
    return d;
  }

  /**
   * Long enough to reach C2 on a replay's paths at a few thousand statements a second. Thirty
   * seconds, not ten: with one C2 thread on a loaded 2-core machine, ten seconds of the unpaced
   * 16-client pgbench log left the replay's hot paths (the socket's writes, pgjdbc's tuple reads)
   * in C1's profiling code, their C2 compiles deferred by the busy compile queue; C2 then compiled
   * them in the trial's first 1.6 s (200-420 ms of its CPU), where the lag formed: lag p99 93-1,558
   * ms, over 250 in 2 of 8 alternating replays; after 30 s, 41-54 ms and 108-177 ms of compiling
   * (bench/results/2026-12-06-replay-jit-quiet.md).
   */
  static final int DEFAULT_WARMUP_SECONDS = 30;

  static final Duration DEFAULT_WARMUP = Duration.ofSeconds(DEFAULT_WARMUP_SECONDS);

  /** --speed as a rate: N, or 0 for max. */
  double rate() {
    if ("max".equalsIgnoreCase(speed.strip())) {
      return 0;
    }
    try {
      double v = Double.parseDouble(speed.strip());
      if (v > 0 && v <= 1_000_000) {
        return v;
      }
    } catch (NumberFormatException e) {
      // falls through to the message below
    }
    throw new UsageException("--speed must be a number > 0 and <= 1000000, or max, got " + speed);
  }

  /** Whether both play the log alike: the same pace from the same database. */
  boolean sameAs(ReplayTrialOptions other) {
    return speed.equals(other.speed) && String.valueOf(fresh).equals(String.valueOf(other.fresh));
  }
}
