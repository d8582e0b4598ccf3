package dev.wg1bench.cli;

import picocli.CommandLine.Option;

/** --scale of the SSB commands that generate rows: one option for writing files and loading. */
final class SsbScaleOption {
  @Option(
      names = {"-s", "--scale"},
      paramLabel = "SF",
      description = "SSB scale factor: a fraction below 1 or a whole number (default: 1).")
  double scale = 1;
}
