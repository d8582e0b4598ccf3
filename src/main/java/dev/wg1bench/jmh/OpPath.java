package dev.wg1bench.jmh;

import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.workload.ErrorSamples;
import dev.wg1bench.workload.FailureKind;
import dev.wg1bench.workload.OpCounts;
import dev.wg1bench.workload.OpFailedException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.locks.LockSupport;

/**
 * The per-op path of {@link WorkloadBenchmark}: wait for the op's start, run it on the client's
 * connection (or a pooled one), count it in the window it completed in, then its success or
 * failure. It reads the benchmark's trial-wide settings and hands a stop to its lifecycle; the hot
 * path reads the clock twice, allocates nothing and takes no lock (see Client.using and
 * Client.recordLatency).
 */
final class OpPath {
  private final WorkloadBenchmark b;

  OpPath(WorkloadBenchmark b) {
    this.b = b;
  }

  /**
   * One op, in the steps a reader can follow: wait for its start, run it, count it in the window it
   * completed in, then its success or failure. The hot path reads the clock twice, allocates
   * nothing and takes no lock (see Client.using and Client.recordLatency).
   */
  void run(Client c) throws SQLException {
    if (b.stopping) {
      throw new OpFailedException(
          "stopped: another client failed under --exit-on-error or --exit-on-abort", null);
    }
    if (c.stoppedBy != null) {
      stoppedClient(c);
      return;
    }
    OpRun op = c.op;
    if (!thought(c)) {
      return;
    }
    long readyAt = c.notBefore;
    c.notBefore = 0;
    if (!begin(c, op, readyAt)) {
      return;
    }
    attempt(c, op);
    op.end(c.errors, System.nanoTime(), b.latencyLimitNanos);
    long think = op.ran ? c.session.thinkNanos() : 0;
    if (think > 0) {
      c.notBefore = op.done + think;
    }
    // the op's counts, whole: added once to each value that holds it, and nowhere by hand; its
    // script's part holds them too (the op's value is its script's), over the parts its session
    // recorded (commands, steps). The whole trial's value keeps no latencies (see OpCounts#add)
    OpCounts counts = op.counts;
    if (op.ran && c.scriptParts != null) {
      c.scriptParts[c.session.lastScriptIndex()].addCounts(counts);
    }
    c.all.add(counts);
    // counted by completion time: an op belongs to the window it finished in (MeasurementWindow)
    MeasurementWindow.Span span = b.window.current();
    boolean counted = span != null && span.contains(op.done);
    if (counted) {
      c.window.add(counts);
      countInWindow(c, op, span);
    }
    if (op.success) {
      succeeded(c, op, counted ? span : null);
    } else {
      failed(c, op);
    }
    if (b.progress != null) {
      (op.success ? b.progress.ok : b.progress.failed).increment();
      b.progress.retries.add(counts.retries);
      if (op.success) {
        b.progress.record(Math.max(1, op.latencyNanos / 1000));
      }
    }
  }

  /** A client that stopped: under --exit-on-abort it ends the run, else it idles. */
  private void stoppedClient(Client c) {
    if (b.exitOnAbort) {
      // pgbench --exit-on-abort: one aborted client ends the run, the others at their next op
      String why = "--exit-on-abort: client " + c.clientId() + " stopped: " + c.stoppedBy;
      b.stop(c, why);
      throw new OpFailedException(why, null);
    }
    idle(c);
  }

  /**
   * The think time the client's last op asked for, waited out before the next one begins; false
   * when the iteration ended first: the rest is waited in the next iteration, so that a think time
   * never holds JMH's iteration open (the invocation returns, counting nothing). A stop of the run
   * is seen within 100 ms.
   */
  private boolean thought(Client c) {
    if (c.notBefore == 0) {
      return true;
    }
    for (long now = System.nanoTime(); c.notBefore - now > 0; now = System.nanoTime()) {
      long toEnd = c.iterationEnd - now;
      if (toEnd <= 0 || b.stopping) {
        // JMH ends the iteration a moment after its time: don't spin meanwhile
        LockSupport.parkNanos(20_000_000L);
        return false;
      }
      LockSupport.parkNanos(Math.min(Math.min(c.notBefore - now, toEnd), 100_000_000L));
    }
    return true;
  }

