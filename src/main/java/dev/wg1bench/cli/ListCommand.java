package dev.wg1bench.cli;

import dev.wg1bench.workload.Workload;
import dev.wg1bench.workload.WorkloadRegistry;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code wg1bench list}: the built-in workloads, what each does and which seed section it is. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "List the built-in workloads.")
final class ListCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    System.out.printf("%-18s %-26s %s%n", "workload", "seed", "description");
    for (Workload w : WorkloadRegistry.all()) {
      System.out.printf("%-18s %-26s %s%n", w.name(), w.seed(), w.description());
    }
    return 0;
  }
}
