package dev.wg1bench.cli;

import dev.wg1bench.plan.Checks;
import dev.wg1bench.plan.WorkloadKnobs;
import picocli.CommandLine.Option;

/**
 * {@code -s/--scale N}: the pgbench scale of the run and of {@code init}, declared once ({@code
 * init ssb} and {@code ssb generate} take SSB's scale factor, {@link SsbScaleOption}).
 */
final class ScaleOption {
  @Option(
      names = {"-s", "--scale"},
      paramLabel = "N",
      description =
          "pgbench scale, 100,000 accounts each; TPC-C's warehouses with --workload tpcc"
              + " (init's default: 1; a run detects it from the tables when not given, the"
              + " embedded server's default: 1).")
  Integer scale;

  /** The scale given, else {@code dflt}; within 1 and {@link WorkloadKnobs#MAX_SCALE}. */
  int orElse(int dflt) {
    int s = scale != null ? scale : dflt;
    Checks.range("--scale", s, 1, WorkloadKnobs.MAX_SCALE);
    return s;
  }
}
