package dev.wg1bench.plan;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A run over several targets and knob values: one {@link RunPlan} per point, each run {@code
 * repeat} times, in an order that is shuffled by default (the seeds randomized the order of
 * versions and client counts to cancel order effects, 2020 §4.4), with the seeds' hygiene between
 * trials (checkpoint, vacuum or re-initialization, 2015 §3.3, 2020 §4.6).
 *
 * @param points every combination of the swept values, each a single-valued plan and its target
 * @param repeat trials per point
 * @param order random (reproducible with {@code seed}) or sequential (round after round)
 * @param seed seed of the shuffle
 * @param between what to do before each trial
 * @param output JSON result path
 * @param given the trials in the order to run them, when a design fixes it (advise's blocks); null
 *     to derive the order from {@code order}
 */
public record Matrix(
    List<Point> points,
    int repeat,
    Order order,
    long seed,
    BetweenTrials between,
    Path output,
    List<TrialRef> given) {
  /** The most trials per point (--repeat), and of timed runs per measurement elsewhere. */
  public static final int MAX_REPEAT = 1000;

  /**
   * One combination of knob values on one target.
   *
   * @param labels extra keys for this point in results (e.g. advice=NAME, arm=baseline)
   */
  public record Point(RunPlan plan, TargetSpec target, Map<String, String> labels) {
    public Point(RunPlan plan, TargetSpec target) {
      this(plan, target, Map.of());
    }
  }

  /** One trial: which point, which repetition. */
  public record TrialRef(int point, int repeat) {}

  public enum Order {
    RANDOM,
    SEQUENTIAL,
    /** Given by the caller, trial by trial (randomized complete blocks). */
    BLOCKS
  }

  /** Hygiene before each trial; AUTO = checkpoint for workloads that write, nothing otherwise. */
  public enum BetweenTrials {
    AUTO,
    CHECKPOINT,
    VACUUM,
    REINIT,
    NONE
  }

  public Matrix(
      List<Point> points, int repeat, Order order, long seed, BetweenTrials between, Path output) {
    this(points, repeat, order, seed, between, output, null);
  }

  public Matrix {
    points = List.copyOf(points);
    given = given == null ? null : List.copyOf(given);
    if ((given == null) == (order == Order.BLOCKS)) {
      throw new IllegalArgumentException("a given trial order goes with Order.BLOCKS only");
    }
    if (points.isEmpty()) {
      throw new UsageException("nothing to run: the swept options give no point");
    }
    Checks.range("--repeat", repeat, 1, MAX_REPEAT);
    if ((long) points.size() * repeat > 10_000) {
      throw new UsageException(
          points.size()
              + " points x --repeat "
              + repeat
              + " is more than 10000 trials; sweep less");
    }
  }

  /** A plan on its targets, once each, in order: what a run without sweeps is. */
  public static Matrix of(RunPlan plan) {
    List<Point> points = new ArrayList<>();
    for (TargetSpec t : plan.targets()) {
      points.add(new Point(plan, t));
    }
    return new Matrix(points, 1, Order.SEQUENTIAL, 0, BetweenTrials.AUTO, plan.output());
  }

  /** Every (point, repeat) pair: round after round, shuffled with the seed, or as given. */
  public List<TrialRef> schedule() {
    if (given != null) {
      return given;
    }
    List<TrialRef> out = new ArrayList<>();
    for (int r = 1; r <= repeat; r++) {
      for (int p = 0; p < points.size(); p++) {
        out.add(new TrialRef(p, r));
      }
    }
    if (order == Order.RANDOM) {
      Collections.shuffle(out, new Random(seed));
    }
    return out;
  }

  /** Whether this is more than one trial, so results are summarized per point. */
  public boolean isSweep() {
    return points.size() * repeat > points.stream().map(p -> p.target().name()).distinct().count();
  }

  /** Targets in the order they first appear. */
  public List<TargetSpec> targets() {
    List<TargetSpec> out = new ArrayList<>();
    for (Point p : points) {
      if (out.stream().noneMatch(t -> t.key().equals(p.target().key()))) {
        out.add(p.target());
      }
    }
    return out;
  }
}