  /**
   * The op's intended start: under --rate its scheduled time (not before {@code readyAt}, the end
   * of a think time: see {@link Arrivals}), waited for; else now. False when under --rate with a
   * latency limit it could not start in time and was skipped instead.
   */
  private boolean begin(Client c, OpRun op, long readyAt) {
    if (b.meanIntervalNanos <= 0) {
      op.begin(System.nanoTime(), -1);
      return true;
    }
    long intended = c.arrivals.next(b.meanIntervalNanos, readyAt, System.nanoTime());
    long wait;
    while ((wait = intended - System.nanoTime()) > 0) {
      LockSupport.parkNanos(wait);
    }
    long now = System.nanoTime();
    long lagNanos = now - intended;
    if (lagNanos > b.latencyLimitNanos) {
      // pgbench -R -L: an op that cannot even start within the limit is skipped, not run
      skipped(c, now, lagNanos);
      return false;
    }
    op.begin(intended, lagNanos);
    return true;
  }

  /** A skipped op: counted as skipped, and in the window with its lag when it falls inside. */
  private void skipped(Client c, long now, long lagNanos) {
    c.all.skipped++;
    if (b.progress != null) {
      b.progress.skipped.increment();
    }
    MeasurementWindow.Span span = b.window.current();
    if (span != null && span.contains(now)) {
      c.window.skipped++;
      c.lag.recordValue(Math.max(1, lagNanos / 1000));
      if (c.txLog != null && span.measured) {
        c.txLog.windowOpened(span.start);
        c.txLog.skipped(now, lagNanos / 1000);
      }
    }
  }

  /**
   * Runs the op's script on the client's connection, or on one leased from the pool; with none to
   * run it on, it fails as a connection failure. --exit-on-error stops the run here.
   */
  private void attempt(Client c, OpRun op) throws SQLException {
    try {
      Connection conn = c.conn;
      if (b.pool != null) {
        long t0 = System.nanoTime();
        conn = lease(c);
        if (conn != null) {
          op.waitNanos = System.nanoTime() - t0;
        }
      } else if (conn == null) {
        // never connected (or lost and not back yet): a failed op, then try again
        c.errors.failed(op.counts, FailureKind.CONNECTION);
        op.connected = false;
      }
      if (conn != null) {
        op.ran = true;
        op.success = runOn(c, conn, op.counts);
      }
    } catch (OpFailedException e) {
      b.stop(c, "--exit-on-error: " + e.getMessage());
      throw e;
    }
  }

  /** The script on {@code conn}, watched by the stall watchdog while it waits for the server. */
  private boolean runOn(Client c, Connection conn, OpCounts counts) throws SQLException {
    boolean success;
    boolean broken = false;
    c.using(conn);
    c.wire.before(conn);
    try {
      success = c.session.runOp(conn, counts, c.errors);
    } catch (OpFailedException e) {
      throw e;
    } catch (RuntimeException e) {
      broken = true;
      success = driverFailed(c, conn, counts, e);
    } finally {
      // before a pool's close, whose own reset is not the op's
      c.wire.after(counts, b.socketStatements);
      c.using(null);
      if (b.pool != null) {
        conn.close();
        if (broken) {
          // once handed back: evicting a connection still in use closes it twice, and HikariCP
          // logs a warning for the second
          b.pool.evictConnection(conn);
        }
      }
    }
    String stalled = c.stallNote;
    if (stalled != null) {
      c.stallNote = null;
      c.errors.error(FailureKind.CONNECTION, "stall", stalled, false);
    }
    return success;
  }

  /**
   * An unchecked exception out of the driver in the middle of an op. pgjdbc throws one when the
   * server answers a named statement it knows as row-less with rows ("Received resultset tuples,
   * but no field structure for them"): a transaction-mode pooler without statement tracking hands
   * the statement to a server connection where its name means another one. Let through, it ended
   * the whole run with no result. The connection's protocol state is lost, so it is aborted and
   * replaced at once (the pool evicts it), without the backoff and the outage of a connection the
   * server lost; the op fails, kind pooler behind --via, else other, with the exception named.
   */
  private boolean driverFailed(Client c, Connection conn, OpCounts counts, RuntimeException e) {
    FailureKind kind = b.viaPooler ? FailureKind.POOLER : FailureKind.OTHER;
    ErrorSamples s = c.errors;
    s.error(
        kind,
        "-",
        "driver error: " + e.getClass().getName() + ": " + ConnectionFactory.oneLine(e),
        false);
    s.failed(counts, kind);
    if (b.pool != null) {
      // the pool replaces it (see runOn)
      return false;
    }
    try {
      conn.abort(Runnable::run);
    } catch (SQLException | RuntimeException closing) {
      // already closed
    }
    // if it fails, the aborted connection stays: the next op fails on it and reconnects with
    // backoff
    c.reconnect();
    return false;
  }

