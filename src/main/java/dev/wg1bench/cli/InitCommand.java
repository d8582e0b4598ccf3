package dev.wg1bench.cli;

import dev.wg1bench.run.PgbenchInit;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code wg1bench init}: the pgbench tables, as {@code pgbench -i -s SCALE -F FILLFACTOR}; {@code
 * wg1bench init ssb} loads the SSB tables instead.
 */
@Command(
    name = "init",
    mixinStandardHelpOptions = true,
    subcommands = {InitSsbCommand.class},
    description = {
      "Create and load the pgbench tables as pgbench -i does.",
      "Loads them with COPY (init ssb: the Star Schema Benchmark tables instead). Needs --target: the embedded server loads its own tables on every run. Refuses to replace tables that hold rows unless --force; never touches other tables."
    })
final class InitCommand implements Callable<Integer> {
  @Mixin TargetOptions targets;

  @Mixin ScaleOption scale;

  @Option(
      names = {"-F", "--fillfactor"},
      paramLabel = "PCT",
      description = "Fillfactor of the tables, 10-100 (default: ${DEFAULT-VALUE}).")
  int fillfactor = 100;

  @Option(
      names = "--force",
      description = "Drop and re-create the pgbench tables even if they hold rows.")
  boolean force;

  @Override
  public Integer call() {
    var list =
        targets.required(
            "init needs --target URL (the embedded server initializes itself on every run)");
    new PgbenchInit(System.out).load(list, scale.orElse(1), fillfactor, force);
    return 0;
  }
}
