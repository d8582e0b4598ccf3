package dev.wg1bench.replay.report;

import dev.wg1bench.ProcessCpu;
import dev.wg1bench.plan.RoundTrip;
import dev.wg1bench.plan.ThreadKind;
import dev.wg1bench.replay.capture.Capture;
import dev.wg1bench.replay.log.Problems;
import dev.wg1bench.replay.play.ReplayStats;
import dev.wg1bench.replay.play.TrialPlayer;
import dev.wg1bench.replay.play.Watchdog;
import dev.wg1bench.replay.result.ReplayJson;
import dev.wg1bench.replay.result.ReplayResult;
import dev.wg1bench.result.Machine;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.PerOp;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.workload.OpCounts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/**
 * Turns a capture and what its replay measured into a {@link ReplayResult}: the one place the
 * replay's figures take their JSON form; {@link ReplayReport} prints what this builds.
 */
public final class ReplayResults {
  private ReplayResults() {}

  public static ReplayResult result(
      String version,
      Instant started,
      String target,
      ReplayResult.Trial trial,
      List<String> logs,
      TrialPlayer.Config config,
      Capture capture,
      TrialPlayer.Outcome outcome,
      ServerInfo server,
      boolean sameHost) {
    ReplayStats s = outcome.stats();
    return new ReplayResult(
        "replay",
        version,
        started,
        target,
        trial.point(),
        trial.repeat(),
        trial.sequence(),
        logs,
        describe(config),
        captureInfo(capture),
        capture.dataChanges(),
        trial.fresh(),
        trial.warmup(),
        throughput(outcome.stats()),
        pace(capture, outcome),
        config.speed() != 0 ? lag(s, config.poolSize() != null) : null,
        clientCpu(outcome, sameHost),
        perOp(
            s.wireCopy(),
            s.statements.get(),
            new ConnectionFactory(config.target(), config.settings()).wireNotCounted()),
        fidelity(capture, s),
        s.outcomes.result(),
        order(config, s, outcome),
        config.poolSize() == null
            ? null
            : new ReplayResult.Pooling(
                config.poolMode().cliName(), config.poolSize(), s.rolledBack.get(), s.reset.get()),
        errors(capture, s),
        classes(s),
        outcome.progress(),
        outcome.stopped() ? "interrupted" : null,
        server,
        Machine.current());
  }

  /** What the target's catalog adds (see the replay guide: what the target's catalog adds). */
  private static final String PROOFS =
      "; an INSERT of plain values into a table with no key, foreign key, trigger, rule or"
          + " sequence waits for no DELETE, and a transaction's end is done once another session's"
          + " statement has changed, by its key, a row that transaction had changed";

  /** How the order between sessions was kept, and what it cost. */
  private static ReplayResult.Order order(
      TrialPlayer.Config config, ReplayStats s, TrialPlayer.Outcome outcome) {
    Watchdog w = outcome.watchdog();
    String model =
        config.poolSize() == null
            ? "starts in the log's order; a start waits for what ended before it in the log, and a"
                + " statement that can wait for a row lock for what ended before it got the lock"
                + " (a COMMIT or ROLLBACK once sent); a connection is opened ahead of its time by"
                + " the replay's own connect time, then takes its place in that order (at most "
                + TrialPlayer.MAX_AHEAD
                + " connections ahead of their place), an INSERT of plain values into such a table"
                + " keeps no place"
                + PROOFS
            : "a start waits for what ended before it in the log, and a statement that can wait"
                + " for a row lock for what ended before it got the lock (a COMMIT or ROLLBACK"
                + " once sent); starts are not ordered, as sessions queue for the pool"
                + PROOFS;
    return new ReplayResult.Order(
        model,
        s.orderWaits.get(),
        TrialPlayer.round(s.orderWaitedNanos.get() / 1e9),
        s.grantWaits.get(),
        TrialPlayer.round(s.grantWaitedNanos.get() / 1e9),
        w.gaveWay(),
        TrialPlayer.round(w.gaveWayNanos() / 1e9),
        w.gaveWayAt(),
        w.lockViews(),
        w.broken(),
        w.brokenAt(),
        s.handOffs[1].getTotalCount(),
        msOf(s.handOffs[1].getValueAtPercentile(50)),
        msOf(s.handOffs[1].getValueAtPercentile(99)),
        msOf(s.handOffs[0].getValueAtPercentile(99)),
        outcome.connectLeadNanos() < 0 ? null : TrialPlayer.round(outcome.connectLeadNanos() / 1e6),
        s.plainInserts,
        s.endsProven.get(),
        s.deadlocksResolved == 0
            ? null
            : new ReplayResult.Deadlocks(
                s.deadlocksResolved,
                s.deadlocksSteerable,
                ReplayStats.DEADLOCK_CHECK_MS,
                s.deadlockVictimsSteered.get(),
                s.deadlockPartnersLate.get(),
                s.deadlocksRaced,
                s.deadlocksNewcomers,
                s.deadlockPartnersUnseen.get()),
        s.rowOrdered);
  }

