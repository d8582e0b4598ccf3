package dev.wg1bench.cli;

import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.server.Targets;
import java.util.List;
import picocli.CommandLine;

/** The plan the command line makes of its arguments, for tests outside the cli package. */
public final class CliPlans {
  private CliPlans() {}

  /** The first point's plan of {@code wg1bench ARGS} on the embedded default target. */
  public static RunPlan plan(String... args) {
    Main main = new Main();
    new CommandLine(main).parseArgs(args);
    return PlanFactory.build(main.run, List.of(Targets.defaultTarget())).points().get(0).plan();
  }
}
