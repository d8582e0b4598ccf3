package dev.wg1bench.cli;

import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.run.BlockExperiment;
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

  /** {@code wg1bench COMMAND --help}. */
  public static String usage(String command) {
    return Main.commandLine().getSubcommands().get(command).getUsageMessage();
  }

  /** The blocks' design of {@code wg1bench advise ARGS}, as the command would run it. */
  public static BlockExperiment.Design adviseDesign(String... args) {
    CommandLine cl = Main.commandLine("advise");
    String[] all = new String[args.length + 1];
    all[0] = "advise";
    System.arraycopy(args, 0, all, 1, args.length);
    AdviseCommand advise =
        (AdviseCommand) cl.parseArgs(all).subcommand().commandSpec().userObject();
    return advise.design();
  }
}
