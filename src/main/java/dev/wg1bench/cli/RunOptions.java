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
      names = "--pool-size",
      paramLabel = "M",
      description =
          "Let M pooled connections (HikariCP) serve the clients, M <= clients; time waiting for one is reported apart (default: one connection per client).")
  Integer poolSize;

  @Option(
      names = {"-R", "--rate"},
      paramLabel = "OPS_PER_S",
      description =
          "Fixed rate over all clients, Poisson arrivals, as pgbench -R; latency counts from each op's scheduled start.")
  Double rate;

  @Option(
      names = {"-L", "--latency-limit"},
      paramLabel = "MS",
      converter = Converters.MillisConverter.class,
      description =
          "Count ops slower than this as late, and under --rate skip those that cannot start in time, as pgbench -L (a bare number is ms).")
  Duration latencyLimit;

  @Option(
      names = {"-P", "--progress"},
      paramLabel = "SECONDS",
      converter = Converters.DurationConverter.class,
      description =
          "Print ops/s, latency p50/p99, retries and failures every interval, as pgbench -P; the JSON keeps the series.")
  Duration progress;

  @Option(
      names = "--batch-size",
      paramLabel = "N",
      description =
          "Rows per op of insert_batch, insert_multirow and insert_copy (default: ${DEFAULT-VALUE}).")
  int batchSize = dev.wg1bench.plan.WorkloadKnobs.DEFAULT_BATCH_SIZE;

  @Option(
      names = "--rewrite-batched-inserts",
      description = "pgjdbc reWriteBatchedInserts: send a batch of INSERTs as multi-row INSERTs.")
  boolean rewriteBatchedInserts;

  @Option(
      names = "--prepare-threshold",
      paramLabel = "N",
      description =
          "pgjdbc prepareThreshold, overriding the query mode's (extended and prepared modes only).")
  Integer prepareThreshold;

  @Option(
      names = "--binary-transfer",
      paramLabel = "true|false",
      arity = "1",
      description = "pgjdbc binaryTransfer (default: pgjdbc's, true).")
  Boolean binaryTransfer;

  @Option(
      names = "--fetch-size",
      paramLabel = "N",
      description = "pgjdbc defaultRowFetchSize (default: pgjdbc's, 0 = all rows).")
  Integer fetchSize;

  @Option(
      names = "--jdbc-property",
      paramLabel = "NAME=VALUE",
      description =
          "Any other pgjdbc property, repeatable; the name is checked against pgjdbc's list.")
  Map<String, String> jdbcProperties = new LinkedHashMap<>();

  @Option(
      names = "--sslmode",
      paramLabel = "MODE",
      description =
          "pgjdbc sslmode: disable, allow, prefer, require, verify-ca, verify-full (default: pgjdbc's prefer).")
  String sslmode;

  @Option(
      names = "--check",
      description =
          "After each trial, verify what the workload guarantees in the database (tpcb: balances"
              + " agree with history; inserts: rows = committed ops x rows per op; rr_write10: no"
              + " serialization failure; read-only workloads: nothing written); exit 1 if not.")
  boolean check;

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
