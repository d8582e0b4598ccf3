package dev.wg1bench.cli;

import dev.wg1bench.BuildInfo;
import dev.wg1bench.json.Json;
import dev.wg1bench.json.OutputFile;
import dev.wg1bench.plan.Knob;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.PlanDraft;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.replay.ReplayStage;
import dev.wg1bench.replay.ReplayTrials;
import dev.wg1bench.replay.capture.CaptureSettings;
import dev.wg1bench.replay.capture.Selection;
import dev.wg1bench.replay.log.LogFormat;
import dev.wg1bench.replay.play.DatabaseReset;
import dev.wg1bench.replay.play.PoolMode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code wg1bench replay LOG... --target URL}: a captured server log replayed through pgjdbc with
 * the log's timing (pgreplay's model), under the driver and session knobs a run takes.
 */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    modelTransformer = ReplayCommand.KnobSubset.class,
    description = {
      "Replay the client sessions of a PostgreSQL server log (csvlog, jsonlog, or stderr with a"
          + " log_line_prefix carrying %%m|%%u|%%d|%%c|%%e|; .gz, .bz2, .xz, .zst or - for standard"
          + " input) against --target, with their original timing, every statement's outcome"
          + " judged against the log's.",
      "Every session replays into the target URL's database as the target's user unless"
          + " --map-database says otherwise. See --capture-settings for the server settings of a"
          + " capture. "
          + "A knob given several values (-M simple,prepared) or several --target give one replay"
          + " trial per combination, in one JSON result. A replay of INSERT/UPDATE/DELETE/DDL"
          + " changes the target: --fresh restores its database before each trial (and is the"
          + " only thing that drops one). "
          + "Exit codes: 0 ok, 1 runtime failure, 2 usage error, 3 some statement's outcome (ok or"
          + " its SQLSTATE) differed from the log's."
    })
