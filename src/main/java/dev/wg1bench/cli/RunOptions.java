package dev.wg1bench.cli;

import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.QueryMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The workload and its knobs; pgbench's short options where pgbench has one. */
public final class RunOptions {
  @Option(
      names = {"-w", "--workload"},
      paramLabel = "NAME",
      description = "Built-in workload (see 'wg1bench list').")
  String workload;

  @Option(
      names = {"-f", "--script"},
      paramLabel = "FILE[@WEIGHT]",
      description = "pgbench-style script, repeatable: a weighted mix as pgbench -f.")
  List<String> scripts = new ArrayList<>();

  @Option(
      names = {"-c", "--clients"},
      paramLabel = "N",
      description = "Concurrent clients, one connection each (default: ${DEFAULT-VALUE}).")
  int clients = 4;

  @Option(
      names = {"-T", "--duration"},
      paramLabel = "TIME",
      converter = Converters.DurationConverter.class,
      description = "Measured time, e.g. 10s, 2m (default: 10s).")
  Duration duration = Duration.ofSeconds(10);

  @Option(
      names = "--warmup",
      paramLabel = "TIME",
      converter = Converters.DurationConverter.class,
      description = "Warmup before measuring, 0 for none (default: 5s).")
  Duration warmup = Duration.ofSeconds(5);

  @Option(
      names = "--iterations",
      paramLabel = "N",
      description =
          "JMH measurement iterations the duration is split into (default: ${DEFAULT-VALUE}).")
  int iterations = 5;

  @Option(
      names = "--forks",
      paramLabel = "N",
      description =
          "JMH forks: fresh JVMs measured in turn; 0 = in this JVM (default: ${DEFAULT-VALUE}).")
  int forks = 1;

  @Option(
      names = "--isolation",
      paramLabel = "LEVEL",
      converter = Converters.IsolationConverter.class,
      description =
          "read_committed, repeatable_read or serializable (default: the workload's, else the server's).")
  Isolation isolation;

  @Option(
      names = {"-M", "--query-mode"},
      paramLabel = "MODE",
      converter = Converters.QueryModeConverter.class,
      description = {
        "simple, extended or prepared, as pgbench -M (default: simple).",
        "simple = preferQueryMode=simple; extended = preferQueryMode=extended, prepareThreshold=0;",
        "prepared = preferQueryMode=extended, prepareThreshold=1."
      })
  QueryMode queryMode = QueryMode.SIMPLE;

  @Option(
      names = "--set",
      paramLabel = "NAME=VALUE",
      description =
          "Session setting on every connection, repeatable (e.g. synchronous_commit=off).")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(
      names = "--max-tries",
      paramLabel = "N",
      description =
          "Tries per op on serialization failure or deadlock, as pgbench (default: 1 = no retry).")
  int maxTries = 1;

  @Option(
      names = {"-s", "--scale"},
      paramLabel = "N",
      description =
          "pgbench scale; detected from pgbench_branches when not given (embedded default: 1).")
  Integer scale;

  @Option(
      names = {"-D", "--define"},
      paramLabel = "NAME=VALUE",
      description = "Script variable, as pgbench -D.")
  Map<String, String> defines = new LinkedHashMap<>();

  @Option(
      names = "--exit-on-error",
      description = "Stop the run at the first op that fails after its retries.")
  boolean exitOnError;

  @Option(
      names = "--random-seed",
      paramLabel = "N",
      description =
          "Seed of the clients' random numbers (default: random, recorded in the result).")
  Long randomSeed;

  @Option(
      names = "--sslmode",
      paramLabel = "MODE",
      description =
          "pgjdbc sslmode: disable, allow, prefer, require, verify-ca, verify-full (default: pgjdbc's prefer).")
  String sslmode;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "JSON result file (default: results/TIMESTAMP-WORKLOAD.json).")
  Path output;

  @Option(
      names = {"-v", "--verbose"},
      description = "Show JMH's own output and load progress.")
  boolean verbose;
}
