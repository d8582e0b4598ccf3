package dev.wg1bench.workload;

import dev.wg1bench.script.BranchStep;
import dev.wg1bench.script.CompiledScript;
import dev.wg1bench.script.EvalContext;
import dev.wg1bench.script.JumpStep;
import dev.wg1bench.script.PgbenchRandom;
import dev.wg1bench.script.PipelineStep;
import dev.wg1bench.script.ScriptRuntimeException;
import dev.wg1bench.script.SetStep;
import dev.wg1bench.script.ShellStep;
import dev.wg1bench.script.SleepStep;
import dev.wg1bench.script.SqlStep;
import dev.wg1bench.script.Step;
import dev.wg1bench.script.Values;
import dev.wg1bench.server.wire.Wire;
import dev.wg1bench.server.wire.WireCounts;
import dev.wg1bench.server.wire.WireMark;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.postgresql.core.TransactionState;

/**
 * Executes pgbench scripts on one connection. Variables become bound, typed JDBC parameters (int8,
 * float8, text), so expressions like {@code :aid + :row_count} work in every query mode; each SQL
 * command is prepared once per connection and reused ({@link ScriptStatements}).
 *
 * <p>Retries follow pgbench --max-tries: a whole op failing with 40001 or 40P01 is rolled back and
 * re-run with the same random numbers; other errors fail the op and the run goes on.
 */
final class ScriptSession implements ClientSession {
  private final CompiledScript[] scripts;
  private final Step[][] steps;
  private final ScriptStatements statements;
  private final Object[][] slots;
  private final EvalContext[] contexts;
  private final long[] cumulativeWeight;
  private final PgbenchRandom random;

  /** Script choice has its own stream, so a retry re-runs the same script. */
  private final PgbenchRandom chooser;

  private final int maxTries;
  private final boolean exitOnError;

  /** Random state at the start of the current op, restored on retry (reused, no allocation). */
  private final long[] saved;

  /** The step running, for the location of an SQL error. */
  private Step current;

  /**
   * The command running (an index into its script's {@link ScriptOutline#commands()}), for the
   * per-command failures and retries: inside a pipeline, the one of the pipeline's commands.
   */
  private int currentCommand;

  /** Script of the last op, for the per-script figures. */
  private int lastScript;

  private final List<ScriptOutline> outline;

  /** Whether each command is timed and counted (pgbench -r): then nothing else is. */
  private final boolean perCommand;

  /** Per script, the command of each step (see {@link ScriptOutline#commandOfStep()}). */
  private final int[][] commandOf;

  /**
   * Per script, its commands' parts of the op value {@link #partsOf} was last given (under its
   * script's part), found once per value rather than per op.
   */
  private OpCounts[][] commandParts;

  private OpCounts partsOf;

  /** The op in progress's commands' parts under -r, else null: nothing is timed. */
  private OpCounts[] cmd;

  /**
   * Under -r, the connection's socket counts (server.wire), null where it does not count: each
   * command's round trips, bytes and rows are what the socket saw while it ran ({@link WireShare}),
   * five reads of its counts before the command and five after.
   */
  private WireCounts wire;

  private Connection wireOf;
  private final WireMark mark = new WireMark();

  ScriptSession(
      List<CompiledScript> compiled,
      int[] weights,
      Map<String, Object> variables,
      ClientContext ctx,
      List<ScriptOutline> outline) {
    int n = compiled.size();
    this.scripts = compiled.toArray(new CompiledScript[0]);
    this.steps = new Step[n][];
    this.slots = new Object[n][];
    this.contexts = new EvalContext[n];
    this.cumulativeWeight = new long[n];
    // the streams pgbench 15 would give this client for the same --random-seed
    this.random = PgbenchRandom.forClient(ctx.randomSeed(), ctx.clientId());
    this.chooser =
        PgbenchRandom.chooserFor(
            ctx.randomSeed(),
            ctx.clients(),
            ctx.clientId(),
            !ctx.defines().containsKey("default_seed"));
    long defaultSeed = Values.toLong(variables.get("default_seed"));
    long sum = 0;
    for (int i = 0; i < n; i++) {
      CompiledScript cs = scripts[i];
      steps[i] = cs.steps().toArray(new Step[0]);
      slots[i] = cs.newSlots(variables);
      contexts[i] = new EvalContext(slots[i], random, defaultSeed);
      sum += weights[i];
      cumulativeWeight[i] = sum;
    }
    this.maxTries = ctx.maxTries();
    this.exitOnError = ctx.exitOnError();
    this.saved = random.saveState();
    this.outline = outline;
    this.perCommand = ctx.perCommand();
    this.commandOf = new int[n][];
    for (int i = 0; i < n; i++) {
      commandOf[i] = outline.get(i).commandOfStep();
    }
    int[] sizes = new int[n];
    for (int i = 0; i < n; i++) {
      sizes[i] = steps[i].length;
    }
    this.statements = new ScriptStatements(sizes);
  }

