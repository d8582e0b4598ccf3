package dev.wg1bench.replay;

import dev.wg1bench.result.Machine;
import dev.wg1bench.server.ServerInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The result of a replay, as JSON: what was replayed where and how, how fast, how late against the
 * log's timing, and how faithfully (the log's counts beside the replay's). A record of its own, not
 * a {@code Measurement}: a replay has no JMH trials, forks or warmup to fill one with.
 *
 * @param kind always "replay", so a reader of results/ can tell it from a run
 * @param point the knob values of this trial when a replay sweeps knobs or targets (target,
 *     queryMode, ...), empty for a single replay
 * @param repeat 1-based repetition of the point (an advise block)
 * @param sequence 1-based position of this trial in the order they ran
 * @param settings the knobs in effect: speed, pool size, query mode, isolation, session settings,
 *     driver properties
 * @param dataChanges statements of the capture that change data or schema, by kind (INSERT, UPDATE,
 *     DELETE, DDL, ...): replaying them changes the target; empty when it only reads
 * @param fresh how the target was restored before this trial (--fresh), null when it was not
 * @param stoppedBy null when every session ran to its end, else why not (interrupted)
 */
public record ReplayResult(
    String kind,
    String version,
    Instant started,
    String target,
    Map<String, String> point,
    int repeat,
    int sequence,
    List<String> logs,
    Map<String, String> settings,
    CaptureInfo capture,
    Map<String, Long> dataChanges,
    String fresh,
    Throughput throughput,
    Lag lag,
    List<Fidelity> fidelity,
    Map<String, ErrorCount> errorsBySqlState,
    List<ClassResult> classes,
    List<Progress> progress,
    String stoppedBy,
    ServerInfo server,
    Machine machine) {

  /** Where a trial stands in a replay of several, and how its target was restored. */
  public record Trial(Map<String, String> point, int repeat, int sequence, String fresh) {
    /** A replay of one trial. */
    public static Trial single(String fresh) {
      return new Trial(Map.of(), 1, 1, fresh);
    }
  }

  /**
   * @param spanSeconds first event to last in the log
   * @param leftOut statements (or background records) left out, by reason
   * @param skippedLines physical log lines that could not be read
   * @param problems the first problems, "file:line: what"
   */
  public record CaptureInfo(
      Map<String, String> formats,
      long records,
      double spanSeconds,
      long sessionsNotSelected,
      long sessionsWithoutDisconnection,
      long statementsWithLoggedDuration,
      Map<String, Long> leftOut,
      long skippedLines,
      long problemCount,
      List<String> problems) {}

  /**
   * Rates over the exact window from the first statement's start to the last one's end; wall time
   * from the replay's start (the log's first event) to its last session's end.
   */
  public record Throughput(
      double wallSeconds,
      double capturedSeconds,
      double windowSeconds,
      long statements,
      long transactions,
      double statementsPerSecond,
      double transactionsPerSecond) {}

  /**
   * How late statements started against the log's timing divided by the speed (null with --speed
   * max); the wait for a pooled connection is part of it and also shown apart.
   */
  public record Lag(
      double p50Ms, double p99Ms, double maxMs, Double poolWaitP99Ms, Double poolWaitMaxMs) {}

  /** One line of the fidelity table: a count in the log beside the replay's. */
  public record Fidelity(String what, Long log, long replay) {}

  public record ErrorCount(long log, long replay) {}

  /** Latency of one statement class (mean, p50, p99, max in ms), null where nothing was timed. */
  public record Latency(long count, double meanMs, double p50Ms, double p99Ms, double maxMs) {}

  /**
   * @param text normalized statement text, constants as $n
   * @param log the log's own durations of the class, when it logged durations
   */
  public record ClassResult(
      String text,
      long logCount,
      long replayCount,
      long logErrors,
      long replayErrors,
      long rowsAffected,
      long rowsReturned,
      Latency replay,
      Latency log) {}

  /** One progress line: counts over the exact interval that ended {@code seconds} in. */
  public record Progress(
      double seconds,
      double intervalSeconds,
      long statements,
      long transactions,
      long errors,
      double statementsPerSecond,
      double transactionsPerSecond,
      long activeSessions) {}
}
