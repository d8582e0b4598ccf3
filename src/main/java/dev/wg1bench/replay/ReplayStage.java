package dev.wg1bench.replay;

import dev.wg1bench.json.Json;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.replay.capture.Capture;
import dev.wg1bench.replay.capture.CaptureBuilder;
import dev.wg1bench.replay.capture.Replayable;
import dev.wg1bench.replay.capture.Selection;
import dev.wg1bench.replay.log.LogFormat;
import dev.wg1bench.replay.play.DatabaseReset;
import dev.wg1bench.replay.report.ReplayReport;
import dev.wg1bench.replay.report.ReplayTables;
import dev.wg1bench.replay.report.ReplayVerdict;
import dev.wg1bench.replay.result.ReplayResult;
import dev.wg1bench.replay.result.ReplaySweep;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.Target;
import dev.wg1bench.server.Targets;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;

/**
 * The replay stage's entry, what {@code wg1bench replay} calls once its options are parsed: the
 * logs read into a capture (printed; a dry run ends there), the targets started and checked, one
 * trial per combination of the swept knobs on each target, each result printed as it ends, and the
 * JSON, CSV and HTML written, a Ctrl-C included.
 */
public final class ReplayStage {
  /** One combination of the swept knobs: its labels and what a replay takes from its plan. */
  public record Combo(
      RunPlan plan,
      Map<String, String> labels,
      ClientSettings settings,
      Integer poolSize,
      int connections) {}

  /**
   * The files a replay writes: the JSON always, the CSV (and its fidelity file) and HTML if asked.
   */
  public record Outputs(Path json, Path csv, Path html) {
    /** Every file, in the order they are written. */
    public List<Path> all() {
      List<Path> out = new ArrayList<>(List.of(json));
      if (csv != null) {
        out.add(csv);
        out.add(ReplayTables.fidelityFile(csv));
      }
      if (html != null) {
        out.add(html);
      }
      return out;
    }
  }

  /**
   * A replay as the command asked for it, every option checked. {@code combos} gives the knobs'
   * combinations for a number of sessions (a pool larger than the sessions is pointless), known
   * once the logs are read; {@code speed} is the option's text, {@code rate} its value (0 for max).
   */
  public record Request(
      List<Path> logs,
      LogFormat format,
      String linePrefix,
      Selection selection,
      boolean skipCopyBlocks,
      boolean dryRun,
      List<TargetSpec> targets,
      IntFunction<List<Combo>> combos,
      String speed,
      ReplayTrials.Shared shared,
      Outputs outputs) {}

  /** How a replay ended: stopped by Ctrl-C, and whether some statement's outcome diverged. */
  public record Ending(boolean stopped, boolean diverged) {}

  private final Request r;
  private final PrintStream out;

  private ReplayStage(Request r, PrintStream out) {
    this.r = r;
    this.out = out;
  }

  /** Runs the replay {@code r} asks for, printing to {@code out}. */
  public static Ending run(Request r, PrintStream out) throws InterruptedException {
    return new ReplayStage(r, out).run();
  }