  @Override
  public int lastScriptIndex() {
    return lastScript;
  }

  @Override
  public List<ScriptOutline> outline() {
    return outline;
  }

  @Override
  public OpParts opParts() {
    return perCommand ? OpParts.COMMANDS : OpParts.NONE;
  }

  /**
   * The commands' parts of {@code op}, each a part of its script's part (named by {@link
   * ScriptOutline#keys} and {@link ScriptOutline#commandKey}), made in the outline's order on the
   * first op given this value: a command's figures are recorded into the op's value as it runs, as
   * pgbench -r counts them. Its latency each time it completes (retried executions included), a
   * retry on the command whose error caused it, a failed op's failure on the command that failed
   * last.
   */
  private OpCounts[][] commandParts(OpCounts op) {
    if (op != partsOf) {
      String[] keys = ScriptOutline.keys(outline);
      commandParts = new OpCounts[keys.length][];
      for (int s = 0; s < keys.length; s++) {
        OpCounts script = op.part(keys[s]);
        commandParts[s] = new OpCounts[outline.get(s).commands().size()];
        for (int c = 0; c < commandParts[s].length; c++) {
          commandParts[s][c] = script.part(ScriptOutline.commandKey(c));
        }
      }
      partsOf = op;
    }
    return commandParts;
  }

  private int choose() {
    int n = scripts.length;
    if (n == 1) {
      return 0;
    }
    long w = chooser.uniform(1, cumulativeWeight[n - 1]);
    for (int i = 0; i < n; i++) {
      if (w <= cumulativeWeight[i]) {
        return i;
      }
    }
    return n - 1;
  }

  @Override
  public boolean runOp(Connection conn, OpCounts op, ErrorSamples errors) throws SQLException {
    statements.use(conn);
    int s = choose();
    lastScript = s;
    cmd = perCommand ? commandParts(op)[s] : null;
    if (perCommand && conn != wireOf) {
      // a pool's is a new proxy on every lease: looked up again, as jmh/OpWire does
      wireOf = conn;
      wire = Wire.of(conn);
    }
    if (maxTries > 1) {
      random.saveState(saved);
    }
    for (int attempt = 1; ; attempt++) {
      try {
        current = null;
        execute(conn, s, op);
        if (attempt > 1) {
          op.retriedOps++;
        }
        return true;
      } catch (SQLException e) {
        if (!retry(conn, s, e, attempt, op, errors)) {
          return false;
        }
      } catch (ScriptRuntimeException e) {
        return scriptFailed(conn, e, op, errors);
      } catch (RuntimeException e) {
        // the driver's own (WorkloadBenchmark counts it and replaces the connection): -r charges
        // it to the command that was running, as any failure
        charge(false);
        throw e;
      }
    }
  }

  /**
   * An SQL error ended the attempt, which is rolled back: true when the op is to be tried again
   * (40001 or 40P01 under --max-tries, its random numbers restored), false when it failed.
   */
  private boolean retry(
      Connection conn, int s, SQLException e, int attempt, OpCounts op, ErrorSamples errors) {
    rollbackIfNeeded(conn);
    FailureKind kind = FailureKind.of(e);
    boolean retry = kind.retryable() && attempt < maxTries;
    charge(retry);
    errors.error(kind, e.getSQLState(), where(s) + firstLine(e.getMessage()), retry);
    if (retry) {
      op.retries++;
      random.restoreState(saved);
      return true;
    }
    errors.failed(op, kind);
    if (exitOnError) {
      throw new OpFailedException(kind.label() + " failure: " + firstLine(e.getMessage()), e);
    }
    return false;
  }

