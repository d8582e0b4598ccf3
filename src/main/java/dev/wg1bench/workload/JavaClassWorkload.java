package dev.wg1bench.workload;

import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import dev.wg1bench.plan.Isolation;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

/**
 * A {@link JdbcWorkload} as the runner's {@link Workload}: one instance per client, its op run on
 * the connection the runner hands it, its failures counted by SQLSTATE kind and its serialization
 * failures and deadlocks retried as a script's are, and an op that leaves a transaction behind
 * failed and rolled back, never a success.
 */
final class JavaClassWorkload implements Workload {
  private final String name;
  private final String label;
  private final Supplier<JdbcWorkload> instances;
  private final String description;
  private final String seed;
  private final Map<String, String> params;

  /** An application's loader for a fresh server (tpcc's), null for a user's class. */
  private final Loader loader;

  /** The data of an application of the tool's at a scale, on a server made for the run. */
  interface Loader {
    String load(DataSource dataSource, int scale, PrintStream log) throws Exception;
  }

  JavaClassWorkload(
      String name,
      String label,
      String description,
      String seed,
      Loader loader,
      Supplier<JdbcWorkload> instances,
      Map<String, String> params) {
    this.name = name;
    this.loader = loader;
    this.label = label;
    this.description = description;
    this.seed = seed;
    this.instances = instances;
    this.params = params;
  }

  /** A user's class (or a supplier a test registered): described as theirs, its source "custom". */
  static JavaClassWorkload users(
      String name, String label, Supplier<JdbcWorkload> instances, Map<String, String> params) {
    return new JavaClassWorkload(
        name, label, "your workload class " + label, "custom", null, instances, params);
  }

  @Override
  public boolean loadsFresh() {
    return loader != null;
  }

  @Override
  public String loadFresh(DataSource dataSource, int scale, PrintStream log) throws Exception {
    if (loader == null) {
      return Workload.super.loadFresh(dataSource, scale, log);
    }
    return loader.load(dataSource, scale, log);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public String seed() {
    return seed;
  }

  @Override
  public Schema schema() {
    return Schema.OWN;
  }

  /** Its statements are its own JDBC calls: the runner does not see them. */
  @Override
  public boolean countsStatements() {
    return false;
  }

  @Override
  public Isolation defaultIsolation() {
    return null;
  }

  @Override
  public int rowsInsertedPerOp() {
    return 0;
  }

  @Override
  public void check(Set<String> predefined) {}

  /** The tables the class names; one instance asked, then closed (it has seen no connection). */
  @Override
  public List<String> ownTables() {
    JdbcWorkload w = instances.get();
    try {
      return List.copyOf(w.tables());
    } finally {
      try {
        w.close();
      } catch (Exception e) {
        // nothing was opened: a close that fails has nothing to release
      }
    }
  }

  @Override
  public void setUp(DataSource dataSource) throws Exception {
    JdbcWorkload w = instances.get();
    try {
      w.setUp(dataSource, params);
    } finally {
      w.close();
    }
  }

  @Override
  public Map<String, String> verify(DataSource dataSource, long committedOps) throws Exception {
    JdbcWorkload w = instances.get();
    try {
      return w.checkConditions(dataSource, committedOps, params);
    } finally {
      w.close();
    }
  }

  /** Whether the class has a check() of its own, either form (JdbcWorkload's do nothing). */
  @Override
  public boolean verifies() {
    JdbcWorkload w = instances.get();
    try {
      return w.getClass().getMethod("check", DataSource.class, long.class).getDeclaringClass()
              != JdbcWorkload.class
          || w.getClass()
                  .getMethod("check", DataSource.class, long.class, Map.class)
                  .getDeclaringClass()
              != JdbcWorkload.class
          || w.getClass()
                  .getMethod("checkConditions", DataSource.class, long.class, Map.class)
                  .getDeclaringClass()
              != JdbcWorkload.class;
    } catch (NoSuchMethodException e) {
      return false;
    } finally {
      try {
        w.close();
      } catch (Exception e) {
        // an instance made only to look at its class
      }
    }
  }

  @Override
  public DataCheck dataCheck() {
    return DataCheck.NONE;
  }

  @Override
  public ClientSession open(ClientContext context) {
    return new Session(instances.get(), context);
  }

  /** One client: its instance of the user's class, its random source, its op. */
  private final class Session implements ClientSession, Op {
    private final JdbcWorkload w;
    private final ClientContext ctx;
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

    /** The think time the op in progress asked for, in ns (see {@link #thinkNanos()}). */
    private long thinkNanos;

    /** The try of the op in progress, from 1. */
    private int attempt = 1;

    @Override
    public int attempt() {
      return attempt;
    }

    Session(JdbcWorkload w, ClientContext ctx) {
      this.w = w;
      this.ctx = ctx;
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
     * latency each time it completes (a retried op's earlier attempts included), kept for the
     * step's histogram in µs ({@link OpCounts#completedKept}); a retry on the step whose exception
     * caused it, a failed op's failure on the step it failed in.
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
      connection = conn;
      thinkNanos = 0;
      if (op != stepsOf) {
        stepsOf = op;
        steps.clear();
        classPart = op.part(label);
      }
      if (!opened && !open(op, errors)) {
        return false;
      }
      for (int attempt = 1; ; attempt++) {
        Throwable thrown = null;
        thrownStep = null;
        thrownFromStep = null;
        tryRolledBack = false;
        this.attempt = attempt;
        try {
          w.op(this);
        } catch (Exception | AssertionError e) {
          thrown = e;
        }
        if (thrown == null) {
          String left = leftBehind(conn);
          if (left == null) {
            if (attempt > 1) {
              op.retriedOps++;
            }
            if (tryRolledBack) {
              // of the op's successes: one that committed nothing, however many steps said so
              op.rolledBack++;
            }
            return true;
          }
          return failed(op, errors, FailureKind.OTHER, null, left, null);
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
