package dev.wg1bench.workload;

import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import dev.wg1bench.server.wire.Wire;
import dev.wg1bench.server.wire.WireCounts;
import dev.wg1bench.server.wire.WireMark;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

/**
 * One client of a workload class ({@link JavaClassWorkload}): its instance of the user's class, its
 * random source, its op, whose steps it records as parts of the op's count value.
 */
final class JavaClassSession implements ClientSession, Op {
  private final JdbcWorkload w;
  private final ClientContext ctx;

  /** The class's name: its part of the op's value, the one "script" of the outline. */
  private final String label;

  private final Random random;
  private Connection connection;
  private boolean opened;

  /**
   * The steps' parts of the op value {@link #stepsOf} was last given, by name: its class's part's
   * parts, one per step this client has run, in the order first run (see {@link #step(String,
   * Callable)}); looked up by name per step, as a step is named per call.
   */
  private final Map<String, OpCounts> steps = new HashMap<>();

  private OpCounts stepsOf;

  /** The class's part of the op value in progress: its steps are its parts. */
  private OpCounts classPart;

  /** The step the last exception left, and that exception: a failure or retry is its step's. */
  private OpCounts thrownStep;

  private Throwable thrownFromStep;

  /** Steps running now (nested ones count), and whether the innermost reported a rollback. */
  private int depth;

  private boolean rolledBack;

  /** Whether a step of this try reported a rollback by design: the op, if it succeeds, is one. */
  private boolean tryRolledBack;

  /**
   * The connection's socket counts (server.wire), null where it does not count: a step's round
   * trips, bytes, statements and rows are what the socket saw while it ran ({@link WireShare}):
   * five reads of its counts before the step and five after, into a mark per depth of nesting, made
   * once.
   */
  private WireCounts wire;

  private WireMark[] marks = new WireMark[4];

  private Connection wireOf;

  /** The think time the op in progress asked for, in ns (see {@link #thinkNanos()}). */
  private long thinkNanos;

  /** The try of the op in progress, from 1. */
  private int attempt = 1;

  @Override
  public int attempt() {
    return attempt;
  }

  JavaClassSession(JdbcWorkload w, ClientContext ctx, String label) {
    this.w = w;
    this.ctx = ctx;
    this.label = label;
    this.random = new Random(ctx.clientSeed());
  }

  /** One "script", the class: its steps are its part's parts (see {@link #step}). */
  @Override
  public List<ScriptOutline> outline() {
    return List.of(new ScriptOutline(label, 1, List.of(), new int[0]));
  }

  @Override
  public OpParts opParts() {
    return OpParts.STEPS;
  }

  @Override
  public long thinkNanos() {
    return thinkNanos;
  }

  /**
   * The step's part of the op value: a workload class's steps are pgbench -r's per-statement
   * figures for code that is not a script. Recorded into the op's value as the step runs: its
   * latency each time it completes (a retried op's earlier attempts included), kept for the step's
   * histogram in µs ({@link OpCounts#completedKept}); a retry on the step whose exception caused
   * it, a failed op's failure on the step it failed in.
   */
  private OpCounts stepPart(String name) {
    OpCounts p = steps.get(name);
    if (p == null) {
      p = classPart.keptPart(name);
      steps.put(name, p);
    }
    return p;
  }

  @Override
  public void step(String name, Step step) throws Exception {
    step(
        name,
        () -> {
          step.run();
          return null;
        });
  }

  @Override
  public <T> T step(String name, Callable<T> step) throws Exception {
    OpCounts s = stepPart(name);
    rolledBack = false;
    depth++;
    // the socket's counts before the step, one mark per depth: steps nest
    WireCounts w = wire;
    WireMark mark = null;
    if (w != null) {
      if (depth > marks.length) {
        marks = Arrays.copyOf(marks, 2 * depth);
      }
      mark = marks[depth - 1];
      if (mark == null) {
        mark = new WireMark();
        marks[depth - 1] = mark;
      }
      mark.take(w);
    }
    long t0 = System.nanoTime();
    T value;
    try {
      value = step.call();
    } catch (Exception | Error e) {
      // an enclosing step rethrowing it keeps the innermost step, where it was thrown
      if (thrownFromStep != e) {
        thrownStep = s;
        thrownFromStep = e;
      }
      throw e;
    } finally {
      depth--;
      if (w != null) {
        WireShare.add(s, mark, w, true);
      }
    }
    // the report belongs to the step it was made in, not to one enclosing it
    s.completedKept(System.nanoTime() - t0);
    if (rolledBack) {
      s.rolledBack++;
    }
    rolledBack = false;
    return value;
  }

  @Override
  public void thinkTime(Duration time) {
    thinkNanos = time == null || time.isNegative() ? 0 : time.toNanos();
  }

  @Override
  public void rolledBackByDesign() {
    if (depth == 0) {
      throw new IllegalStateException(
          "rolledBackByDesign() counts on a step: call it inside op.step(name, ...)");
    }
    rolledBack = true;
    tryRolledBack = true;
  }