  /** What the logs held, what was left out and what could not be read. */
  private static ReplayResult.CaptureInfo captureInfo(Capture capture) {
    Problems p = capture.problems();
    return new ReplayResult.CaptureInfo(
        capture.formats(),
        capture.records(),
        TrialPlayer.round(capture.span().toNanos() / 1e9),
        capture.sessionsNotSelected(),
        capture.sessionsWithoutEnd(),
        capture.durationsLogged(),
        capture.leftOut(),
        p.skippedLines(),
        p.count(),
        p.messages());
  }

  /**
   * A trial's throughput as a run's: tps is transactions per second over the exact window from the
   * first statement's start to the last one's end; one replay per trial, so no error or interval.
   */
  private static Measurement.Throughput throughput(ReplayStats s) {
    double window = window(s);
    double tps = window > 0 ? TrialPlayer.round(s.transactions.get() / window) : 0;
    return new Measurement.Throughput(
        tps, null, ReplayJson.TPS_INTERVAL, tps, TrialPlayer.round(window), null);
  }

  /** Wall time against the captured span; what was sent, per second over the same window. */
  private static ReplayResult.Pace pace(Capture capture, TrialPlayer.Outcome outcome) {
    ReplayStats s = outcome.stats();
    double window = window(s);
    long statements = s.statements.get();
    return new ReplayResult.Pace(
        TrialPlayer.round(outcome.wallSeconds()),
        TrialPlayer.round(capture.span().toNanos() / 1e9),
        statements,
        s.transactions.get(),
        window > 0 ? TrialPlayer.round(statements / window) : 0);
  }

  /** Seconds from the first statement's start to the last one's end, 0 when none ran. */
  private static double window(ReplayStats s) {
    long first = s.firstStart.get();
    return first == Long.MAX_VALUE ? 0 : (s.lastEnd.get() - first) / 1e9;
  }

  /** The replay's own CPU time, per statement and as a share of this host's cores. */
  private static Measurement.ClientCpu clientCpu(TrialPlayer.Outcome o, boolean sameHost) {
    if (o.cpuNanos() < 0) {
      return null;
    }
    long statements = o.stats().statements.get();
    double coreNanos = o.wallSeconds() * 1e9 * ProcessCpu.cores();
    return new Measurement.ClientCpu(
        statements > 0
            ? Double.valueOf(TrialPlayer.round(o.cpuNanos() / 1000.0 / statements))
            : null,
        sameHost && coreNanos > 0 ? TrialPlayer.round(o.cpuNanos() / coreNanos) : null);
  }

  /**
   * Per replayed statement (a query string sent), from the sessions' sockets: round trips, bytes,
   * rows and the statements the server completed ({@link PerOp}, as a run's).
   */
  static PerOp perOp(OpCounts wire, long sent, String wireWhy) {
    return perOp(wire, sent, sent, wireWhy);
  }

  /**
   * The same figures over {@code ops} ops of the {@code sent} statements (an advise trial's op is a
   * transaction): the sockets' counts are over the statements sent on a counting connection, all of
   * them unless some socket did not count, and over the same share of the ops.
   */
  public static PerOp perOp(OpCounts wire, long sent, long ops, String wireWhy) {
    OpCounts over = wire.copy();
    if (sent > 0 && ops != sent) {
      over.wireOps = Math.round((double) wire.wireOps * ops / sent);
      over.protocolOps = Math.round((double) wire.protocolOps * ops / sent);
    }
    return PerOp.of(
        over,
        false,
        wireWhy,
        null,
        "server time not read: pg_stat_statements is read around a run's measured window, not a"
            + " replay");
  }

  /** How far the replay fell behind the log's timing (and waited for the pool, when pooled). */
  private static ReplayResult.Lag lag(ReplayStats s, boolean pooled) {
    Histogram h = s.lagCopy();
    Histogram w = s.poolWaitCopy();
    return new ReplayResult.Lag(
        msOf(h.getValueAtPercentile(50)),
        msOf(h.getValueAtPercentile(99)),
        msOf(h.getMaxValue()),
        pooled ? msOf(w.getValueAtPercentile(99)) : null,
        pooled ? msOf(w.getMaxValue()) : null);
  }

