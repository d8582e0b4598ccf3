package dev.wg1bench.replay;

import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.ThreadKind;
import dev.wg1bench.replay.capture.Capture;
import dev.wg1bench.replay.play.DatabaseReset;
import dev.wg1bench.replay.play.PoolMode;
import dev.wg1bench.replay.play.ReplayStats;
import dev.wg1bench.replay.play.TrialPlayer;
import dev.wg1bench.replay.report.ReplayReport;
import dev.wg1bench.replay.report.ReplayResults;
import dev.wg1bench.replay.result.ReplayResult;
import dev.wg1bench.result.Latency;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.SameHost;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.server.Target;
import dev.wg1bench.server.Targets;
import java.io.OutputStream;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A replay as a source of trials: the same capture replayed once per cell (knob values, target,
 * repetition) in the order given, each from a restored target when --fresh asks. The replay command
 * runs its sweeps and side-by-side targets through it; an advise arm naming a log runs its blocks
 * through it and gets one {@link TrialResult} per trial for the existing verdicts.
 */
public final class ReplayTrials {
  /**
   * What every trial shares.
   *
   * @param speed as {@link TrialPlayer.Config#speed()}
   * @param fresh restores each target before each trial, null: the trials follow one another on the
   *     data the previous one left
   * @param warmup how long the log is played (half at --speed max) before the first trial, from a
   *     restored target and not measured (zero: none; only with fresh, which restores the target
   *     after it)
   */
  public record Shared(
      double speed,
      PoolMode poolMode,
      Map<String, String> mapDatabase,
      Duration progress,
      AtomicBoolean stop,
      DatabaseReset fresh,
      Duration warmup,
      String version,
      List<String> logs) {}

  /** One trial: its knob values (for the result), its started target, its client settings. */
  public record Cell(
      Map<String, String> point,
      int repeat,
      TargetSpec target,
      ClientSettings settings,
      Integer poolSize,
      ThreadKind threads) {}

  /** A trial that ran: its cell, its result, and the figures the verdicts need. */
  public record Done(Cell cell, ReplayResult result, TrialPlayer.Outcome outcome) {}

  private final Capture capture;
  private final Shared shared;
  private final PrintStream out;
  private final Map<String, TargetSpec> restored = new LinkedHashMap<>();
  private boolean warmedUp;
  private ReplayResult.Warmup warmup;

  public ReplayTrials(Capture capture, Shared shared, PrintStream out) {
    this.capture = capture;
    this.shared = shared;
    this.out = out;
  }

  /**
   * The server a trial replays into, its version and the settings that matter, as every result
   * records; null when it cannot be read (the replay's own connections then say why).
   */
  private static ServerInfo serverInfo(Cell c) {
    // on the tool's own pgjdbc, as the restore's: read between the warm-up and the trial
    try (Connection conn = new ConnectionFactory(c.target(), c.settings()).openOwn()) {
      return ServerInfo.read(conn);
    } catch (SQLException e) {
      return null;
    }
  }

  /** Runs the cells in order; stops before the next one when told to stop. */
  public List<Done> run(List<Cell> cells) throws InterruptedException {
    List<Done> done = new ArrayList<>();
    DatabaseReset fresh = shared.fresh();
    if (!cells.isEmpty() && !shared.stop().get()) {
      warmUp(cells.get(0));
    }
    for (Cell c : cells) {
      if (shared.stop().get()) {
        break;
      }
      if (cells.size() > 1) {
        out.printf("%ntrial %d of %d: %s%n", done.size() + 1, cells.size(), c.point());
      }
      if (fresh != null) {
        restored.put(c.target().name(), c.target());
        fresh.restore(c.target(), out);
      }
      TrialPlayer.Config config = config(c, shared.speed(), shared.stop());
      ServerInfo server = serverInfo(c);
      Instant started = Instant.now();
      TrialPlayer.Outcome o = new TrialPlayer(config, out).run(capture);
      ReplayResult.Trial trial =
          new ReplayResult.Trial(
              c.point(),
              c.repeat(),
              done.size() + 1,
              fresh == null ? null : fresh.describe(),
              warmup);
      ReplayResult r =
          ReplayResults.result(
              shared.version(),
              started,
              c.target().name(),
              trial,
              shared.logs(),
              config,
              capture,
              o,
              server,
              SameHost.of(c.target()));
      done.add(new Done(c, r, o));
    }
    return done;
  }

