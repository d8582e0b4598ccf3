package dev.wg1bench.cli;

import dev.wg1bench.load.ssb.SsbLoader;
import dev.wg1bench.ssb.SsbSuite;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code wg1bench init ssb}: the Star Schema Benchmark tables, generated straight into COPY. */
@Command(
    name = "ssb",
    mixinStandardHelpOptions = true,
    description = {
      "Create and load the Star Schema Benchmark tables (2020 §6).",
      "Generated straight into COPY over several connections, then primary keys and VACUUM ANALYZE. Refuses to replace tables that hold rows unless --force; never touches other tables."
    })
final class InitSsbCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin TargetOptions targets;

  @Mixin SsbScaleOption sf;

  @Option(
      names = "--indexes",
      description = "Btree indexes on lineorder's foreign keys (2020 §6.3).")
  boolean indexes;

  @Option(
      names = "--partitioned",
      description = "lineorder and date range-partitioned by month, 84 partitions (2020 §6.5).")
  boolean partitioned;

  @Option(
      names = "--force",
      description = "Drop and re-create the SSB tables even if they hold rows.")
  boolean force;

  @Mixin ThreadsOption threads;

  @Override
  public Integer call() {
    SsbLoader.checkScale(sf.scale);
    int n = threads.orElse(SsbLoader.defaultThreads());
    var list = targets.required("init ssb needs --target URL (an external server to load)");
    new SsbSuite(Console.out(spec))
        .init(list, new SsbLoader.Options(sf.scale, indexes, partitioned, force, n));
    return 0;
  }
}
