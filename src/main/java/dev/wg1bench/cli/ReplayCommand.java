package dev.wg1bench.cli;

import dev.wg1bench.BuildInfo;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.Knob;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.PlanDraft;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.replay.Capture;
import dev.wg1bench.replay.CaptureBuilder;
import dev.wg1bench.replay.CaptureSettings;
import dev.wg1bench.replay.LogFormat;
import dev.wg1bench.replay.ReplayReport;
import dev.wg1bench.replay.ReplayResult;
import dev.wg1bench.replay.Replayer;
import dev.wg1bench.replay.Selection;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.Target;
import dev.wg1bench.server.Targets;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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
          + " log_line_prefix carrying %%m|%%u|%%d|%%c) against --target, with their original timing.",
      "Every session replays into the target URL's database as the target's user unless"
          + " --map-database says otherwise. See --capture-settings for the server settings of a"
          + " capture.",
      "Exit codes: 0 ok, 1 runtime failure, 2 usage error, 3 replay had errors"
          + " the log did not (more of some SQLSTATE)."
    })
public final class ReplayCommand implements Callable<Integer> {
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
          Knobs.STATEMENT_TIMEOUT);

  final Map<Knob<?>, OptionSpec> knobOptions = new LinkedHashMap<>();

  @Mixin TargetOptions targets;

  @Parameters(paramLabel = "LOG", arity = "0..*", description = "Server log files, in time order.")
  List<Path> logs = new ArrayList<>();

  @Option(
      names = "--speed",
      paramLabel = "N|max",
      description = {
        "1 = the log's timing (default), N = N times faster, max = no waits between statements"
      })
  String speed = "1";

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "csvlog, jsonlog or stderr (default: recognized from each file's first line).")
  String format;

  @Option(
      names = "--log-line-prefix",
      paramLabel = "PREFIX",
      description =
          "log_line_prefix of a stderr log; needs %%c and %%m, %%t or %%n (default: '"
              + "%%m|%%u|%%d|%%c|').")
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
      paramLabel = "CAPTURED=TARGET",
      description =
          "Replay sessions of database CAPTURED into TARGET on the target server, repeatable.")
  Map<String, String> mapDatabase = new LinkedHashMap<>();

  @Option(
      names = "--progress",
      paramLabel = "TIME",
      converter = Converters.DurationConverter.class,
      description = "Progress line every TIME (default: 5s).")
  Duration progress = Duration.ofSeconds(5);

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "JSON result file (default: results/TIMESTAMP-replay.json).")
  Path output;

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
      System.out.print(CaptureSettings.text());
      return 0;
    }
    if (logs.isEmpty()) {
      throw new UsageException("replay needs at least one LOG file (see --capture-settings)");
    }
    double rate = speed();
    LogFormat f = null;
    if (format != null) {
      try {
        f = LogFormat.parse(format);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--format " + e.getMessage());
      }
    }
    List<TargetSpec> specs = targets.resolve(false);
    if (!dryRun && specs.size() != 1) {
      throw new UsageException(
          "replay needs exactly one --target URL, the server to replay into; got " + specs.size());
    }
    Path out = output != null ? output : defaultOutput();
    String unwritable = dryRun ? null : Json.unwritable(out);
    if (unwritable != null) {
      throw new UsageException("--output " + out + ": " + unwritable);
    }
    Selection selection =
        new Selection(
            Set.copyOf(databases), Set.copyOf(users), Set.copyOf(applications), mapDatabase);
    CaptureBuilder builder = new CaptureBuilder(f, linePrefix, selection);
    for (Path log : logs) {
      try {
        builder.read(log);
      } catch (NoSuchFileException e) {
        throw new UsageException("LOG " + log + ": no such file");
      } catch (IOException e) {
        throw new RunFailure("LOG " + log + ": " + e.getMessage(), e);
      }
    }
    Capture capture = builder.build();
    ReplayReport.printCapture(capture, System.out);
    if (dryRun) {
      return 0;
    }
    if (capture.sessions().isEmpty()) {
      throw new UsageException(
          "nothing to replay: the logs hold no client session"
              + (selection.databases().isEmpty()
                      && selection.users().isEmpty()
                      && selection.applications().isEmpty()
                  ? " (were log_statement = 'all' and log_connections on? see --capture-settings)"
                  : " the selection keeps"));
    }
    RunPlan plan = plan(specs.get(0), capture.sessions().size());
    ClientSettings settings =
        new ClientSettings(
            plan.session().queryMode(),
            plan.session().isolation(),
            plan.sessionSettings(),
            plan.driver());
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch written = new CountDownLatch(1);
    // Ctrl-C: sessions stop before their next statement and the partial result is still written
    Thread hook =
        new Thread(
            () -> {
              stop.set(true);
              try {
                written.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "wg1bench-replay-interrupt");
    Runtime.getRuntime().addShutdownHook(hook);
    Instant started = Instant.now();
    try (Target target = Targets.of(plan.targets().get(0))) {
      int connections = plan.poolSize() != null ? plan.poolSize() : capture.sessions().size();
      target.start(connections, System.out);
      TargetSpec spec = target.spec();
      check(spec, settings, capture);
      Replayer.Config config =
          new Replayer.Config(spec, settings, rate, plan.poolSize(), mapDatabase, progress, stop);
      System.out.printf(
          "replaying %d sessions into %s at %s%n",
          capture.sessions().size(), spec.name(), rate == 0 ? "max speed" : "speed " + speed);
      Replayer.Outcome outcome = new Replayer(config, System.out).run(capture);
      ReplayResult result =
          ReplayReport.result(
              BuildInfo.version(),
              started,
              spec.name(),
              logs.stream().map(Path::toString).toList(),
              config,
              capture,
              outcome);
      ReplayReport.print(result, System.out);
      Json.write(result, out);
      System.out.println("result written to " + out);
      if (outcome.stopped()) {
        return 1;
      }
      boolean more =
          result.errorsBySqlState().values().stream().anyMatch(e -> e.replay() > e.log());
      return more ? Main.COMPLETED_WITH_FAILURES : 0;
    } finally {
      written.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // shutting down already (Ctrl-C): the hook is running and has just been released
      }
    }
  }

  /** One connection per target database before anything replays: a bad URL fails here, once. */
  private void check(TargetSpec spec, ClientSettings settings, Capture capture) {
    Set<String> dbs = new LinkedHashSet<>();
    capture.sessions().forEach(s -> dbs.add(mapDatabase.get(s.database())));
    for (String db : dbs) {
      TargetSpec t = Replayer.withDatabase(spec, db);
      try (Connection c = new ConnectionFactory(t, settings).openClient()) {
        c.isValid(5);
      } catch (SQLException e) {
        throw new RunFailure(
            "target "
                + spec.name()
                + (db == null ? "" : " database " + db)
                + ": "
                + ConnectionFactory.oneLine(e),
            e);
      }
    }
  }

  private double speed() {
    if ("max".equalsIgnoreCase(speed.strip())) {
      return 0;
    }
    try {
      double v = Double.parseDouble(speed.strip());
      if (v > 0 && v <= 1_000_000) {
        return v;
      }
    } catch (NumberFormatException e) {
      // falls through to the message below
    }
    throw new UsageException("--speed must be a number > 0 and <= 1000000, or max, got " + speed);
  }

  /** The knobs given, checked by the plan's own validation (messages name the option). */
  private RunPlan plan(TargetSpec target, int sessions) {
    PlanDraft d = new PlanDraft();
    d.workload("replay", List.of()).targets(List.of(target));
    // a pool larger than the sessions is pointless, as --pool-size larger than --clients
    d.set(Knobs.CLIENTS, Math.max(1, sessions));
    for (Map.Entry<Knob<?>, OptionSpec> e : knobOptions.entrySet()) {
      set(d, e.getKey(), e.getValue().getValue());
    }
    return d.build();
  }

  private static <T> void set(PlanDraft d, Knob<T> k, Object raw) {
    List<T> points = k.points(raw);
    if (points.size() != 1) {
      throw new UsageException(
          k.option() + " takes one value in a replay, got " + points.size() + ": " + raw);
    }
    if (points.get(0) != null) {
      d.set(k, points.get(0));
    }
  }

  private static Path defaultOutput() {
    return Path.of(
        "results",
        LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
            + "-replay.json");
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
}