  /** A script error (a bad {@code \gset} row, a transaction left open): the op fails. */
  private boolean scriptFailed(
      Connection conn, ScriptRuntimeException e, OpCounts op, ErrorSamples errors) {
    rollbackIfNeeded(conn);
    charge(false);
    errors.error(FailureKind.SCRIPT, "-", e.getMessage(), false);
    errors.failed(op, FailureKind.SCRIPT);
    if (exitOnError) {
      throw new OpFailedException("script failure: " + e.getMessage(), e);
    }
    return false;
  }

  /** Under -r: the command that was running is charged with a retry or a failure. */
  private void charge(boolean retried) {
    OpCounts[] t = cmd;
    if (t != null && current != null) {
      if (retried) {
        t[currentCommand].retries++;
      } else {
        t[currentCommand].failed++;
      }
    }
  }

  /**
   * "file:line: " of the statement that failed, and its text when it is one statement, so an error
   * names its statement as pgbench's client abort does.
   */
  private String where(int s) {
    Step at = current;
    if (at == null) {
      return "";
    }
    String w = scripts[s].sourceName() + ":" + at.line() + ": ";
    if (at instanceof SqlStep q) {
      String text = q.text().replaceAll("\\s+", " ");
      w += (text.length() > 60 ? text.substring(0, 57) + "..." : text) + ": ";
    }
    return w;
  }

  private void execute(Connection conn, int s, OpCounts op) throws SQLException {
    Step[] st = steps[s];
    EvalContext ctx = contexts[s];
    OpCounts[] t = cmd;
    WireCounts w = t == null ? null : wire;
    int i = 0;
    while (i < st.length) {
      Step step = st[i];
      current = step;
      if (t != null) {
        currentCommand = commandOf[s][i];
      }
      if (w != null) {
        mark.take(w);
      }
      // as pgbench -r: every command timed in the client, meta commands included
      long t0 = t == null ? 0 : System.nanoTime();
      int next = i + 1;
      try {
        if (step instanceof SqlStep q) {
          sql(conn, s, i, q, op);
        } else if (step instanceof BranchStep b) {
          if (!b.test(ctx)) {
            next = b.elseTarget();
          }
        } else if (step instanceof JumpStep j) {
          next = j.target();
        } else if (step instanceof PipelineStep p) {
          // times each of its commands itself
          pipeline(conn, s, i, p, op, t0);
          i = next;
          continue;
        } else {
          local(step, ctx);
        }
        if (t != null) {
          t[currentCommand].completed(System.nanoTime() - t0);
        }
      } finally {
        if (w != null) {
          // the command running at the end: a pipeline's batch is its closing command's
          WireShare.add(t[currentCommand], mark, w, false);
        }
      }
      i = next;
    }
    if (st.length > 0
        && statements.base().getTransactionState() != TransactionState.IDLE
        && conn.getAutoCommit()) {
      // as pgbench: an op must not leave its transaction open; the caller rolls it back, so its
      // work is never counted as done
      throw new ScriptRuntimeException(
          scripts[s].sourceName(),
          st[st.length - 1].line(),
          "end of script reached without completing the last transaction");
    }
  }

  /** A step the client runs itself: \set, \sleep or \shell. */
  private void local(Step step, EvalContext ctx) {
    if (step instanceof SetStep set) {
      set.execute(ctx);
    } else if (step instanceof SleepStep sl) {
      sleep(sl, ctx);
    } else if (step instanceof ShellStep sh) {
      sh.execute(ctx);
    }
  }

