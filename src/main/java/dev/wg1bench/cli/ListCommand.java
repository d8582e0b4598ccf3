package dev.wg1bench.cli;

import dev.wg1bench.workload.Workload;
import dev.wg1bench.workload.WorkloadRegistry;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code wg1bench list}: the built-in workloads, what each does and which seed section it is. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "List the built-in workloads.")
final class ListCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    // columns as wide as their widest entry, so every description starts in the same place
    int name = "workload".length();
    int seed = "seed".length();
    for (Workload w : WorkloadRegistry.all()) {
      name = Math.max(name, w.name().length());
      seed = Math.max(seed, w.seed().length());
    }
    for (WorkloadRegistry.Listed a : WorkloadRegistry.applications()) {
      name = Math.max(name, a.name().length());
      seed = Math.max(seed, a.seed().length());
    }
    String row = "%-" + name + "s  %-" + seed + "s  %s%n";
    out().printf(row, "workload", "seed", "description");
    for (Workload w : WorkloadRegistry.all()) {
      out().printf(row, w.name(), w.seed(), w.description());
    }
    // the applications written on the Java API (TPC-C), built when a run names them
    for (WorkloadRegistry.Listed a : WorkloadRegistry.applications()) {
      out().printf(row, a.name(), a.seed(), a.description());
    }
    return 0;
  }

  /** Standard output: picocli's, as Main or a test set it. */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }
}
