package dev.wg1bench.cli;

import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.WorkloadKnobs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The workload and its knobs; pgbench's short options where pgbench has one. Options marked
 * "sweeps" take a comma list: the run then measures every combination (see {@code --repeat}).
 */
public final class RunOptions {
  @Option(
      names = {"-w", "--workload"},
      paramLabel = "NAME",
      split = ",",
      description = "Built-in workload (see 'wg1bench list'); sweeps.")
  List<String> workloads = new ArrayList<>();

  @Option(
      names = {"-f", "--script"},
      paramLabel = "FILE[@WEIGHT]",
      description = "pgbench-style script, repeatable: a weighted mix as pgbench -f.")
  List<String> scripts = new ArrayList<>();

  @Option(
      names = {"-c", "--clients"},
      paramLabel = "N",
      split = ",",
      description =
          "Concurrent clients, one connection each (default: 4); sweeps, e.g. 1,2,4,8,16.")
  List<Integer> clients = new ArrayList<>(List.of(4));

  @Option(
      names = {"-T", "--duration"},
      paramLabel = "TIME",
      converter = Converters.DurationConverter.class,
      description = "Measured time per trial, e.g. 10s, 2m (default: 10s).")
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
      split = ",",
      converter = Converters.IsolationConverter.class,
      description =
          "read_committed, repeatable_read or serializable (default: the workload's, else the server's); sweeps.")
  List<Isolation> isolations = new ArrayList<>();

  @Option(
      names = {"-M", "--query-mode"},
      paramLabel = "MODE",
      split = ",",
      converter = Converters.QueryModeConverter.class,
      description = {
        "simple, extended or prepared, as pgbench -M (default: simple); sweeps.",
        "simple = preferQueryMode=simple; extended = preferQueryMode=extended, prepareThreshold=0;",
        "prepared = preferQueryMode=extended, prepareThreshold=1."
      })
  List<QueryMode> queryModes = new ArrayList<>();

  @Option(
      names = "--set",
      paramLabel = "NAME=VALUE",
      description =
          "Session setting on every connection, repeatable (e.g. synchronous_commit=off); NAME=V1,V2 sweeps (\\, for a literal comma).")
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
      names = "--continue-on-error",
      description =
          "Keep clients running after errors that won't heal (syntax, missing table, permission,"
              + " too many connections at the start), which otherwise stop them as pgbench does.")
  boolean continueOnError;

  @Option(
      names = "--random-seed",
      paramLabel = "N",
      description =
          "Seed of the clients' random numbers (default: random, recorded in the result).")
  Long randomSeed;

  @Option(
      names = "--pool-size",
      paramLabel = "M",
      split = ",",
      description =
          "Let M pooled connections (HikariCP) serve the clients, M <= clients; time waiting for one is reported apart (default: one connection per client); sweeps.")
  List<Integer> poolSizes = new ArrayList<>();

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
      split = ",",
      description =
          "Rows per op of insert_batch, insert_multirow and insert_copy (default: 8); sweeps.")
  List<Integer> batchSizes = new ArrayList<>(List.of(WorkloadKnobs.DEFAULT_BATCH_SIZE));

  @Option(
      names = {"-F", "--fillfactor"},
      paramLabel = "PCT",
      split = ",",
      description =
          "Fillfactor of the pgbench tables wg1bench creates (embedded server, --between-trials reinit); sweeps, e.g. 100,80 (HOT).")
  List<Integer> fillfactors = new ArrayList<>();

  @Option(
      names = "--table-option",
      paramLabel = "NAME=VALUE",
      description =
          "Storage parameter set on the workload's tables before each trial, e.g. autovacuum_enabled=on,off; sweeps.")
  Map<String, String> tableOptions = new LinkedHashMap<>();

  @Option(
      names = "--rewrite-batched-inserts",
      description = "pgjdbc reWriteBatchedInserts: send a batch of INSERTs as multi-row INSERTs.")
  boolean rewriteBatchedInserts;

  @Option(
      names = "--prepare-threshold",
      paramLabel = "N",
      split = ",",
      description =
          "pgjdbc prepareThreshold, overriding the query mode's (extended and prepared modes only); sweeps.")
  List<Integer> prepareThresholds = new ArrayList<>();

  @Option(
      names = "--binary-transfer",
      paramLabel = "true|false",
      arity = "1",
      split = ",",
      description = "pgjdbc binaryTransfer (default: pgjdbc's, true); sweeps.")
  List<Boolean> binaryTransfers = new ArrayList<>();

  @Option(
      names = "--fetch-size",
      paramLabel = "N",
      split = ",",
      description = "pgjdbc defaultRowFetchSize (default: pgjdbc's, 0 = all rows); sweeps.")
  List<Integer> fetchSizes = new ArrayList<>();

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
      names = "--repeat",
      paramLabel = "N",
      description =
          "Trials per point, median and spread reported (default: 3 when a knob is swept, else 1).")
  Integer repeat;

  @Option(
      names = "--order",
      paramLabel = "random|sequential",
      description =
          "Trial order: random (default, reproducible with --seed) or sequential, round after round.")
  String order = "random";

  @Option(
      names = "--seed",
      paramLabel = "N",
      description = "Seed of the trial order (default: random, recorded).")
  Long seed;

  @Option(
      names = "--between-trials",
      paramLabel = "WHAT",
      description =
          "checkpoint, vacuum, reinit or none before each trial (default: checkpoint for workloads that write, none for read-only ones).")
  String betweenTrials;

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
      names = "--csv",
      paramLabel = "FILE",
      description =
          "Also write the trials as CSV to FILE and the per-point summary to FILE-summary.csv.")
  Path csv;

  @Option(
      names = {"-v", "--verbose"},
      description = "Show JMH's own output and load progress.")
  boolean verbose;
}
