package dev.wg1bench.cli;

import dev.wg1bench.plan.BlockDefaults;
import dev.wg1bench.plan.Checks;
import picocli.CommandLine.Option;

/**
 * {@code --margin M%}: the equivalence margin of {@code diff} and {@code advise}, declared once.
 */
final class MarginOption {
  @Option(
      names = "--margin",
      paramLabel = "M%",
      description =
          "Equivalence margin: equivalent when the 95%% interval of the ratio lies in [1/(1+M),"
              + " 1+M] (default: ${DEFAULT-VALUE}).")
  String margin = BlockDefaults.percent(BlockDefaults.ADVISE.margin());

  /** The margin as a fraction (5% = 0.05), between 0.1% and 100%. */
  double fraction() {
    return Checks.percent("--margin", margin, 0.1, 100);
  }
}