  private Ending run() throws InterruptedException {
    Capture capture = capture();
    if (r.dryRun()) {
      return new Ending(false, false);
    }
    DatabaseReset restore = r.shared().fresh();
    List<Combo> combos = r.combos().apply(capture.sessions().size());
    if (combos.size() * r.targets().size() > 1
        && restore == null
        && !capture.dataChanges().isEmpty()) {
      out.println("note: without --fresh each trial starts from the data the one before it left");
    }
    AtomicBoolean stop = r.shared().stop();
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
    List<Target> live = new ArrayList<>();
    try {
      List<ReplayTrials.Cell> cells = cells(combos, capture, live);
      announce(capture, cells.size());
      List<ReplayResult> results = replay(capture, cells);
      write(results);
      return new Ending(stop.get(), results.stream().anyMatch(ReplayVerdict::diverged));
    } finally {
      live.forEach(Target::close);
      written.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // shutting down already (Ctrl-C): the hook is running and has just been released
      }
    }
  }

  private void announce(Capture capture, int trials) {
    DatabaseReset restore = r.shared().fresh();
    out.printf(
        "replaying %d sessions at %s, %d trial(s)%s%n",
        capture.sessions().size(),
        r.shared().speed() == 0 ? "max speed" : "speed " + r.speed(),
        trials,
        restore == null ? "" : ", each from a fresh target (" + restore.describe() + ")");
    if (restore != null) {
      out.println(
          "note: --fresh restores the target's database only; roles, tablespaces and other"
              + " databases are cluster-wide and stay as each trial leaves them");
    }
  }

  /**
   * The sessions the logs hold and the selection keeps, printed; none is a usage error, for a dry
   * run as for a replay.
   */
  private Capture capture() {
    Selection selection = r.selection();
    Capture capture = CaptureBuilder.readLogs(r.logs(), r.format(), r.linePrefix(), selection);
    if (r.skipCopyBlocks()) {
      capture = capture.skippingCopyBlocks();
    }
    ReplayReport.printCapture(capture, out);
    if (Replayable.anyCopyIn(capture)) {
      out.println(
          "  COPY FROM STDIN: "
              + (r.skipCopyBlocks()
                  ? "each transaction block holding one is skipped whole (--copy-from-stdin"
                      + " skip-block)"
                  : "the COPY is skipped and its block goes on without the rows (default;"
                      + " --copy-from-stdin skip-block skips the whole block)"));
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
    return capture;
  }

  /** Starts each target (added to {@code live} to be closed) and makes its trials, one a combo. */
  private List<ReplayTrials.Cell> cells(List<Combo> combos, Capture capture, List<Target> live) {
    List<TargetSpec> specs = r.targets();
    List<ReplayTrials.Cell> cells = new ArrayList<>();
    int most = combos.stream().mapToInt(Combo::connections).max().orElse(1);
    for (TargetSpec s : specs) {
      Target target = Targets.of(s);
      live.add(target);
      target.start(most, out);
      TargetSpec spec = target.spec();
      check(spec, combos.get(0).settings(), capture);
      for (Combo c : combos) {
        Map<String, String> point = new LinkedHashMap<>();
        if (specs.size() > 1) {
          point.put("target", spec.name());
        }
        point.putAll(c.labels());
        cells.add(
            new ReplayTrials.Cell(
                point, 1, spec, c.settings(), c.poolSize(), Knobs.threads(c.plan())));
      }
    }
    return cells;
  }

  /** Runs the trials in order, printing each result as it ends, and the sweep's table after. */
  private List<ReplayResult> replay(Capture capture, List<ReplayTrials.Cell> cells)
      throws InterruptedException {
    List<ReplayResult> results = new ArrayList<>();
    ReplayTrials replay = new ReplayTrials(capture, r.shared(), out);
    try {
      for (ReplayTrials.Done d : replay.run(cells)) {
        ReplayReport.print(d.result(), out);
        results.add(d.result());
      }
    } finally {
      replay.close();
    }
    if (results.size() > 1) {
      ReplayReport.printTrials(results, out);
    }
    return results;
  }

  /** The JSON (one replay as it always was, several as a sweep), and the CSV and HTML asked for. */
  private void write(List<ReplayResult> results) {
    Outputs o = r.outputs();
    Object json = results.size() == 1 ? results.get(0) : ReplaySweep.of(results);
    out.println("result written to " + Json.write(json, o.json()));
    if (o.csv() != null) {
      ReplayTables.writeCsv(results, o.csv());
      out.println("csv written to " + o.csv() + " and " + ReplayTables.fidelityFile(o.csv()));
    }
    if (o.html() != null) {
      ReplayTables.writeHtml(results, o.html());
      out.println("html written to " + o.html());
    }
  }

  /** One connection per target database before anything replays: a bad URL fails here, once. */
  private void check(TargetSpec spec, ClientSettings settings, Capture capture) {
    Map<String, String> mapDatabase = r.shared().mapDatabase();
    Set<String> dbs = new LinkedHashSet<>();
    capture.sessions().forEach(s -> dbs.add(mapDatabase.get(s.database())));
    for (String db : dbs) {
      TargetSpec t = spec.inDatabase(db);
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
}