  private void sql(Connection conn, int s, int i, SqlStep q, OpCounts op) throws SQLException {
    Object[] vars = slots[s];
    Statement st;
    boolean hasRows;
    if (statements.simple()) {
      // pgbench -M simple substitutes each variable's text into the command: a variable can be a
      // number, a list, even an identifier, and the server sees plain literals
      st = statements.plain();
      hasRows = st.execute(q.substituted(vars));
    } else {
      PreparedStatement ps = statements.prepared(s, i, q.jdbcSql());
      int[] params = q.paramSlots();
      for (int k = 0; k < params.length; k++) {
        ScriptStatements.bind(ps, k + 1, vars[params[k]]);
      }
      st = ps;
      hasRows = ps.execute();
    }
    op.statements++;
    if (cmd != null) {
      cmd[currentCommand].statements++;
    }
    if (q.gsetPrefix() != null && !q.aset()) {
      ResultRows.gsetLast(st, hasRows, q, scripts[s], vars);
      return;
    }
    ResultRows.drain(st, hasRows, q.aset() ? q : null, scripts[s], vars);
  }

  private static void sleep(SleepStep sl, EvalContext ctx) {
    long micros = sl.delayMicros(ctx);
    if (micros > 0) {
      LockSupport.parkNanos(micros > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : micros * 1000);
    }
  }

  /**
   * Runs a pipeline part: \set and \sleep in order, each statement's parameters taken as they are
   * when it comes, then all statements sent as one batch (see {@link PipelineStep}).
   *
   * <p>Under -r each of its commands is timed as pgbench times it in pipeline mode: the {@code
   * \startpipeline} and each command in the pipeline by the time to take it in (for a statement,
   * collecting its parameters: pgbench's is the time to send it, also next to nothing), and the
   * closing {@code \endpipeline} / {@code \syncpipeline} by the round trip of the whole batch,
   * where pgbench's {@code \endpipeline} waits for every result. An error is charged to the closing
   * command, where pgbench reads it.
   */
  private void pipeline(Connection conn, int s, int i, PipelineStep p, OpCounts op, long t0)
      throws SQLException {
    OpCounts[] t = cmd;
    int c = t == null ? 0 : commandOf[s][i];
    if (t != null && p.opens()) {
      long now = System.nanoTime();
      t[c++].completed(now - t0);
      t0 = now;
    }
    if (statements.simple()) {
      // pgjdbc would send each statement as its own Query: an error would not stop the rest
      throw new ScriptRuntimeException(
          scripts[s].sourceName(),
          p.line(),
          "a pipeline needs the extended query protocol (-M extended or -M prepared), as in"
              + " pgbench");
    }
    EvalContext ctx = contexts[s];
    Object[] vars = slots[s];
    Object[] values = new Object[p.statements() == 0 ? 0 : countParams(p)];
    int n = 0;
    for (Step step : p.body()) {
      currentCommand = c;
      if (step instanceof SqlStep q) {
        for (int slot : q.paramSlots()) {
          values[n++] = vars[slot];
        }
      } else {
        local(step, ctx);
      }
      if (t != null) {
        long now = System.nanoTime();
        t[c++].completed(now - t0);
        t0 = now;
      }
    }
    currentCommand = c;
    if (p.jdbcSql() == null) {
      if (t != null) {
        t[c].completed(System.nanoTime() - t0);
      }
      return;
    }
    PreparedStatement ps = statements.prepared(s, i, p.jdbcSql());
    for (int k = 0; k < values.length; k++) {
      ScriptStatements.bind(ps, k + 1, values[k]);
    }
    op.statements += p.statements();
    if (t != null) {
      t[c].statements += p.statements();
    }
    ResultRows.drain(ps, ps.execute(), null, scripts[s], vars);
    if (t != null) {
      t[c].completed(System.nanoTime() - t0);
    }
  }

  private static int countParams(PipelineStep p) {
    int n = 0;
    for (Step step : p.body()) {
      if (step instanceof SqlStep q) {
        n += q.paramSlots().length;
      }
    }
    return n;
  }

  /** See {@link Rollback#ifNeeded}. */
  static void rollbackIfNeeded(Connection conn) {
    Rollback.ifNeeded(conn);
  }

  private static String firstLine(String m) {
    if (m == null) {
      return "";
    }
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  @Override
  public void close() {
    statements.close();
  }
}