public final class ReplayCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** The run's knobs a replay takes, declared once in {@link Knobs}. */
  static final List<Knob<?>> KNOBS =
      List.of(
          Knobs.QUERY_MODE,
          Knobs.ISOLATION,
          Knobs.POOL_SIZE,
          Knobs.SET,
          Knobs.PREPARE_THRESHOLD,
          Knobs.BINARY_TRANSFER,
          Knobs.FETCH_SIZE,
          Knobs.SSLMODE,
          Knobs.JDBC_PROPERTY,
          Knobs.STATEMENT_TIMEOUT,
          Knobs.THREADS,
          Knobs.RTT);

  final Map<Knob<?>, OptionSpec> knobOptions = new LinkedHashMap<>();

  @Mixin TargetOptions targets;
  @Mixin HistoryOptions history;

  @Parameters(paramLabel = "LOG", arity = "0..*", description = "Server log files, in time order.")
  List<Path> logs = new ArrayList<>();

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "csvlog, jsonlog or stderr (default: recognized from each file's first line).")
  String format;

  @Option(
      names = "--log-line-prefix",
      paramLabel = "PREFIX",
      description =
          "log_line_prefix of a stderr log; needs %%c and %%m, %%t or %%n, and %%e to compare"
              + " SQLSTATEs (default: '%%m|%%u|%%d|%%c|%%e|', then pgreplay's '%%m|%%u|%%d|%%c|').")
  String linePrefix;

  @Option(
      names = "--database",
      paramLabel = "DB",
      split = ",",
      description = "Replay only sessions of these captured databases (default: all).")
  List<String> databases = new ArrayList<>();

  @Option(
      names = "--user",
      paramLabel = "ROLE",
      split = ",",
      description = "Replay only sessions of these captured users (default: all).")
  List<String> users = new ArrayList<>();

  @Option(
      names = "--application-name",
      paramLabel = "NAME",
      split = ",",
      description = "Replay only sessions with these application names (default: all).")
  List<String> applications = new ArrayList<>();

  @Option(
      names = "--map-database",
      parameterConsumer = KeyValues.class,
      paramLabel = "CAPTURED=TARGET",
      description =
          "Replay sessions of database CAPTURED into TARGET on the target server, repeatable.")
  Map<String, String> mapDatabase = new LinkedHashMap<>();

  @Option(
      names = "--pool-mode",
      paramLabel = "session|transaction",
      description = {
        "With --pool-size: session (default) holds one pooled connection per session from its"
            + " start to its end, rolled back and reset (DISCARD ALL) before the next session gets"
            + " it; transaction holds one per transaction, as PgBouncer's transaction mode, so"
            + " session state (SET, temporary tables, PREPARE) does not follow a session."
      })
  String poolMode = "session";

  @Option(
      names = "--copy-from-stdin",
      paramLabel = "skip-statement|skip-block",
      description = {
        "A COPY FROM STDIN cannot be replayed: its rows are not in the log. skip-statement"
            + " (default) skips the COPY and its transaction block goes on without the rows;"
            + " skip-block skips the whole BEGIN ... COMMIT block it is in. Both are counted."
      })
  String copyFromStdin = "skip-statement";

  @Option(
      names = "--progress",
      paramLabel = "TIME",
      converter = Converters.DurationConverter.class,
      defaultValue = PROGRESS,
      description = "Progress line every TIME (default: ${DEFAULT-VALUE}).")
  Duration progress;

  /** --progress when not given; a replay arm of a block experiment prints as often. */
  static final String PROGRESS = "5s";

  @Mixin OutputOption output;

  @Mixin ReplayTrialOptions trial;

  @Option(
      names = "--warmup",
      paramLabel = "DURATION",
      description = {
        "With --fresh: before the trials, play the log for this long (default "
            + ReplayTrialOptions.DEFAULT_WARMUP_SECONDS
            + "s; 0 = none),"
            + " the first half at --speed max and the rest at the trial's speed (faster on a"
            + " log too slow at it for the JIT: at half the rate reached at max), not measured,"
            + " then restore the target: the client's JIT compiles the replay's paths, as the"
            + " trial takes them, before the log's clock starts. Without --fresh there is none."
      })
  String warmup;

  @Option(
      names = "--csv",
      paramLabel = "FILE",
      description =
          "Also write the statement classes beside the log's durations as CSV to FILE, and the"
              + " fidelity table and lag to FILE-fidelity.csv.")
  Path csv;

  @Option(
      names = "--html",
      paramLabel = "FILE",
      description = "Also write the result's tables as a self-contained HTML page to FILE.")
  Path html;

  @Option(
      names = "--dry-run",
      description = "Read the logs and say what would be replayed; connect to nothing.")
  boolean dryRun;

  @Option(
      names = "--capture-settings",
      description = "Print the server settings of a capture, and what each costs, and exit.")
  boolean captureSettings;

  @Override
  public Integer call() throws InterruptedException {
    if (captureSettings) {
      out().print(CaptureSettings.text());
      return 0;
    }
    if (logs.isEmpty()) {
      throw new UsageException("replay needs at least one LOG file (see --capture-settings)");
    }
    history.check();
    ReplayStage.Request request = request();
    ReplayStage.Ending end = ReplayStage.run(request, Console.out(spec));
    if (end.stopped()) {
      // a replay stopped by Ctrl-C replayed part of the log: not comparable with the others, and
      // not stored
      return 1;
    }
    if (!dryRun) {
      history.store(OutputFile.actual(request.outputs().json()));
    }
    // 3 when a statement's outcome differed from the log's in some trial (the statements the
    // replay said it would not send aside)
    return end.diverged() ? Main.COMPLETED_WITH_FAILURES : 0;
  }

  /** The replay the options ask for, each checked before anything is read or started. */
  private ReplayStage.Request request() {
    double rate = trial.rate();
    LogFormat f = format();
    PoolMode mode = poolMode();
    boolean skipCopyBlocks = copyBlocks();
    List<TargetSpec> specs = targets.resolve(false);
    if (!dryRun && specs.isEmpty()) {
      throw new UsageException(
          "replay needs --target URL (one or more), the server to replay into; got none");
    }
    DatabaseReset restore = dryRun ? null : DatabaseReset.parse(trial.fresh);
    if (restore != null && !mapDatabase.isEmpty()) {
      throw new UsageException(
          "--fresh restores the target URL's database only; it cannot be used with"
              + " --map-database (restore those databases yourself)");
    }
    ReplayStage.Outputs outputs = new ReplayStage.Outputs(output.orStamped("replay"), csv, html);
    checkWritable(outputs);
    Selection selection =
        new Selection(
            Set.copyOf(databases), Set.copyOf(users), Set.copyOf(applications), mapDatabase);
    ReplayTrials.Shared shared =
        new ReplayTrials.Shared(
            rate,
            mode,
            mapDatabase,
            progress,
            new AtomicBoolean(),
            restore,
            ReplayTrialOptions.warmup(warmup, restore != null),
            BuildInfo.version(),
            logs.stream().map(Path::toString).toList());
    return new ReplayStage.Request(
        logs,
        f,
        linePrefix,
        selection,
        skipCopyBlocks,
        dryRun,
        specs,
        sessions -> combos(specs.get(0), sessions),
        trial.speed,
        shared,
        outputs);
  }

  /** --format as given, null to detect it from each file. */
  private LogFormat format() {
    if (format == null) {
      return null;
    }
    try {
      return LogFormat.parse(format);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--format " + e.getMessage());
    }
  }

  /** Every file the replay will write can be written, before anything runs. */
  private void checkWritable(ReplayStage.Outputs outputs) {
    for (Path p : outputs.all()) {
      String unwritable = dryRun ? null : Json.unwritable(p);
      if (unwritable != null) {
        throw new UsageException(option(p, outputs.json()) + " " + p + ": " + unwritable);
      }
    }
  }

  /** --pool-mode as given. */
  private PoolMode poolMode() {
    try {
      return PoolMode.parse(poolMode);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--pool-mode " + e.getMessage());
    }
  }

  /** --copy-from-stdin: true to skip whole blocks. */
  private boolean copyBlocks() {
    return switch (copyFromStdin.strip().toLowerCase(Locale.ROOT)) {
      case "skip-statement" -> false;
      case "skip-block" -> true;
      default ->
          throw new UsageException(
              "--copy-from-stdin '" + copyFromStdin + "' is not one of skip-statement, skip-block");
    };
  }

  private String option(Path p, Path json) {
    if (p.equals(json)) {
      return "--output";
    }
    return p.equals(html) ? "--html" : "--csv";
  }

  /**
   * Every combination of the knobs' values (a knob given several values is swept, as in a run),
   * each checked by the plan's own validation (messages name the option).
   */
  private List<ReplayStage.Combo> combos(TargetSpec target, int sessions) {
    return combos(k -> knobOptions.get(k).getValue(), target, sessions);
  }

  /** The largest --clients a plan accepts: a log of more sessions sets this one. */
  private static final int MAX_CLIENTS = 10_000;

  /** The combinations of {@link #KNOBS} given their raw option values (the advise arms' too). */
  static List<ReplayStage.Combo> combos(
      Function<Knob<?>, Object> raw, TargetSpec target, int sessions) {
    List<Knob<?>> swept = KNOBS.stream().filter(k -> k.points(raw.apply(k)).size() > 1).toList();
    List<Map<Knob<?>, Object>> all = PlanFactory.product(KNOBS, k -> k.points(raw.apply(k)));
    List<ReplayStage.Combo> out = new ArrayList<>();
    for (Map<Knob<?>, Object> c : all) {
      PlanDraft d = new PlanDraft();
      d.workload("replay", List.of()).targets(List.of(target));
      // a pool larger than the sessions is pointless, as --pool-size larger than --clients; but
      // sessions are not clients (a replay opens only the concurrent ones at once): a log of more
      // sessions than --clients allows is no --clients out of its range, an option never given
      d.set(Knobs.CLIENTS, Math.min(Math.max(1, sessions), MAX_CLIENTS));
      c.forEach((k, v) -> set(d, k, v));
      RunPlan plan = d.build();
      Map<String, String> labels = new LinkedHashMap<>();
      swept.forEach(k -> labels.putAll(k.labels(plan)));
      int connections = plan.poolSize() != null ? plan.poolSize() : Math.max(1, sessions);
      out.add(
          new ReplayStage.Combo(
              plan, labels, ReplayTrials.settings(plan), plan.poolSize(), connections));
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static <T> void set(PlanDraft d, Knob<T> k, Object value) {
    if (value != null) {
      d.set(k, (T) value);
    }
  }

  /**
   * The command with its knob options: picocli applies a model transformer only to a command line
   * built whole, not to an object added as a subcommand afterwards (the lean start-up path).
   */
  static picocli.CommandLine commandLine() {
    return new picocli.CommandLine(new ReplayCommand());
  }

  /** Adds the options of {@link #KNOBS} from their declarations, as {@link KnobOptions} does. */
  public static final class KnobSubset implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec spec) {
      if (spec.userObject() instanceof ReplayCommand r && r.knobOptions.isEmpty()) {
        for (Knob<?> k : KNOBS) {
          OptionSpec o = KnobOptions.option(k);
          spec.addOption(o);
          r.knobOptions.put(k, o);
        }
      }
      return spec;
    }
  }

  /** Standard output: picocli's, as Main or a test set it. */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }
}
