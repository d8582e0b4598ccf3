package dev.wg1bench.cli;

import dev.wg1bench.plan.Knob;
import dev.wg1bench.plan.SessionKnobs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * How a run is measured, and (through {@link KnobOptions}) the knobs it varies; pgbench's short
 * options where pgbench has one. Options marked "sweeps" take a comma list: the run then measures
 * every combination (see {@code --repeat}).
 */
@Command(modelTransformer = KnobOptions.class)
public final class RunOptions {
  /** The options of the declared knobs, added by {@link KnobOptions}. */
  final Map<Knob<?>, OptionSpec> knobOptions = new LinkedHashMap<>();

  /** The command this mixin is part of, for the order of its script options. */
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  /** The parse result of the command line, null when these options were not parsed. */
  ParseResult parseResult() {
    return mixee == null || mixee.commandLine() == null
        ? null
        : mixee.commandLine().getParseResult();
  }

  /** What the command line gave a knob: a list, a map, a value or a flag; null if not given. */
  Object raw(Knob<?> knob) {
    OptionSpec o = knobOptions.get(knob);
    return o == null ? null : o.getValue();
  }

  @Option(
      names = {"-f", "--script"},
      paramLabel = "FILE[@WEIGHT]",
      description = "pgbench-style script, repeatable: a weighted mix as pgbench -f.")
  List<String> scripts = new ArrayList<>();

  @Option(
      names = "--workload-class",
      paramLabel = "CLASS",
      split = ",",
      description =
          "Your own workload: a class implementing dev.wg1bench.api.JdbcWorkload (one instance per"
              + " client, its op(Op) one op), loaded from --classpath; several sweep, as"
              + " --workload does.")
  List<String> workloadClasses = new ArrayList<>();

  @Option(
      names = "--classpath",
      paramLabel = "PATH",
      description =
          "Where --workload-class is loaded from, in this JVM and the forks: jars and directories"
              + " separated by '"
              + "${sys:path.separator}"
              + "', dir/* for every jar in dir, as java -cp takes them.")
  String classpath;

  @Mixin TimingOptions timing;

  @Option(
      names = {"-t", "--transactions"},
      paramLabel = "N",
      description =
          "Ops per client instead of a duration, as pgbench -t: no warmup, one JMH single-shot"
              + " iteration measured from the moment every client is connected until the last one"
              + " ran its N ops; excludes -T.")
  Long transactions;

  @Option(
      names = "-S",
      description = "pgbench's built-in select-only: --workload select_only (as -b select-only).")
  boolean selectOnly;

  @Option(
      names = "-N",
      description =
          "pgbench's built-in simple-update: --workload simple_update (as -b simple-update).")
  boolean simpleUpdate;

  @Option(
      names = {"-b", "--builtin"},
      paramLabel = "NAME[@WEIGHT]",
      description =
          "pgbench built-in script, repeatable, prefixes accepted: tpcb-like (tpcb), simple-update"
              + " (simple_update), select-only (select_only); mixes with -f by weight as pgbench;"
              + " -b list lists them.")
  List<String> builtins = new ArrayList<>();

  @Option(
      names = {"-n", "--no-vacuum"},
      description =
          "No hygiene before the trial, as pgbench -n (= --between-trials none): no VACUUM (which"
              + " wg1bench never runs unless asked), and no CHECKPOINT either.")
  boolean noVacuum;

  @Option(
      names = {"-j", "--jobs"},
      paramLabel = "N",
      description =
          "Accepted for pgbench's sake, no effect: wg1bench runs one thread per client (pgjdbc"
              + " blocks on each connection); the client's CPU per op is in the result.")
  Integer jobs;

  @Option(
      names = {"-l", "--log"},
      description =
          "Write each measured op to a log file in pgbench's per-transaction format (one file per"
              + " client: PREFIX.PID for client 0, PREFIX.PID.N for client N).")
  boolean log;

  @Option(
      names = "--aggregate-interval",
      paramLabel = "SECONDS",
      description = "With -l: one line per interval in pgbench's aggregated format.")
  Integer aggregateInterval;

  @Option(
      names = "--log-prefix",
      paramLabel = "PREFIX",
      description = "With -l: log file prefix (default: pgbench_log), a path allowed.")
  String logPrefix;

  @Option(
      names = "--sampling-rate",
      paramLabel = "RATE",
      description = "With -l: fraction of ops logged, e.g. 0.01.")
  Double samplingRate;

  @Option(
      names = "--failures-detailed",
      description = "With -l: a failed op's time reads serialization or deadlock, not failed.")
  boolean failuresDetailed;

  @Option(
      names = "--max-tries",
      paramLabel = "N",
      description =
          "Tries per op on serialization failure or deadlock, as pgbench (default:"
              + " ${DEFAULT-VALUE} = no retry).")
  int maxTries = SessionKnobs.DEFAULT_MAX_TRIES;

  @Mixin ScaleOption scale;

  @Option(
      names = {"-D", "--define"},
      parameterConsumer = KeyValues.class,
      paramLabel = "NAME=VALUE",
      description = "Script variable, as pgbench -D.")
  Map<String, String> defines = new LinkedHashMap<>();

  @Option(
      names = "--exit-on-error",
      description = "Stop the run at the first op that fails after its retries.")
  boolean exitOnError;

  @Option(
      names = "--exit-on-abort",
      description =
          "Stop the run as soon as any client is stopped by an error that won't heal, as pgbench"
              + " --exit-on-abort (serialization failures and deadlocks stop no client).")
  boolean exitOnAbort;

  @Option(
      names = "--continue-on-error",
      description =
          "Keep clients running after errors that won't heal (syntax, missing table, permission,"
              + " too many connections at the start), which otherwise stop them as pgbench does;"
              + " as pgbench --continue-on-error, the failed ops are counted and the run goes on.")
  boolean continueOnError;

  @Option(
      names = "--random-seed",
      paramLabel = "N",
      description =
          "Seed of the clients' random numbers (default: random, recorded in the result).")
  Long randomSeed;

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
      names = {"-r", "--report-per-command"},
      description =
          "Report each statement's latency, failures and retries, per script, as pgbench -r,"
              + " and its round trips and rows per execution (over the measurement windows;"
              + " scripts only).")
  boolean reportPerCommand;

  @Option(
      names = "--predict-rtt",
      paramLabel = "LIST",
      split = ",",
      description =
          "Round-trip times each trial's mean latency and throughput are predicted at, from its"
              + " server time and round trips per op, e.g. 0.5ms,5ms,20ms (units us, ms, s;"
              + " default: 0.5ms,1ms,2ms); the JSON's prediction[] follows it.")
  List<String> predictRtt;

  @Mixin RepeatOption repeat;

  @Option(
      names = "--order",
      paramLabel = "random|sequential",
      description =
          "Trial order: random (default, reproducible with --seed) or sequential, round after round.")
  String order = "random";

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

  @Mixin OutputOption output;

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
