package dev.wg1bench.cli;

import dev.wg1bench.load.ssb.SsbFiles;
import dev.wg1bench.load.ssb.SsbLoader;
import dev.wg1bench.load.ssb.SsbTable;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.ssb.SsbSuite;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code wg1bench ssb generate | verify | queries}: the Star Schema Benchmark tools. */
@Command(
    name = "ssb",
    mixinStandardHelpOptions = true,
    subcommands = {SsbCommand.Generate.class, SsbCommand.Verify.class, SsbCommand.Queries.class},
    description = {
      "Star Schema Benchmark (2020 §6): generate files, verify results, time queries.",
      "Load the tables with: wg1bench init ssb --scale SF --target URL"
    })
final class SsbCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "ssb needs a subcommand: generate, verify or queries");
  }

  /** One external target, as the SSB commands need. */
  static TargetSpec oneTarget(TargetOptions targets, String command) {
    List<TargetSpec> list = targets.resolve(false);
    if (list.size() != 1) {
      throw new UsageException(command + " needs exactly one --target URL, got " + list.size());
    }
    return list.get(0);
  }

  @Command(
      name = "generate",
      mixinStandardHelpOptions = true,
      description = {
        "Write the five dbgen .tbl files into a directory.",
        "Write the five dbgen .tbl files (byte-identical to eyalroz/ssb-dbgen with --dbgen-truncated-date) into a directory."
      })
  static final class Generate implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin SsbScaleOption sf;

    @Option(
        names = {"-o", "--output"},
        paramLabel = "DIR",
        required = true,
        description =
            "Directory for part.tbl, supplier.tbl, customer.tbl, date.tbl, lineorder.tbl.")
    Path output;

    @Mixin ThreadsOption threads;

    @Option(
        names = "--dbgen-truncated-date",
        description =
            "Truncate the date table at fractional SF as dbgen does (for byte comparison).")
    boolean truncatedDate;

    @Override
    public Integer call() {
      SsbLoader.checkScale(sf.scale);
      int n = threads.orElse(Runtime.getRuntime().availableProcessors());
      long t0 = System.nanoTime();
      Map<SsbTable, Path> files;
      try {
        files = SsbFiles.generate(sf.scale, output, n, truncatedDate);
      } catch (IOException e) {
        throw new RunFailure("ssb generate: cannot write " + output + ": " + e.getMessage(), e);
      }
      spec.commandLine()
          .getOut()
          .printf(
              Locale.ROOT,
              "ssb generate: SF %s, %d threads, %.2f s -> %s%n",
              SsbLoader.scaleKey(sf.scale),
              n,
              (System.nanoTime() - t0) / 1e9,
              files.values());
      return 0;
    }
  }

  @Command(
      name = "verify",
      mixinStandardHelpOptions = true,
      description = {
        "Check the 13 SSB queries' results against the reference.",
        "Run the 13 SSB queries and compare each result's digest with the reference shipped for the loaded scale factor. Exit 0 if all match, 1 otherwise."
      })
  static final class Verify implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin TargetOptions targets;
    @Mixin SessionSettingOptions session;

    @Override
    public Integer call() {
      TargetSpec t = oneTarget(targets, "ssb verify");
      return new SsbSuite(Console.out(spec)).verify(t, session.checked()).allSame() ? 0 : 1;
    }
  }

  @Command(
      name = "queries",
      mixinStandardHelpOptions = true,
      description = {
        "Time each of the 13 SSB queries on one connection.",
        "Time each of the 13 SSB queries on one connection: one warm run, then --repeat timed runs; prints median, min, max and rows, and writes a JSON result."
      })
  static final class Queries implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin TargetOptions targets;
    @Mixin SessionSettingOptions session;

    @Mixin RepeatOption repeat;

    @Mixin OutputOption output;

    @Override
    public Integer call() {
      int n = repeat.orElse(3);
      TargetSpec t = oneTarget(targets, "ssb queries");
      new SsbSuite(Console.out(spec))
          .queries(t, n, session.checked(), output.orStamped("ssb-queries"));
      return 0;
    }
  }
}
