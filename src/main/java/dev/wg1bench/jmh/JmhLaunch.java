package dev.wg1bench.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.fork.ForkReport;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.ThreadKind;
import dev.wg1bench.plan.Timing;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs one {@link TrialSpec} through JMH's Runner API. Every option is set explicitly from the
 * plan: JMH's defaults (5 forks, 5 × 10 s iterations) are not what a user asked for.
 */
public final class JmhLaunch {
  private JmhLaunch() {}

  /**
   * JMH's result (null if the run stopped early), the forks' own reports, and the progress points
   * printed during the run (empty without --progress).
   */
  public record Outcome(RunResult jmh, List<ForkReport> forks, List<JsonNode> progress) {}

  public static Outcome run(TrialSpec trial, boolean verbose, PrintStream console) {
    Interrupt.arm();
    RunPlan p = trial.plan();
    Timing t = p.timing();
    ChainedOptionsBuilder ob = options(trial, verbose);
    if (t.forks() == 0) {
      // in-process run (tests, the Java API): the benchmark reads the trial from this property
      System.setProperty(TrialSpec.PROPERTY, trial.file().toString());
      inProcessThreads(Knobs.threads(p));
    }
    // JMH serialises every benchmark on the machine through one lock file in java.io.tmpdir, so a
    // second wg1bench (or the test suite beside a run) failed with "Unable to acquire the JMH
    // lock". Runs against a database share the machine by the user's choice; each trial already
    // has its own directory, so nothing else of JMH's is shared between processes.
    System.setProperty("jmh.ignoreLock", "true");
    Collection<RunResult> results;
    ProgressTail tail = t.progress() != null ? new ProgressTail(trial.dir(), console) : null;
    List<JsonNode> points = List.of();
    try {
      results = runJmh(ob, t.forks() == 0, console);
    } catch (RunnerException e) {
      throw new RunFailure("JMH could not run the benchmark: " + e.getMessage(), e);
    } finally {
      if (tail != null) {
        points = tail.finish();
      }
    }
    if (t.forks() == 0 && results.isEmpty()) {
      forgetInProcessState();
    }
    List<ForkReport> forks = readForkReports(trial.dir());
    if (forks.isEmpty()) {
      if (Interrupt.requested()) {
        throw new RunFailure("interrupted before the trial had measured anything");
      }
      throw new RunFailure(
          "the benchmark produced no measurements (a client could not connect or prepare its"
              + " session; run with --verbose to see JMH's output)");
    }
    checkThreads(Knobs.threads(p), forks);
    RunResult r = results.isEmpty() ? null : results.iterator().next();
    return new Outcome(r, forks, points);
  }

  /** JMH's options, every one set from the plan. */
  private static ChainedOptionsBuilder options(TrialSpec trial, boolean verbose) {
    Timing t = trial.plan().timing();
    long warmupMs = t.warmup().toMillis();
    ChainedOptionsBuilder ob =
        new OptionsBuilder()
            .include(WorkloadBenchmark.class.getName() + ".op$")
            .threads(trial.plan().clients())
            .forks(t.forks())
            .warmupIterations(warmupMs > 0 ? 1 : 0)
            .warmupTime(TimeValue.milliseconds(Math.max(warmupMs, 1)))
            .measurementIterations(t.iterations())
            .measurementTime(TimeValue.milliseconds(t.iterationTime().toMillis()))
            // an op can block for as long as the server stalls; JMH must not kill the iteration
            .timeout(TimeValue.minutes(30))
            .shouldFailOnError(false)
            .verbosity(verbose ? VerboseMode.NORMAL : VerboseMode.SILENT)
            .jvmArgsAppend(jvmArgs(trial).toArray(new String[0]));
    if (t.countsOps()) {
      // pgbench -t: each client runs its N ops in one single shot and JMH waits for the last;
      // the window is opened when every client is connected and closed by the last to finish
      ob.mode(Mode.SingleShotTime)
          .warmupIterations(0)
          .measurementIterations(1)
          .measurementBatchSize((int) Math.min(Integer.MAX_VALUE, t.transactions()))
          // no duration bounds the shot: only JMH's iteration timeout would end it early
          .timeout(TimeValue.hours(24 * 7));
    }
    return ob;
  }

  /**
   * Every fork ran its clients on the thread kind asked for: an in-process run cannot change JMH's
   * executor once this JVM has set it, and a result measured on the other kind would be
   * mislabelled.
   */
  private static void checkThreads(ThreadKind asked, List<ForkReport> forks) {
    for (ForkReport f : forks) {
      if (!asked.cliName().equals(f.threads)) {
        throw new RunFailure(
            "--threads "
                + asked.cliName()
                + ": the clients ran on "
                + f.threads
                + " threads (JMH's executor of this JVM was set to "
                + System.getProperty(EXECUTOR, "PLATFORM")
                + " before wg1bench's first in-process run; use --forks 1 or more)");
      }
    }
  }

