package dev.wg1bench.cli;

import dev.wg1bench.load.ssb.SsbLoader;
import dev.wg1bench.plan.Checks;
import picocli.CommandLine.Option;

/**
 * {@code --threads N} of the SSB commands that make rows ({@code ssb generate}, {@code init ssb}),
 * declared and range-checked once. (The run's {@code --threads platform|virtual} is a knob.)
 */
final class ThreadsOption {
  @Option(
      names = "--threads",
      paramLabel = "N",
      description =
          "Threads making the rows, one connection each when loading (default: the cores; at"
              + " least 2 when loading).")
  Integer threads;

  /** The count given, else {@code dflt}; within 1 and {@link SsbLoader#MAX_THREADS}. */
  int orElse(int dflt) {
    int n = threads != null ? threads : dflt;
    Checks.range("--threads", n, 1, SsbLoader.MAX_THREADS);
    return n;
  }
}
