package dev.wg1bench.cli;

import dev.wg1bench.experiment.BrinExperiment;
import dev.wg1bench.experiment.ExperimentOptions;
import dev.wg1bench.experiment.LogTableExperiment;
import dev.wg1bench.experiment.ParallelVacuumExperiment;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code wg1bench experiment brin | logtable | vacuum}: the 2015 report's other experiments (BRIN
 * vs btree, partitioned vs single log table, parallel VACUUM). Builds the options and calls the
 * experiment class, nothing else.
 */
@Command(
    name = "experiment",
    mixinStandardHelpOptions = true,
    subcommands = {
      ExperimentCommand.Brin.class,
      ExperimentCommand.LogTable.class,
      ExperimentCommand.Vacuum.class
    },
    description = {
      "Run the 2015 report's other experiments: brin, logtable, vacuum.",
      "On a real server, repeated, with JSON and PNG plots: brin (§5.1), logtable (§5.2), vacuum (§4). Each creates its own exp_* tables, refuses to drop ones holding rows unless --force, and drops them at the end unless --keep."
    })
final class ExperimentCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "experiment needs a subcommand: brin, logtable or vacuum");
  }

  /** Options every experiment takes. */
  static final class Common {
    @Mixin TargetOptions targets;

    @Option(
        names = "--rows",
        paramLabel = "N",
        description = "Rows per table (default: the experiment's, see its --help).")
    Long rows;

    @Mixin RepeatOption repeat;

    @Mixin OutputOption output;

    @Option(
        names = "--plots",
        paramLabel = "DIR",
        description = "Directory for the PNG plots (default: the JSON's name without .json).")
    Path plots;

    @Option(names = "--no-plots", description = "Write no plots.")
    boolean noPlots;

    @Option(names = "--keep", description = "Leave the experiment's tables in place at the end.")
    boolean keep;

    @Mixin SessionSettingOptions session;

    ExperimentOptions options(String name, long defaultRows, List<Integer> jobs, int tables) {
      List<TargetSpec> list = targets.resolve(false);
      if (list.size() > 1) {
        throw new UsageException(
            "experiment " + name + " needs exactly one --target URL, got " + list.size());
      }
      Path out = output.orStamped("experiment-" + name);
      Path dir = null;
      if (!noPlots) {
        String base = out.getFileName().toString().replaceFirst("\\.json$", "");
        dir = plots != null ? plots : out.toAbsolutePath().resolveSibling(base);
      }
      return new ExperimentOptions(
          list.isEmpty() ? null : list.get(0),
          rows != null ? rows : defaultRows,
          repeat.orElse(3),
          jobs,
          tables,
          out,
          dir,
          output.force,
          keep,
          session.checked());
    }
  }

  @Command(
      name = "brin",
      mixinStandardHelpOptions = true,
      description = {
        "BRIN against btree indexes (2015 §5.1).",
        "BRIN vs btree (2015 §5.1): t_mono (sorted) and t_random (shuffled) of N rows (id, md5(id)); indexes none, btree, BRIN pages_per_range 1/128/12800: build time, size, point lookup id = N/2 and range lookup id BETWEEN N/3 AND 2N/3. Default --rows 2000000."
      })
  static final class Brin implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin Common common;

    @Override
    public Integer call() {
      new BrinExperiment(Console.out(spec))
          .run(common.options("brin", BrinExperiment.DEFAULT_ROWS, List.of(1), 1));
      return 0;
    }
  }

  @Command(
      name = "logtable",
      mixinStandardHelpOptions = true,
      description = {
        "A month-long log table, partitioned or not (2015 §5.2).",
        "Log table (2015 §5.2): the seed's access_log, one month (31 daily partitions, declarative) vs a single table with btree / BRIN on (date, time) / no index; COPY load time and the seed's day and month aggregates, on sorted and shuffled data. Default --rows 1000000."
      })
  static final class LogTable implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin Common common;

    @Override
    public Integer call() {
      new LogTableExperiment(Console.out(spec))
          .run(common.options("logtable", LogTableExperiment.DEFAULT_ROWS, List.of(1), 1));
      return 0;
    }
  }

  @Command(
      name = "vacuum",
      mixinStandardHelpOptions = true,
      description = {
        "Parallel VACUUM of several tables (2015 §4).",
        "Parallel VACUUM (2015 §4): K tables like pgbench_accounts (fillfactor 80) dirtied by updates, then VACUUM (FREEZE, ANALYZE) across them on J connections, as vacuumdb --jobs J; elapsed time and speed-up over J=1. Default --rows 500000 per table."
      })
  static final class Vacuum implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin Common common;

    @Option(
        names = "--jobs",
        split = ",",
        paramLabel = "J",
        description = "Parallel jobs to sweep, comma list (default: 1,2,4).")
    List<Integer> jobs;

    @Option(
        names = "--tables",
        paramLabel = "K",
        description = "Tables of equal size (default: ${DEFAULT-VALUE}).")
    int tables = ParallelVacuumExperiment.DEFAULT_TABLES;

    @Override
    public Integer call() {
      new ParallelVacuumExperiment(Console.out(spec))
          .run(
              common.options(
                  "vacuum",
                  ParallelVacuumExperiment.DEFAULT_ROWS,
                  jobs == null ? ParallelVacuumExperiment.DEFAULT_JOBS : jobs,
                  tables));
      return 0;
    }
  }
}