  /** JMH's system property naming its executor type: PLATFORM, VIRTUAL, FJP or CUSTOM. */
  static final String EXECUTOR = "jmh.executor";

  /** Arguments of a forked JVM: where the trial is, the clients' stack, their thread kind. */
  static List<String> jvmArgs(TrialSpec trial) {
    List<String> args = new ArrayList<>();
    args.add("-D" + TrialSpec.PROPERTY + "=" + trial.file());
    args.add("-Xss512k");
    // -Xrs: a Ctrl-C (or the parent's SIGTERM, see Interrupt) ends the fork at once; JMH's own
    // handler would print a stack trace ("VM prematurely exited") for a user's stop
    args.add("-Xrs");
    if (Runtime.version().feature() >= 24) {
      // JMH 1.37 reads field offsets through sun.misc.Unsafe: Java 24+ warns on every fork
      // (JEP 498) unless the access is allowed
      args.add("--sun-misc-unsafe-memory-access=allow");
    }
    if (Knobs.threads(trial.plan()) == ThreadKind.VIRTUAL) {
      // JMH 1.37 runs its worker threads as virtual threads in the fork (a fixed pool of them)
      args.add("-D" + EXECUTOR + "=VIRTUAL");
      // -Dwg1bench.pins=false leaves JFR off in the fork, to measure what counting pins costs
      args.add("-Dwg1bench.pins=" + System.getProperty("wg1bench.pins", "true"));
    }
    return args;
  }

  /**
   * JMH reads {@code jmh.executor} once per JVM, at its first run, so in-process runs on a Java 21+
   * runtime all go through {@link ClientExecutor}, which takes the thread kind per trial: a sweep
   * of platform,virtual then runs both in one JVM. On Java 17 JMH's default executor stays.
   */
  static void inProcessThreads(ThreadKind kind) {
    if (Runtime.version().feature() >= ThreadKind.VIRTUAL_SINCE
        && System.getProperty(EXECUTOR) == null) {
      System.setProperty(EXECUTOR, "CUSTOM");
      System.setProperty("jmh.executor.class", ClientExecutor.class.getName());
    }
    System.setProperty(ClientExecutor.PROPERTY, kind.cliName());
  }

  /**
   * JMH's run. In-process, a benchmark whose every thread ended with an exception (all clients
   * stopped, or --exit-on-error) leaves JMH 1.37's embedded runner with no iteration result, and it
   * fails with an IndexOutOfBoundsException of its own: that is "no result", and the fork's report,
   * written before the clients threw, says why.
   */
  private static Collection<RunResult> runJmh(
      ChainedOptionsBuilder ob, boolean inProcess, PrintStream console) throws RunnerException {
    Options o = ob.build();
    // JMH's lines (--verbose) go to the run's console, not to System.out: a command's output is
    // its own (two in one JVM print each to theirs), and the Java API's is the stream it was given
    Runner runner =
        new Runner(
            o,
            OutputFormatFactory.createFormatInstance(
                unclosed(console), o.verbosity().orElse(VerboseMode.NORMAL)));
    if (!inProcess) {
      return runner.run();
    }
    try {
      return runner.run();
    } catch (IndexOutOfBoundsException | IllegalStateException e) {
      return List.of();
    }
  }

  /**
   * {@code console} for JMH, which closes its output at the end of a run: the console outlives it.
   * The platform's charset, as System.out's and JMH's own choice of it.
   */
  private static PrintStream unclosed(PrintStream console) {
    OutputStream kept =
        new OutputStream() {
          @Override
          public void write(int b) {
            console.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) {
            console.write(b, off, len);
          }

          @Override
          public void flush() {
            console.flush();
          }
        };
    return new PrintStream(kept, true, Charset.defaultCharset());
  }

  /**
   * When an in-process (forks 0) run fails, JMH skips the teardown that clears its generated
   * class's static benchmark state, and every later run in this JVM would reuse the dead one.
   * Clearing it keeps one failed run from failing all the next (tests, the Java API).
   */
  static void forgetInProcessState() {
    try {
      Class<?> generated =
          Class.forName("dev.wg1bench.jmh.jmh_generated.WorkloadBenchmark_op_jmhTest");
      for (Field f : generated.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) && f.getName().startsWith("f_workloadbenchmark")) {
          f.setAccessible(true);
          f.set(null, null);
        }
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      System.err.println("wg1bench: could not reset JMH's in-process state: " + e);
    }
  }

  static List<ForkReport> readForkReports(Path dir) {
    List<ForkReport> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f :
          files
              .filter(x -> x.getFileName().toString().matches("fork-.*\\.json"))
              .sorted()
              .toList()) {
        out.add(TrialSpec.JSON.readValue(f.toFile(), ForkReport.class));
      }
    } catch (NoSuchFileException e) {
      // the trial directory removed by the shutdown (SIGTERM, Ctrl-C): no report, and the caller
      // says the run was interrupted
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }
}