  /**
   * The client's warm-up, once before the first trial ({@code shared.warmup}, only with --fresh):
   * the log played into the first trial's target, pass after pass, each from the restored target,
   * for the first half of the warm-up's length at --speed max and for the rest at the trial's
   * speed; the target is restored again before the trial, and nothing of it is measured or kept but
   * its length, passes and statements. Why: a JVM's first seconds run the replay's paths and
   * pgjdbc's interpreted, then through C1. On a fsync-on capture of pgbench at 16 clients, the
   * first replay in a fresh JVM lagged 408 ms at p99 and cost 82 us of CPU a statement; the same
   * log replayed next in the same JVM 103 ms and 67 us, a third time 76 ms and 61 us
   * (bench/results/2026-12-06-replay-warmup.md). A short or paced log played once at max is over
   * before the JIT is: hence passes. Why the second half at the trial's speed: compiled code holds
   * only the branches and types its profile saw; the trial's waits for the clock, its lag and its
   * blocking socket reads, never taken at max, undid it at the trial's start, which then recompiled
   * while it lagged (bench/results/2026-12-06-replay-compiled-code.md). On a paced log that half is
   * played faster ({@link #laterSpeed}).
   */
  private void warmUp(Cell c) throws InterruptedException {
    if (warmedUp || shared.fresh() == null || shared.warmup().isZero()) {
      return;
    }
    warmedUp = true;
    restored.put(c.target().name(), c.target());
    // its restores, progress, report and errors are not the replay's: the trial after it says them
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    long t0 = System.nanoTime();
    long deadline = t0 + shared.warmup().toNanos();
    // the first half at --speed max (many statements, so the JIT compiles the hot paths), the
    // second at the trial's speed (its clock waits, its lag, its blocking reads): a path the trial
    // takes and the warm-up never did undoes the compiled code at the trial's start
    long half = t0 + shared.warmup().toNanos() / 2;
    long statements = 0;
    int passes = 0;
    // what the first half sent and in how long: the rate the later half's speed is taken from
    long atMax = 0;
    double maxSeconds = 0;
    double later = shared.speed();
    do {
      shared.fresh().restore(c.target(), quiet);
      boolean max = System.nanoTime() < half;
      if (!max && atMax > 0 && maxSeconds > 0 && later == shared.speed()) {
        later = laterSpeed(shared.speed(), logRate(), atMax / maxSeconds);
      }
      TrialPlayer.Outcome o = pass(c, max ? 0 : later, max ? half : deadline, quiet);
      statements += o.stats().statements.get();
      if (max) {
        atMax += o.stats().statements.get();
        maxSeconds += o.wallSeconds();
      }
      passes++;
    } while (System.nanoTime() < deadline && !shared.stop().get());
    double seconds = Math.round((System.nanoTime() - t0) / 1e6) / 1e3;
    warmup = new ReplayResult.Warmup(seconds, statements, passes, Math.round(later * 100) / 100.0);
    out.println(
        "warm-up: "
            + ReplayReport.warmupFigures(warmup)
            + "; the target is restored before the trial");
  }

  /**
   * The speed of the warm-up's later half: the trial's, or, where the log at that speed sends fewer
   * statements a second than half of what the first half sent at --speed max, the speed at which it
   * sends that half. Why: on a paced log (pgbench -R at 64 clients: 1,300 statements/s) five
   * seconds at the trial's speed ran each path a statement takes fewer times than C2 needs to
   * compile it again after the trial's waits had undone the first half's code, and the trial ran in
   * profiling code: 68-103 us of CPU a statement where a 40 s warm-up gave 47-59
   * (bench/results/2026-12-06-replay-warmup-pace.md). At half the rate reached at max the clock
   * still leads, so its waits, its lag and its blocking reads are the ones the trial takes.
   *
   * @param speed the trial's (0: --speed max, kept)
   * @param logRate the log's statements a second at speed 1
   * @param maxRate the statements a second the first half sent at --speed max
   */
  static double laterSpeed(double speed, double logRate, double maxRate) {
    double atSpeed = logRate * speed;
    return atSpeed > 0 && maxRate / 2 > atSpeed ? speed * maxRate / 2 / atSpeed : speed;
  }

