package dev.wg1bench.cli;

import dev.wg1bench.BuildInfo;
import dev.wg1bench.json.OutputFile;
import dev.wg1bench.plan.AgentSpec;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.CsvReport;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.run.RunStage;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.postgresql.util.DriverInfo;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code wg1bench}: run a workload ({@code --workload NAME}), or {@code init} / {@code list} /
 * {@code experiment} / {@code ssb} / {@code report}. Exit codes: 0 success, 1 runtime failure
 * (server unreachable, tables missing, a run stopped by --exit-on-error), 2 usage error (bad
 * option, script or target).
 */
@Command(
    name = "wg1bench",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    defaultValueProvider = TimingOptions.RunDefaults.class,
    sortOptions = false,
    description = {
      "Measures what a data-access choice does to PostgreSQL throughput and latency. "
          + "With no --target it starts an embedded PostgreSQL with stock settings.",
      "Exit codes: 0 ok, 1 runtime failure or run stopped early, 2 usage error, "
          + "3 run completed but some ops failed (counted in the result); "
          + "a --check that finds the data wrong exits 1; 4 'history check' found a regression."
    })
public final class Main implements Callable<Integer> {
  @Mixin RunOptions run;
  @Mixin TargetOptions targets;
  @Mixin AgentOptions agents;
  @Mixin HistoryOptions history;
  @Spec CommandSpec spec;

  /** Exit code of a run that completed and wrote its result, but some ops failed. */
  public static final int COMPLETED_WITH_FAILURES = 3;

  @Override
  public Integer call() {
    if (run.builtins.contains("list")) {
      // pgbench -b list: the built-in scripts, and nothing run
      PgbenchFlags.BUILTINS.forEach((b, w) -> out().printf("%-14s = --workload %s%n", b, w));
      return 0;
    }
    AgentSpec agent = agents.spec();
    checkAgentAndHistory(agent);
    if (agent != null) {
      // every agent must draw the same random streams and run the trials in the same order
      if (run.randomSeed == null) {
        run.randomSeed = agent.derivedSeed();
      }
      if (run.timing.seed == null) {
        run.timing.seed = agent.derivedSeed();
      }
    }
    Matrix matrix = PlanFactory.build(run, targets.resolve(true));
    if (run.csv != null) {
      checkCsvWritable();
    }
    noteFlagsWithoutEffect();
    BenchmarkRun result =
        new RunStage(Console.out(spec), run.verbose).check(run.check).agent(agent).run(matrix);
    if (run.csv != null) {
      writeCsv(result);
    }
    if (result.trials().stream().anyMatch(t -> t.measurement().notAsAsked() != null)) {
      if (history.on()) {
        // as history add refuses it: another workload's figures would enter the series
        out()
            .println("history: not stored (the run did not run as asked; the result file is kept)");
      }
    } else {
      history.store(OutputFile.actual(matrix.output()));
    }
    return exitCode(result);
  }