  /** The log's counts against the replay's. */
  private static List<ReplayResult.Fidelity> fidelity(Capture capture, ReplayStats s) {
    List<ReplayResult.Fidelity> fidelity = new ArrayList<>();
    fidelity.add(
        new ReplayResult.Fidelity(
            "sessions", (long) capture.sessions().size(), s.sessionsStarted.get()));
    fidelity.add(
        new ReplayResult.Fidelity(
            "sessions run to their end",
            capture.sessions().size() - capture.sessionsWithoutEnd(),
            s.sessionsCompleted.get()));
    fidelity.add(new ReplayResult.Fidelity("statements", capture.statements(), s.statements.get()));
    fidelity.add(
        new ReplayResult.Fidelity(
            "statements not replayable",
            capture.notReplayable(),
            s.outcomes.result().skippedTotal()));
    fidelity.add(
        new ReplayResult.Fidelity("transactions", capture.transactions(), s.transactions.get()));
    long logErrors = capture.logErrors().values().stream().mapToLong(Long::longValue).sum();
    fidelity.add(new ReplayResult.Fidelity("errors", logErrors, s.errorCount()));
    long affected = s.classes.values().stream().mapToLong(c -> c.rowsAffected).sum();
    long returned = s.classes.values().stream().mapToLong(c -> c.rowsReturned).sum();
    // PostgreSQL logs no row counts: the log side is unknown
    fidelity.add(new ReplayResult.Fidelity("rows affected", null, affected));
    fidelity.add(new ReplayResult.Fidelity("rows returned", null, returned));
    return fidelity;
  }

  /** Errors by SQLSTATE, in the log and on replay. */
  private static Map<String, ReplayResult.ErrorCount> errors(Capture capture, ReplayStats s) {
    Map<String, ReplayResult.ErrorCount> errors = new TreeMap<>();
    TreeSet<String> states = new TreeSet<>(capture.logErrors().keySet());
    states.addAll(s.errors.keySet());
    for (String st : states) {
      long r = s.errors.containsKey(st) ? s.errors.get(st).sum() : 0;
      errors.put(st, new ReplayResult.ErrorCount(capture.logErrors().getOrDefault(st, 0L), r));
    }
    return errors;
  }

  /** Per statement class, the classes that cost the most time first. */
  private static List<ReplayResult.ClassResult> classes(ReplayStats s) {
    List<ReplayResult.ClassResult> classes = new ArrayList<>();
    for (ReplayStats.ClassStats c : s.classes.values()) {
      synchronized (c) {
        classes.add(
            new ReplayResult.ClassResult(
                c.text,
                c.logCount,
                c.count,
                c.logErrors,
                c.errors,
                c.rowsAffected,
                c.rowsReturned,
                latency(c.latency),
                latency(c.logged)));
      }
    }
    // as pg_stat_statements is usually read
    classes.sort(
        Comparator.comparingDouble(
                (ReplayResult.ClassResult c) ->
                    c.replay() == null ? 0 : c.replay().meanMs() * c.replay().count())
            .reversed()
            .thenComparing(ReplayResult.ClassResult::text));
    return classes;
  }

  private static ReplayResult.Latency latency(AbstractHistogram h) {
    if (h.getTotalCount() == 0) {
      return null;
    }
    return new ReplayResult.Latency(
        h.getTotalCount(),
        TrialPlayer.round(h.getMean() / 1000),
        msOf(h.getValueAtPercentile(50)),
        msOf(h.getValueAtPercentile(99)),
        msOf(h.getMaxValue()));
  }

  private static double msOf(long micros) {
    return TrialPlayer.round(micros / 1000.0);
  }

  /** The replay's client settings, by name, as the result records them. */
  private static Map<String, String> describe(TrialPlayer.Config c) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("speed", c.speed() == 0 ? "max" : String.valueOf(c.speed()));
    m.put("poolSize", c.poolSize() == null ? "per session" : c.poolSize().toString());
    if (c.poolSize() != null) {
      m.put("poolMode", c.poolMode().cliName());
    }
    m.put("queryMode", c.settings().queryMode().cliName());
    if (c.threads() == ThreadKind.VIRTUAL) {
      m.put("threads", c.threads().cliName());
    }
    m.put(
        "isolation",
        c.settings().isolation() == null ? "default" : c.settings().isolation().cliName());
    c.settings().sessionSettings().forEach((k, v) -> m.put("set." + k, v));
    // every pgjdbc property the knobs set (a declared-once knob's too), by pgjdbc name, and the
    // round-trip time apart: its property is the line's argument, not a driver setting
    c.settings().driver().pgjdbc().forEach((k, v) -> m.put("jdbc." + k, v));
    if (!c.settings().driver().rtt().isZero()) {
      m.put("rtt", RoundTrip.text(c.settings().driver().rtt()));
    }
    c.mapDatabase().forEach((k, v) -> m.put("mapDatabase." + k, v));
    return m;
  }
}