  /** The log's statements a second at speed 1 (0 for a log without a span). */
  private double logRate() {
    double span = capture.span().toNanos() / 1e9;
    return span > 0 ? capture.statements() / span : 0;
  }

  /** One warm-up pass of the log at {@code speed}, stopped at the deadline or the user's stop. */
  private TrialPlayer.Outcome pass(Cell c, double speed, long deadline, PrintStream quiet)
      throws InterruptedException {
    AtomicBoolean stop = new AtomicBoolean();
    TrialPlayer.Config config = config(c, speed, stop);
    Thread timer = new Thread(() -> stopAt(stop, deadline), "wg1bench-replay-warmup");
    timer.setDaemon(true);
    timer.start();
    try {
      return new TrialPlayer(config, quiet).run(capture);
    } finally {
      stop.set(true);
      timer.join();
    }
  }

  /** A cell played at {@code speed} (0: max) until the log ends or {@code stop} is set. */
  private TrialPlayer.Config config(Cell c, double speed, AtomicBoolean stop) {
    return new TrialPlayer.Config(
        c.target(),
        c.settings(),
        speed,
        c.poolSize(),
        c.threads(),
        shared.poolMode(),
        shared.mapDatabase(),
        shared.progress(),
        stop);
  }

  /** Sets {@code stop} at the deadline, or as soon as the replay is told to stop. */
  private void stopAt(AtomicBoolean stop, long deadline) {
    long left;
    while (!stop.get() && !shared.stop().get() && (left = deadline - System.nanoTime()) > 0) {
      // a stop the user asks for (Ctrl-C) is seen within this bound
      LockSupport.parkNanos(Math.min(left, 50_000_000L));
    }
    stop.set(true);
  }

  /**
   * Drops the templates --fresh made, once every trial has run (an advise claim runs its blocks in
   * several batches, all from the one template made before the first).
   */
  public void close() {
    if (shared.fresh() != null) {
      restored.values().forEach(shared.fresh()::drop);
      restored.clear();
    }
  }

  /**
   * The trials of a matrix whose points are replays (an advise arm naming a log), in the matrix's
   * order; each becomes a {@link TrialResult} whose point carries the matrix point's labels
   * (advice, arm) and whose repeat is its block.
   */
  public List<TrialResult> runMatrix(Matrix m) throws InterruptedException {
    Map<String, Target> live = new LinkedHashMap<>();
    try {
      List<Cell> cells = new ArrayList<>();
      for (Matrix.TrialRef ref : m.schedule()) {
        Matrix.Point p = m.points().get(ref.point());
        Target t = live.get(p.target().key());
        if (t == null) {
          t = Targets.of(p.target());
          live.put(p.target().key(), t);
          t.start(connections(p.plan()), out);
        }
        Map<String, String> point = new LinkedHashMap<>(p.labels());
        point.put("target", t.spec().name());
        cells.add(
            new Cell(
                point,
                ref.repeat(),
                t.spec(),
                settings(p.plan()),
                p.plan().poolSize(),
                Knobs.threads(p.plan())));
      }
      List<TrialResult> trials = new ArrayList<>();
      List<Done> done = run(cells);
      for (Done d : done) {
        trials.add(trial(d, "replay of " + String.join(", ", shared.logs())));
      }
      // each trial's counts beside the log's: a verdict on a replay that fell short says so here
      ReplayReport.printTrials(done.stream().map(Done::result).toList(), out);
      return trials;
    } finally {
      live.values().forEach(Target::close);
    }
  }

  private int connections(RunPlan plan) {
    return plan.poolSize() != null ? plan.poolSize() : capture.concurrentSessions();
  }

