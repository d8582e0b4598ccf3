package dev.wg1bench.cli;

import dev.wg1bench.plan.Checks;
import dev.wg1bench.plan.Matrix;
import picocli.CommandLine.Option;

/**
 * {@code --repeat N}: how many times each measurement is taken, declared and range-checked once for
 * the run, {@code experiment} and {@code ssb queries} ({@code advise} counts blocks, with its own
 * --blocks).
 */
final class RepeatOption {
  @Option(
      names = "--repeat",
      paramLabel = "N",
      description =
          "Times each measurement is taken, median and spread reported: trials per point, timed"
              + " runs per query or per measurement (default: 3; a run's: 3 when a knob is swept,"
              + " else 1).")
  Integer repeat;

  /** The count given, else {@code dflt}; within 1 and {@link Matrix#MAX_REPEAT}. */
  int orElse(int dflt) {
    int n = repeat != null ? repeat : dflt;
    Checks.range("--repeat", n, 1, Matrix.MAX_REPEAT);
    return n;
  }
}
