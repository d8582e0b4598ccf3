package dev.wg1bench.replay.result;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.wg1bench.result.Machine;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.PerOp;
import dev.wg1bench.server.ServerInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The result of a replay, as JSON: what was replayed where and how, how fast, how late against the
 * log's timing, and how faithfully (the log's counts beside the replay's). A record of its own, not
 * a {@code Measurement}: a replay has no JMH trials or forks to fill one with.
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
 * @param warmup the client's warm-up before the replay's trials (--warmup): the log replayed at
 *     --speed max for up to that long from a restored target, not measured, so the JIT has compiled
 *     the replay's own paths and pgjdbc's before the log's clock starts; the same figure in every
 *     trial of the run; null when none ran (--warmup 0, no --fresh, results written before it)
 * @param throughput the trial's throughput as a run's ({@code Measurement.Throughput}): tps is
 *     transactions per second over the exact window from the first statement's start to the last
 *     one's end ({@code measuredSeconds}); one replay per trial, so no error or interval
 * @param pace wall time against the captured span, and the statements and transactions sent.
 *     Results written before 2026-12-06 held both in one {@code throughput} ({@code wallSeconds},
 *     {@code capturedSeconds}, {@code windowSeconds}, {@code statements}, {@code transactions},
 *     {@code statementsPerSecond}, {@code transactionsPerSecond}): {@link ReplayJson} reads them
 *     into these two
 * @param stoppedBy null when every session ran to its end, else why not (interrupted)
 * @param statementFidelity every statement's outcome against the log's: the verdict (exit 3 when
 *     any differs)
 * @param clientCpu the replaying client's own cost over the wall time, as a run's ({@code
 *     Measurement.ClientCpu}): this JVM's CPU time (all threads: sessions, driver, the order's
 *     hand-offs, JIT, GC) per op, a replay's op being a statement sent ({@code
 *     clientCpuMicrosPerOp}), and, when the target runs on this host so that client and server
 *     compete for the same cores, its share of all of them ({@code clientCpuShare}, 0.5 = half the
 *     machine; null for a server elsewhere); null where the JVM does not say. A replay that falls
 *     behind a capture made by a cheaper client says here whether it was bound by its own cost.
 *     Results written before 2026-12-05 held {@code cpuSeconds}, {@code microsPerStatement} and
 *     {@code share}: read now, their figures are null
 * @param perOp what one replayed statement carried on the wire, counted at each session's socket as
 *     a run's ops are ({@code measurement.perOp}'s figures, result.PerOp): a replay's op is one
 *     query string sent as the log holds it (a multi-statement string is one op, a failed one
 *     counts), so {@code roundTrips} is 1 for a statement sent alone and {@code statements} the
 *     statements the server completed per string sent; the connections' start-up and what the tool
 *     sends between statements (a pooled connection's reset) are no op's; {@code serverMs} is null
 *     (pg_stat_statements is not read around a replay)
 * @param order how the order between sessions was kept: waits it caused, waits broken
 * @param pooling with --pool-size: how sessions shared the pool and how each was cleaned up
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
    Warmup warmup,
    Measurement.Throughput throughput,
    Pace pace,
    Lag lag,
    @JsonIgnoreProperties(ignoreUnknown = true) Measurement.ClientCpu clientCpu,
    PerOp perOp,
    List<Fidelity> fidelity,
    StatementFidelity statementFidelity,
    Order order,
    Pooling pooling,
    Map<String, ErrorCount> errorsBySqlState,
    List<ClassResult> classes,
    List<Progress> progress,
    String stoppedBy,
    ServerInfo server,
    Machine machine) {

  /** Where a trial stands in a replay of several, and how its target was restored. */
  public record Trial(
      Map<String, String> point, int repeat, int sequence, String fresh, Warmup warmup) {
    /** A replay of one trial. */
    public static Trial single(String fresh) {
      return new Trial(Map.of(), 1, 1, fresh, null);
    }
  }

  /**
   * The warm-up before the trials: how long it played the log (the first half of that at --speed
   * max, the rest at {@code laterSpeed}), in how many passes (each from the restored target; a pass
   * is also stopped at the half and at --warmup), and the statements it sent; its figures are in no
   * other field.
   *
   * @param laterSpeed the speed of the later half: the trial's, or faster on a log that sends too
   *     few statements at it for the JIT (0: --speed max); null in results written before
   *     2026-12-06, whose later half ran at the trial's speed
   */
  public record Warmup(double seconds, long statements, int passes, Double laterSpeed) {}

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
   * The replay's own pace beside its throughput: its wall time from its start (the log's first
   * event) to its last session's end against the span the log captured, and what it sent over the
   * throughput's window (first statement's start to last one's end, {@code
   * throughput.measuredSeconds}). Not a {@code Measurement.Counts}: its failed ops, the failures
   * beyond the log's own, are the trial's verdict, not the player's.
   */
  public record Pace(
      double wallSeconds,
      double capturedSeconds,
      long statements,
      long transactions,
      double statementsPerSecond) {}

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

  /**
   * One statement whose outcome on replay differs from the log's.
   *
   * @param session the log's session id
   * @param where file:line of the statement in the log
   * @param log "ok" or the log's SQLSTATE ("?????" when the log carries none)
   * @param replay "ok", the server's SQLSTATE, "driver " + pgjdbc's, or "not run"
   * @param message the replay's error, first line
   */
  public record Divergence(
      String session,
      String where,
      String statement,
      String log,
      String replay,
      String cause,
      String message) {}

  /**
   * Statement by statement: how many were sent and compared, how many agreed, the divergences by
   * cause, the statements not sent on purpose by reason.
   *
   * @param compared statements sent and compared with the log
   * @param divergent statements whose outcome differs, including those never run because their
   *     session ended first
   * @param skipped statements not sent, by reason (not replayable as logged)
   * @param errorsWithoutSqlState errors that agreed only as errors: the log carries no SQLSTATE (a
   *     stderr log_line_prefix without %e)
   * @param sentTwice statements pgjdbc re-sent after a 26000 or cached-plan error: the server ran
   *     each twice
   * @param divergences the first 1000 divergences (the player keeps no more), in the order they
   *     happened
   * @param firstBySession each session's first divergence
   * @param pastedIds the capture's transaction ids pasted into statements and put as the replay's;
   *     null when the log shows none pasted (and in results written before this was)
   */
  public record StatementFidelity(
      long compared,
      long same,
      long divergent,
      Map<String, Long> divergentByCause,
      Map<String, Long> skipped,
      long skippedTotal,
      long errorsWithoutSqlState,
      long sentTwice,
      List<Divergence> divergences,
      List<Divergence> firstBySession,
      PastedIdCounts pastedIds) {}

  /**
   * Ids the capture's server gave that the log shows pasted into later statements (a client read
   * them and wrote them in, as psql's {@code \gset} does), sent as the replay's own: transaction
   * ids, the replay's read inside each such transaction, a query each; a session's temporary schema
   * named by its number ({@code pg_temp_3}), the replay session's own read when such a statement is
   * sent.
   *
   * @param ids the capture's transaction ids the log shows pasted
   * @param read the replay's own transaction ids read (one query each)
   * @param statementsTranslated statements sent with the replay's transaction ids in place of the
   *     capture's
   * @param tempSchemaStatements statements sent with the replay session's temporary schema in place
   *     of the capture's
   * @param statementsAsLogged statements holding a pasted id sent as logged: the replay had none
   *     for them (the transaction had failed, or had no id, or the session no temporary schema)
   */
  public record PastedIdCounts(
      int ids,
      long read,
      long statementsTranslated,
      long tempSchemaStatements,
      long statementsAsLogged) {}

  /**
   * The order between sessions (see the README's replay model): how many connections and statements
   * waited for another session beyond their time, and for how long in all (every wait, however it
   * ended); of those, statements that can wait for a row lock, held once started until what ended
   * before they got the lock had ended (so the server grants the row in the capture's order), and
   * how long they were held; waits let go at once because the server showed a lock cycle through
   * them (a row lock taken in another order than in the capture), how long they had waited in all,
   * and where the first were; how many times the server's lock view was read to look for such a
   * cycle (each a query, read only when the replay's own state shows a session inside its
   * transaction waiting on a running one); waits the watchdog broke after a second without
   * progress, by why (a pool smaller than the capture's concurrency, a row lock the capture did not
   * show), with where the first were; the hand-offs (waits another session's mark let pass, each a
   * thread woken by another), and their latency from the event waited on (the reply of the
   * statement waited for, or the start) to the woken session running again, p50 and p99, and of
   * that the wake alone (from the unpark), p99; without a pool, the longest a session's connection
   * was opened ahead of its time (the replay's own connect time, so it is open when the log says;
   * null with a pool and in results written before this figure was); INSERTs that kept no place
   * among the starts, their table plain in the target's catalog (no key, foreign key, trigger, rule
   * or sequence: see the replay guide), and transactions' ends a row lock's grant proved over
   * before their own session's reply (a statement that changed one row by its key came back while
   * the transaction that changed it before was still, for its own thread, waiting for its reply);
   * both null in results written before these figures were; the log's deadlocks whose victims the
   * replay steered ({@link Deadlocks}), null when the log shows none (and in results written before
   * this figure was); the waits the transactions' rows let go lower ({@code rowOrdered}: start
   * places, ends and grants waited for only up to the last transaction that shares a row, see the
   * replay guide), null in results written before it was counted.
   */
  public record Order(
      String model,
      long waits,
      double waitedSeconds,
      long lockGrantWaits,
      double lockGrantSeconds,
      long lockCycles,
      double lockCycleSeconds,
      List<String> lockCyclesAt,
      long lockViews,
      Map<String, Long> broken,
      List<String> brokenAt,
      long handOffs,
      double handOffP50Ms,
      double handOffP99Ms,
      double handOffWakeP99Ms,
      Double connectLeadMs,
      Long plainInserts,
      Long endsProven,
      Deadlocks deadlocks,
      Long rowOrdered) {}

  /**
   * The log's deadlocks and their victims: cycles the log shows (the victim's statement and, in
   * other sessions, those waiting in its cycle when it failed), whether the replay's role could
   * steer them (set deadlock_timeout), the victims sent after their cycle's other statements with
   * deadlock_timeout {@code victimCheckMs} so that their own check runs first, and of them those
   * sent before every other statement of their cycle was, their wait having run out; {@code raced}:
   * the cycles that followed an earlier deadlock in a race on the capture server the replay cannot
   * steer (its victim, retried at once, took a row before the statement the server had woken for
   * it: that statement then failed in the log and mostly succeeds replayed); {@code newcomers}: the
   * cycles after which a statement waiting in them lost its row, let go at the victim's error, to
   * another session's statement started after it (counted where the target's catalog names the
   * rows); both null in results written before these figures were; {@code partnersUnseen}: the
   * steered victims sent, their cycle's other statements sent, before the server showed each of
   * those waiting for its lock (the replay gave them up to the partners' own check to get there),
   * null in results written before it was counted.
   */
  public record Deadlocks(
      long cycles,
      boolean steerable,
      long victimCheckMs,
      long victimsSteered,
      long partnersLate,
      Long raced,
      Long newcomers,
      Long partnersUnseen) {}

  /**
   * @param mode session (a session holds one pooled connection from its start to its end) or
   *     transaction (a connection per transaction, as PgBouncer's transaction mode)
   * @param rolledBack sessions that ended inside a transaction block, rolled back before their
   *     connection went back to the pool
   * @param reset connections reset with DISCARD ALL before going back (session mode)
   */
  public record Pooling(String mode, int size, long rolledBack, long reset) {}
}
