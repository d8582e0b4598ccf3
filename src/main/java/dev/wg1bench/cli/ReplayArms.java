package dev.wg1bench.cli;

import dev.wg1bench.BuildInfo;
import dev.wg1bench.advise.Advice;
import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.replay.ReplayStage;
import dev.wg1bench.replay.ReplayTrials;
import dev.wg1bench.replay.capture.Capture;
import dev.wg1bench.replay.capture.CaptureBuilder;
import dev.wg1bench.replay.capture.Selection;
import dev.wg1bench.replay.play.DatabaseReset;
import dev.wg1bench.replay.play.PoolMode;
import dev.wg1bench.replay.report.ReplayReport;
import dev.wg1bench.run.BlockExperiment;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Advise arms that replay a server log ({@code --replay LOG} in a claim's options) instead of
 * running a workload: the claim's knobs (query mode, pool size, isolation, ...) apply to the
 * replay, each trial replays the whole log, and the blocks, order and verdicts are advise's own.
 */
final class ReplayArms {
  private final PrintStream out;
  private final List<ReplayTrials> opened = new ArrayList<>();
  private final Map<List<Path>, Capture> captures = new HashMap<>();

  /** What an advise arm adds to every arm's options, and a replay arm's own options. */
  private static final Set<String> ALLOWED =
      Set.of(
          "--duration",
          "--warmup",
          "--iterations",
          "--forks",
          "--random-seed",
          "--repeat",
          "--output",
          "--replay",
          "--speed",
          "--fresh");

  ReplayArms(PrintStream out) {
    this.out = out;
  }

  /** The log's capture, read once per claim file set. */
  private Capture capture(List<Path> logs) {
    return captures.computeIfAbsent(
        logs, l -> CaptureBuilder.readLogs(l, null, null, Selection.all()));
  }

  /**
   * A replay arm's one point per target: its plan holds the replay's knobs (the run's other
   * options, such as --clients or --workload, do not apply to a replay and are refused).
   */
  Matrix matrix(AdviceArms.Arm holder, List<TargetSpec> targets, Path out) {
    List<String> replayKnobs = new ArrayList<>();
    ReplayCommand.KNOBS.forEach(k -> replayKnobs.addAll(k.names()));
    for (var o : KeyValues.matched(holder.parsed)) {
      if (!ALLOWED.contains(o.longestName()) && !replayKnobs.contains(o.longestName())) {
        throw new UsageException(
            o.longestName()
                + " does not apply to a replay arm; it takes --replay, --speed, --fresh and "
                + String.join(", ", ReplayCommand.KNOBS.stream().map(k -> k.option()).toList()));
      }
    }
    int sessions = capture(holder.replay).sessions().size();
    List<ReplayStage.Combo> combos =
        ReplayCommand.combos(k -> holder.options.raw(k), targets.get(0), sessions);
    if (combos.size() != 1) {
      throw new UsageException("an arm must be one point, not a sweep");
    }
    List<Matrix.Point> points = new ArrayList<>();
    for (TargetSpec t : targets) {
      points.add(new Matrix.Point(combos.get(0).plan(), t));
    }
    return new Matrix(points, 1, Matrix.Order.SEQUENTIAL, 0, Matrix.BetweenTrials.NONE, out);
  }

  /** The claim's trial source when its arms replay a log, else null (the arms run workloads). */
  BlockExperiment.TrialSource source(Advice a, AdviceArms.Arm baseline, AdviceArms.Arm treatment) {
    if (baseline.replay.isEmpty() && treatment.replay.isEmpty()) {
      return null;
    }
    if (!baseline.replay.equals(treatment.replay) || !baseline.trial.sameAs(treatment.trial)) {
      throw new UsageException(
          "advice "
              + a.name()
              + ": both arms must replay the same log at the same --speed and --fresh; put them"
              + " in common");
    }
    double speed;
    try {
      speed = baseline.trial.rate();
    } catch (UsageException e) {
      throw new UsageException("advice " + a.name() + ": " + e.getMessage());
    }
    DatabaseReset fresh = DatabaseReset.parse(baseline.trial.fresh);
    Capture capture = capture(baseline.replay);
    out.printf("advice %s replays %s:%n", a.name(), baseline.replay);
    ReplayReport.printCapture(capture, out);
    if (capture.sessions().isEmpty()) {
      throw new UsageException(
          "advice " + a.name() + ": " + baseline.replay + " holds no client session to replay");
    }
    ReplayTrials trials =
        new ReplayTrials(
            capture,
            new ReplayTrials.Shared(
                speed,
                PoolMode.SESSION,
                Map.of(),
                Durations.parse(ReplayCommand.PROGRESS),
                new AtomicBoolean(),
                fresh,
                // the experiment's --warmup, once before the claim's first trial, where --fresh
                // restores the target after it
                fresh == null || baseline.options.timing.warmup == null
                    ? Duration.ZERO
                    : baseline.options.timing.warmup,
                BuildInfo.version(),
                baseline.replay.stream().map(Path::toString).toList()),
            out);
    opened.add(trials);
    return m -> {
      try {
        return trials.runMatrix(m);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RunFailure("replay interrupted", e);
      }
    };
  }

  /** Drops the templates --fresh made for the claims. */
  void close() {
    opened.forEach(ReplayTrials::close);
  }
}
