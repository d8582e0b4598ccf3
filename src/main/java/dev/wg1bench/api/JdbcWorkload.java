package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apiguardian.api.API;

/**
 * Your own data-access code as a workload: one {@link #op} is one unit of work (a repository call,
 * a save path, a page of a query), measured, counted and compared like any of wg1bench's own
 * workloads, under every knob of a run.
 *
 * <p>One instance per client, made with its public no-argument constructor (or your supplier in a
 * JUnit test), so fields are per-client state, as with JMH's thread-scoped state. An op that throws
 * fails and is counted by its SQLSTATE's kind; a serialization failure or deadlock (40001, 40P01)
 * is retried under {@code --max-tries}, after a rollback; an op that leaves a transaction open or
 * aborted fails ("the op ended inside a transaction"), is rolled back and never counts as a
 * success.
 *
 * <pre>{@code
 * public class OrderLookup implements JdbcWorkload {
 *   public void op(Op op) throws SQLException {
 *     try (PreparedStatement ps =
 *         op.connection().prepareStatement("SELECT * FROM orders WHERE id = ?")) {
 *       ps.setLong(1, 1 + op.random().nextInt(op.intParam("rows", 10_000)));
 *       try (ResultSet r = ps.executeQuery()) {
 *         while (r.next()) {}
 *       }
 *     }
 *   }
 * }
 * }</pre>
 */
@API(status = STABLE, since = "0.1")
public interface JdbcWorkload {
  /** One op on {@code op.connection()}; throw to fail it. */
  void op(Op op) throws Exception;

  /**
   * Once per trial, before any client connects, in the JVM that runs the trials (the command's, or
   * your test's): create and load what the ops need. Make it idempotent: it runs again before every
   * trial of a sweep.
   */
  default void setUp(DataSource dataSource) throws Exception {}

  /**
   * As {@link #setUp(DataSource)}, with the run's parameters ({@code -D NAME=VALUE}) for what a
   * set-up sizes (rows to load); calls {@link #setUp(DataSource)} unless overridden. A parameter it
   * refuses is an {@link IllegalArgumentException} whose message names the parameter, its value and
   * what is valid: the command prints that line and exits 2, as for any bad option.
   */
  default void setUp(DataSource dataSource, Map<String, String> params) throws Exception {
    setUp(dataSource);
  }

  /** Once per client before its first op, on the client's connection (prepare what it keeps). */
  default void open(Op op) throws Exception {}

  /**
   * The tables the ops write, for what wg1bench does to a workload's tables: the storage parameters
   * of {@code --table-option} (fillfactor, autovacuum's per-table settings) set on them before each
   * trial, and a long run's server samples of them under {@code --progress} (size, dead tuples,
   * autovacuum runs). None by default: the options are then refused and nothing is sampled.
   */
  default List<String> tables() {
    return List.of();
  }

  /** Once per client after its last op. */
  default void close() throws Exception {}

  /**
   * What the ops guarantee about the data, checked after a trial under {@code --check}: throw (an
   * {@link AssertionError} or any exception) with what is wrong. {@code committedOps} is the
   * trial's ops that committed, warmup included, as the database saw them: the successful ones less
   * those rolled back by design ({@link Op#rolledBackByDesign()}).
   */
  default void check(DataSource dataSource, long committedOps) throws Exception {}

  /**
   * As {@link #check(DataSource, long)}, with the run's parameters ({@code -D NAME=VALUE}) for how
   * much a check reads (a fuller check on request); calls {@link #check(DataSource, long)} unless
   * overridden.
   */
  default void check(DataSource dataSource, long committedOps, Map<String, String> params)
      throws Exception {
    check(dataSource, committedOps);
  }

  /**
   * The check as named conditions, so that {@code --check} says which it checked and how each came
   * out (TPC-C: "TPC-C 3.3.2.1 (W_YTD = sum(D_YTD)) ok"): each condition's name, in order, mapped
   * to null when it held or to how it broke. By default the whole {@link #check(DataSource, long,
   * java.util.Map)} as one: an empty map when it passes (it throws when it fails).
   */
  default Map<String, String> checkConditions(
      DataSource dataSource, long committedOps, Map<String, String> params) throws Exception {
    check(dataSource, committedOps, params);
    return Map.of();
  }
}
