package dev.wg1bench.cli;

import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.run.PgbenchInit;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.FactoryDataSource;
import dev.wg1bench.server.Target;
import dev.wg1bench.server.Targets;
import dev.wg1bench.tpcc.TpccLoader;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code wg1bench init}: the pgbench tables, as {@code pgbench -i -s SCALE -F FILLFACTOR}; {@code
 * wg1bench init ssb} loads the SSB tables instead, {@code --workload tpcc} TPC-C's nine tables.
 */
@Command(
    name = "init",
    mixinStandardHelpOptions = true,
    subcommands = {InitSsbCommand.class},
    description = {
      "Create and load the pgbench tables as pgbench -i does.",
      "Loads them with COPY (init ssb: the Star Schema Benchmark tables instead; --workload tpcc: TPC-C's nine tables, --scale warehouses). Needs --target: the embedded server loads its own tables on every run. Refuses to replace tables that hold rows unless --force; never touches other tables."
    })
final class InitCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin TargetOptions targets;

  @Mixin ScaleOption scale;

  @Option(
      names = {"-F", "--fillfactor"},
      paramLabel = "PCT",
      description = "Fillfactor of the tables, 10-100 (default: ${DEFAULT-VALUE}).")
  int fillfactor = 100;

  @Option(
      names = "--force",
      description = "Drop and re-create the workload's tables even if they hold rows.")
  boolean force;

  @Option(
      names = "--workload",
      paramLabel = "NAME",
      description =
          "Whose tables: pgbench (default) or tpcc (TPC-C's nine tables, --scale warehouses).")
  String workload = "pgbench";

  @Mixin ThreadsOption threads;

  @Override
  public Integer call() {
    var list =
        targets.required(
            "init needs --target URL (the embedded server initializes itself on every run)");
    switch (workload) {
      case "pgbench" -> {
        if (threads.threads != null) {
          throw new UsageException("--threads is for init --workload tpcc");
        }
        new PgbenchInit(Console.out(spec)).load(list, scale.orElse(1), fillfactor, force);
      }
      case "tpcc" -> tpcc(list, scale.orElse(1));
      default ->
          throw new UsageException(
              "--workload '"
                  + workload
                  + "' has no tables of its own to load; valid: pgbench, tpcc");
    }
    return 0;
  }

  /** TPC-C's tables on each target, the warehouses on a few connections at once. */
  private void tpcc(List<TargetSpec> list, int warehouses) {
    int jobs = threads.orElse(TpccLoader.defaultThreads(warehouses));
    for (TargetSpec spec : list) {
      Target t = Targets.of(spec);
      if (t.fresh()) {
        throw new UsageException(
            "init --target embedded: the embedded server is created fresh for every run; give"
                + " init an external --target URL");
      }
      ConnectionFactory cf = t.admin();
      out().printf("target %s: TPC-C, %d warehouse(s)%n", spec.name(), warehouses);
      try {
        new TpccLoader(new FactoryDataSource(cf), Console.out(this.spec))
            .load(warehouses, force, jobs, System.nanoTime());
      } catch (TpccLoader.Refused e) {
        throw new UsageException(e.getMessage());
      } catch (SQLException e) {
        throw cf.failure("init --workload tpcc", e);
      }
    }
  }

  /** Standard output: picocli's, as Main or a test set it. */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }
}