  /** The step {@code thrown} came out of, null when it came from outside any step. */
  private OpCounts stepOf(Throwable thrown) {
    for (Throwable c = thrown; c != null; c = c.getCause()) {
      if (c == thrownFromStep) {
        return thrownStep;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return null;
  }

  @Override
  public boolean runOp(Connection conn, OpCounts op, ErrorSamples errors) throws SQLException {
    bind(conn, op);
    if (!opened && !open(op, errors)) {
      return false;
    }
    for (int attempt = 1; ; attempt++) {
      Throwable thrown = tryOnce(attempt);
      if (thrown == null) {
        return succeeded(conn, op, errors, attempt);
      }
      Rollback.ifNeeded(conn);
      SQLException sql = sqlCause(thrown);
      FailureKind kind = sql != null ? FailureKind.of(sql) : FailureKind.OTHER;
      boolean retry = kind.retryable() && attempt < ctx.maxTries();
      String message = firstLine(thrown);
      OpCounts step = stepOf(thrown);
      if (retry) {
        errors.error(kind, sql.getSQLState(), message, true);
        op.retries++;
        if (step != null) {
          step.retries++;
        }
        continue;
      }
      if (step != null) {
        step.failed++;
      }
      return failed(op, errors, kind, sql == null ? null : sql.getSQLState(), message, thrown);
    }
  }

  /** This op's connection and count, and what the session keeps of them between ops. */
  private void bind(Connection conn, OpCounts op) {
    if (conn != wireOf) {
      // a pool's is a new proxy on every lease: looked up again, as jmh/OpWire does
      wireOf = conn;
      wire = Wire.of(conn);
    }
    connection = conn;
    thinkNanos = 0;
    if (op != stepsOf) {
      stepsOf = op;
      steps.clear();
      classPart = op.part(label);
    }
  }

  /** One attempt of the user's op: what it threw, or null. */
  private Throwable tryOnce(int attempt) {
    thrownStep = null;
    thrownFromStep = null;
    tryRolledBack = false;
    this.attempt = attempt;
    try {
      w.op(this);
      return null;
    } catch (Exception | AssertionError e) {
      return e;
    }
  }

  /**
   * An op that returned: a success, unless it left something behind on the connection (a failure
   * then, as the next op would start inside it).
   */
  private boolean succeeded(Connection conn, OpCounts op, ErrorSamples errors, int attempt)
      throws SQLException {
    String left = leftBehind(conn);
    if (left != null) {
      return failed(op, errors, FailureKind.OTHER, null, left, null);
    }
    if (attempt > 1) {
      op.retriedOps++;
    }
    if (tryRolledBack) {
      // of the op's successes: one that committed nothing, however many steps said so
      op.rolledBack++;
    }
    return true;
  }

  /** The user's open hook, once per client; a hook that throws stops the client. */
  private boolean open(OpCounts op, ErrorSamples errors) {
    try {
      w.open(this);
      opened = true;
      return true;
    } catch (Exception | AssertionError e) {
      Rollback.ifNeeded(connection);
      // a hook that fails fails again: the client stops, as on a script error
      return failed(
          op,
          errors,
          FailureKind.SCRIPT,
          "-",
          "open() of " + label + " threw " + firstLine(e),
          null);
    }
  }

  private boolean failed(
      OpCounts op,
      ErrorSamples errors,
      FailureKind kind,
      String state,
      String message,
      Throwable cause) {
    // no SQLSTATE (an exception of the code's own, a transaction left open): "-", as a script's
    errors.error(kind, state == null ? "-" : state, message, false);
    errors.failed(op, kind);
    if (ctx.exitOnError()) {
      throw new OpFailedException(kind.label() + " failure: " + message, cause);
    }
    return false;
  }

  @Override
  public Connection connection() {
    return connection;
  }

  @Override
  public Random random() {
    return random;
  }

  @Override
  public int client() {
    return ctx.clientId();
  }

  @Override
  public int clients() {
    return ctx.clients();
  }

  @Override
  public String param(String name) {
    return ctx.defines().get(name);
  }

  @Override
  public void close() {
    try {
      w.close();
    } catch (Exception e) {
      // the client is ending: nothing the run can do with it
    }
  }

  /**
   * Null when the op left its connection as it found it (outside a transaction, autocommit on);
   * else what it left, after rolling it back: an op's work counts only once it committed.
   */
  static String leftBehind(Connection conn) throws SQLException {
    TransactionState s = conn.unwrap(BaseConnection.class).getTransactionState();
    boolean auto = conn.getAutoCommit();
    if (s == TransactionState.IDLE) {
      if (!auto) {
        conn.setAutoCommit(true);
      }
      return null;
    }
    Rollback.ifNeeded(conn);
    if (!auto) {
      conn.setAutoCommit(true);
    }
    return "the op ended inside a transaction ("
        + (s == TransactionState.FAILED ? "aborted" : "open")
        + "): rolled back, not counted as a success";
  }

  /** The first SQLException in the cause chain (an ORM wraps the driver's). */
  static SQLException sqlCause(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof SQLException s) {
        return s;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return null;
  }

  private static String firstLine(Throwable t) {
    String m = t.getMessage() == null ? t.getClass().getName() : t.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