  /** The driver and session knobs of a plan, as a replay applies them. */
  public static ClientSettings settings(RunPlan plan) {
    return new ClientSettings(
        plan.session().queryMode(),
        plan.session().isolation(),
        plan.sessionSettings(),
        plan.driver());
  }

  /** The replay's CPU per op (a transaction, failed or not) and its share of this host's cores. */
  private static Measurement.ClientCpu clientCpu(ReplayResult r, long attempted) {
    Measurement.ClientCpu c = r.clientCpu();
    if (c == null || c.clientCpuMicrosPerOp() == null) {
      return new Measurement.ClientCpu(null, null);
    }
    // the replay's is per statement sent; a trial's op is a transaction
    double cpuMicros = c.clientCpuMicrosPerOp() * r.pace().statements();
    return new Measurement.ClientCpu(
        attempted > 0 ? cpuMicros / attempted : null, c.clientCpuShare());
  }

  /**
   * A replay trial as a run's trial, for the verdicts: an op is a transaction (a block or a
   * statement outside one, as the fidelity table counts them), tps is transactions per second over
   * the exact window, the latency is every statement's (latencyFrom "statement"), failed ops are
   * the statements that failed beyond the log's own errors of their SQLSTATE; perOp, the sessions'
   * sockets' round trips, bytes, rows and completed statements per such op. A replay has no forks
   * or iterations: no tps interval within a trial, no server or client description.
   */
  static TrialResult trial(Done d, String dataset) {
    ReplayResult r = d.result();
    TargetSpec spec = d.cell().target();
    Instant end = r.started().plusNanos((long) (r.pace().wallSeconds() * 1e9));
    return new TrialResult(
        new TrialResult.Position(r.point(), r.repeat(), r.sequence()),
        new TrialResult.Subject(
            spec.name(), Targets.label(spec.kind()), spec.jdbcUrl(), null, 0, dataset),
        r.server(),
        null,
        measurement(d),
        List.of(),
        List.of(),
        List.of(),
        r.started().toString(),
        end.toString(),
        List.of(),
        null);
  }

  /** The replay's figures in a run's measurement: an op a transaction, a failure beyond the log. */
  private static Measurement measurement(Done d) {
    ReplayResult r = d.result();
    ReplayResult.Pace t = r.pace();
    Map<String, Long> failures = beyondTheLog(r);
    long errors = failures.values().stream().mapToLong(Long::longValue).sum();
    ReplayStats s = d.outcome().stats();
    return new Measurement(
        r.throughput(),
        new Measurement.Counts(
            t.transactions(),
            errors,
            0,
            0,
            failures,
            t.statements(),
            t.statementsPerSecond(),
            null),
        latencies(d),
        clientCpu(r, t.transactions() + errors),
        new Measurement.Series(List.of(r.throughput().tps()), List.of(), List.of(), null),
        new Measurement.WholeTrial(
            t.transactions(), errors, r.stoppedBy(), 0, null, null, null, null, 0),
        null,
        ReplayResults.perOp(
            s.wireCopy(),
            t.statements(),
            t.transactions() + errors,
            new ConnectionFactory(d.cell().target(), d.cell().settings()).wireNotCounted()),
        null,
        null);
  }

  /** Every statement's latency; the pool's wait and the lag behind the log where they apply. */
  private static Measurement.Latencies latencies(Done d) {
    ReplayStats s = d.outcome().stats();
    return new Measurement.Latencies(
        "statement",
        Latency.of(s.allLatency()),
        0,
        0,
        d.cell().poolSize() == null ? null : Latency.of(s.poolWaitCopy()),
        d.result().lag() != null ? Latency.of(s.lagCopy()) : null);
  }

  /**
   * The errors beyond the log's own, SQLSTATE by SQLSTATE: an error the capture had too is its
   * traffic replayed faithfully, not a failure of the replay (a gate would otherwise call every arm
   * of a log with an error in it broken).
   */
  private static Map<String, Long> beyondTheLog(ReplayResult r) {
    Map<String, Long> failures = new LinkedHashMap<>();
    r.errorsBySqlState()
        .forEach(
            (k, v) -> {
              if (v.replay() > v.log()) {
                failures.put(k, v.replay() - v.log());
              }
            });
    return failures;
  }
}