  /**
   * Standard output: picocli's, as {@link #execute(PrintWriter, PrintWriter, String...)} set it.
   */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }

  /** The options an agent's run cannot take, and the history options' own checks between. */
  private void checkAgentAndHistory(AgentSpec agent) {
    if (agent != null && run.transactions != null) {
      // the agents agree on a timed window; an op count per client has no common end to agree on
      throw new UsageException("-t (--transactions) cannot be used with --agent; use -T");
    }
    history.check();
    if (agent != null && history.on()) {
      // an agent's result is its part of the run: only the merged result is the run
      throw new UsageException(
          "--history cannot be used with --agent: each agent's result is a part; store the result"
              + " of 'wg1bench merge' with 'wg1bench history add'");
    }
  }

  /** Found out now, not after the whole run, as the CSV is written last. */
  private void checkCsvWritable() {
    for (Path f :
        OutputFile.special(run.csv)
            ? List.of(run.csv)
            : List.of(run.csv, CsvReport.summaryFile(run.csv))) {
      String unwritable = JsonReport.unwritable(f);
      if (unwritable != null) {
        throw new UsageException("--csv " + f + ": " + unwritable);
      }
    }
  }

  /** pgbench flags taken for compatibility: said once, so nobody thinks they changed the run. */
  private void noteFlagsWithoutEffect() {
    if (run.jobs != null) {
      out()
          .println(
              "-j "
                  + run.jobs
                  + ": no effect; wg1bench runs one thread per client, since pgjdbc blocks on each"
                  + " connection (the client's own CPU per op is reported as clientCpuMicrosPerOp)");
    }
    if (run.noVacuum) {
      out()
          .println(
              "-n: no VACUUM and no CHECKPOINT before the trial (recorded as betweenTrials none)");
    }
  }

  private void writeCsv(BenchmarkRun result) {
    List<Path> written;
    try {
      written = CsvReport.write(result, run.csv);
    } catch (UncheckedIOException e) {
      throw new RunFailure(e.getMessage() + " (the JSON result was written)", e);
    }
    if (written.size() == 1) {
      out()
          .println(
              "csv written to "
                  + run.csv
                  + " (the trials table only: a special file takes no others)");
      return;
    }
    out()
        .println(
            "csv written to "
                + run.csv
                + " and "
                + String.join(
                    ", ", written.stream().skip(1).map(f -> f.getFileName().toString()).toList()));
  }

  /**
   * 1 when a trial stopped early (--exit-on-error), did not run as asked (a client could not start,
   * the pool could not fill: its figures are another workload's, as pgbench exits 1 when a client
   * cannot connect) or its --check failed, 3 when all trials completed but some ops failed (the
   * numbers stand, the failures are counted in them), else 0.
   */
  static int exitCode(BenchmarkRun result) {
    boolean stopped =
        result.trials().stream()
            .anyMatch(
                t -> t.measurement().stoppedBy() != null || t.measurement().notAsAsked() != null);
    boolean wrong =
        result.trials().stream().anyMatch(t -> t.check() != null && !t.check().passed());
    if (stopped || wrong) {
      return 1;
    }
    boolean failed = result.trials().stream().anyMatch(t -> t.measurement().totalFailedOps() > 0);
    return failed ? COMPLETED_WITH_FAILURES : 0;
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs the command line on this process's standard streams and returns the exit code. */
  public static int execute(String... args) {
    // in the platform's charset, as System.out's own and picocli's default writers encode: the
    // bytes printed are those System.out would print
    return execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
  }

  /**
   * Runs the command line printing to {@code out} and {@code err} (a test gives its own writers;
   * commands print through picocli's getOut()/getErr(), so runs in one JVM print each to its own)
   * and returns the exit code.
   */
  public static int execute(PrintWriter out, PrintWriter err, String... args) {
    try {
      return commandLine(args).setOut(out).setErr(err).execute(args);
    } catch (OutOfMemoryError e) {
      // one line, naming the setting: a stack trace of the allocation helps no user
      err.printf(
          "wg1bench: out of memory (Java heap at most %d MB): give it more with java -Xmx<size>"
              + " -jar wg1bench.jar ..., e.g. -Xmx%dm%n",
          Runtime.getRuntime().maxMemory() >> 20, 2 * (Runtime.getRuntime().maxMemory() >> 20));
      return 1;
    } finally {
      out.flush();
      err.flush();
    }
  }

  /**
   * The subcommands, the one list of them, by name in the order of {@code --help}: the whole
   * command line adds them all, the lean start-up path of {@link #commandLine(String...)} only the
   * one named first.
   */
  static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands();

  private static Map<String, Supplier<Object>> subcommands() {
    Map<String, Supplier<Object>> m = new LinkedHashMap<>();
    m.put("init", InitCommand::new);
    m.put("list", ListCommand::new);
    m.put("ssb", SsbCommand::new);
    m.put("advise", AdviseCommand::new);
    m.put("report", ReportCommand::new);
    m.put("diff", DiffCommand::new);
    m.put("merge", MergeCommand::new);
    m.put("experiment", ExperimentCommand::new);
    m.put("replay", ReplayCommand::commandLine);
    m.put("history", HistoryCommand::new);
    return Collections.unmodifiableMap(m);
  }

  /**
   * The command line for these arguments. When they start with a subcommand, only that subcommand's
   * model is built under a bare parent: picocli inspects every option of every command by
   * reflection up front, and the run command's ~90 options alone cost a short command like {@code
   * init} a quarter of its start-up, which counts against it beside {@code pgbench -i}.
   */
  static CommandLine commandLine(String... args) {
    if (args.length > 0 && SUBCOMMANDS.containsKey(args[0])) {
      CommandLine parent = new CommandLine(new Parent());
      parent.addSubcommand(SUBCOMMANDS.get(args[0]).get());
      return withHandlers(parent);
    }
    return commandLine();
  }

  /** The whole command line, every subcommand included (help, tests of the model). */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    SUBCOMMANDS.values().forEach(s -> cl.addSubcommand(s.get()));
    return withHandlers(HelpSections.install(cl));
  }

  /** The parent of the lean path: the same name and version, no options of its own. */
  @Command(name = "wg1bench", mixinStandardHelpOptions = true, versionProvider = Version.class)
  static final class Parent {}

  /** picocli's "Value for option option '--set' (NAME=VALUE) should be in KEY=VALUE format..." */
  private static final Pattern KEY_VALUE =
      Pattern.compile(
          "Value for option (?:option )?'([^']+)' \\(([^)]*)\\) should be in KEY=VALUE format but"
              + " was (.*)");

  /** A parse error in the project's own words where picocli's read badly. */
  static String message(CommandLine.ParameterException ex) {
    String m = ex.getMessage();
    Matcher k = KEY_VALUE.matcher(m);
    if (k.matches()) {
      return k.group(1)
          + " '"
          + k.group(3)
          + "' must be "
          + k.group(2)
          + ", e.g. "
          + k.group(1)
          + " "
          + k.group(3)
          + "=VALUE";
    }
    return m;
  }

  private static CommandLine withHandlers(CommandLine cl) {
    // "--workload ssb" names the workload, not the ssb subcommand
    cl.setAllowSubcommandsAsOptionParameters(true);
    // help as wide as the terminal when picocli can tell its width, else 80 columns
    cl.setUsageHelpAutoWidth(true);
    cl.setParameterExceptionHandler(
        (ex, args) -> {
          // One line: what is wrong and what would be valid; picocli's suggestions appended.
          PrintWriter err = ex.getCommandLine().getErr();
          StringBuilder msg = new StringBuilder("wg1bench: ").append(message(ex));
          if (ex instanceof CommandLine.UnmatchedArgumentException u
              && !u.getSuggestions().isEmpty()) {
            msg.append(" (did you mean ")
                .append(String.join(" or ", u.getSuggestions()))
                .append("?)");
          }
          err.println(TargetSpec.redact(msg.toString()));
          err.flush();
          return 2;
        });
    cl.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          PrintWriter err = commandLine.getErr();
          int code;
          if (ex instanceof UsageException) {
            err.println("wg1bench: " + ex.getMessage());
            code = 2;
          } else if (ex instanceof RunFailure) {
            err.println("wg1bench: " + ex.getMessage());
            code = 1;
          } else {
            err.println("wg1bench: unexpected failure: " + ex);
            ex.printStackTrace(err);
            code = 1;
          }
          err.flush();
          return code;
        });
    return cl;
  }

  /** Version from the build, with what it bundles. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {
        "wg1bench " + BuildInfo.version(),
        "JMH " + BuildInfo.jmh() + ", embedded PostgreSQL " + BuildInfo.embeddedBinaries(),
        "pgjdbc " + DriverInfo.DRIVER_VERSION
      };
    }
  }
}