  /** An op that completed inside the window: its transaction log line, lag and pool wait. */
  private void countInWindow(Client c, OpRun op, MeasurementWindow.Span span) {
    if (c.txLog != null && span.measured) {
      c.txLog.windowOpened(span.start);
      c.txLog.op(
          op.done,
          op.latencyNanos / 1000,
          c.session.lastScriptIndex(),
          op.success ? null : c.errors.lastFailed,
          op.lagNanos >= 0 ? op.lagNanos / 1000 : -1,
          op.counts.retries);
    }
    if (op.lagNanos >= 0) {
      c.lag.recordValue(Math.max(1, op.lagNanos / 1000));
    }
    if (op.waitNanos >= 0) {
      c.poolWait.recordValue(Math.max(1, op.waitNanos / 1000));
    }
  }

  /** A successful op; {@code span} is the window it counts in, null when it counts in none. */
  private void succeeded(Client c, OpRun op, MeasurementWindow.Span span) {
    if (c.down) {
      b.connectionBack(c);
    }
    if (span != null) {
      c.okIn(span.bin(op.done));
      c.recordLatency(Math.max(1, op.latencyNanos / 1000));
    }
  }

  /**
   * A failed op (counted with the op's counts): a connection failure marks an outage; an error that
   * won't heal stops the client, else a connection that may be dead is checked and reopened.
   */
  private void failed(Client c, OpRun op) {
    FailureKind kind = c.errors.lastFailed;
    if (kind == FailureKind.CONNECTION) {
      // every op that failed for want of a connection counts in the outage, those of a client with
      // none at all too (a reconnect that failed): left out, the outage they opened said "0 ops
      // failed" beside them, and the outages' ops fell short of the trial's failed ops
      b.tally.outages.failure(c);
    }
    if (b.stops.stopsOp(kind, c.errors.lastSqlState)) {
      b.clientStopped(c, c.errors.lastMessage);
    } else if (b.pool == null && (!op.connected || c.mayBeDead(kind))) {
      c.recoverIfDisconnected();
    }
  }

  /**
   * A stopped client waits out the iteration in one invocation (so JMH's count of invocations
   * hardly grows), watching for the moment no client is left, when the run ends: the report is
   * written first, then every client throws, which ends a fork; an in-process run ends the same way
   * (JmhLaunch reads the report when JMH returns no result).
   */
  private void idle(Client c) {
    while (true) {
      if (b.stops.noneLeft()) {
        b.allStopped();
        throw new OpFailedException(b.stops.allStopped(), null);
      }
      if (b.opsPerClient > 0) {
        // -t: a stopped client's remaining ops pass at once, so the window can close
        return;
      }
      long wait = c.iterationEnd - System.nanoTime();
      if (wait <= 0) {
        // JMH ends the iteration a moment after its time: don't spin meanwhile
        LockSupport.parkNanos(20_000_000L);
        return;
      }
      LockSupport.parkNanos(Math.min(wait, 50_000_000L));
    }
  }

  /**
   * A pooled connection; null (the op fails as a connection failure) if the pool cannot give one.
   */
  private Connection lease(Client c) {
    try {
      return b.pool.getConnection();
    } catch (SQLException e) {
      // said as the user set it up: HikariCP's own words name only its pool ("wg1bench-TARGET -
      // Connection is not available...")
      c.errors.error(
          FailureKind.CONNECTION,
          e.getSQLState(),
          "no connection from the pool of "
              + b.pool.getMaximumPoolSize()
              + " (--pool-size): "
              + e.getMessage(),
          false);
      c.errors.failed(c.op.counts, FailureKind.CONNECTION);
      LockSupport.parkNanos(100_000_000L);
      return null;
    }
  }
}
