package dev.wg1bench.workload;

import dev.wg1bench.plan.Isolation;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The contract every workload meets. One op is one execution of the workload's unit of work (a
 * pgbench script run, an insert batch); the runner measures ops, never anything smaller.
 *
 * <p>A workload only knows SQL and its own parameters: it never parses options, opens its own
 * connections or sees JMH.
 */
public interface Workload {
  String name();

  /** One line for {@code wg1bench list}. */
  String description();

  /** The seed section it reproduces, e.g. "2015 §3.6.3", or "custom". */
  String seed();

  /** Tables the workload needs before it can run. */
  Schema schema();

  /**
   * Isolation the workload is defined with (rr_write10: repeatable read); null = server default.
   */
  Isolation defaultIsolation();

  /** Rows one successful op inserts (for rows/s and data checks); 0 when it inserts none. */
  int rowsInsertedPerOp();

  /**
   * Checks the workload against the variables that will exist (built-ins and --define) before
   * anything touches a database; throws {@link dev.wg1bench.plan.UsageException} naming file:line.
   */
  void check(Set<String> predefined);

  /**
   * One client's session: its variables and random numbers. Connections are handed to it per op, so
   * the same session works with a dedicated connection or a pool.
   */
  ClientSession open(ClientContext context);

  /**
   * The tables of a workload with its own ({@link Schema#OWN}) that it names, for storage
   * parameters and server samples; none unless it names them.
   */
  default List<String> ownTables() {
    return List.of();
  }

  /**
   * Whether the workload loads its own data on a fresh server ({@link #loadFresh}): tpcc does; a
   * user's class makes its tables in its set-up hook instead.
   */
  default boolean loadsFresh() {
    return false;
  }

  /**
   * Loads the workload's data at {@code scale} on a server made for this run (the embedded default,
   * removed at exit, so {@code init} cannot have loaded it); returns what it holds, for the
   * result's data line. Progress goes to {@code log} (null: none).
   */
  default String loadFresh(DataSource dataSource, int scale, PrintStream log) throws Exception {
    throw new UnsupportedOperationException(name() + " has no loader");
  }

  /** Schemas a workload may need. */
  enum Schema {
    NONE,
    PGBENCH,
    /** The five Star Schema Benchmark tables, created by {@code init ssb}. */
    SSB,
    /** A workload class's own tables, made by its set-up hook: wg1bench creates none. */
    OWN
  }

  /**
   * Whether the runner counts the statements an op sends (a script's are; a workload class sends
   * its own through JDBC, so its statements/s is unknown, not 0).
   */
  default boolean countsStatements() {
    return true;
  }

  /** Whether ops only read (no hygiene such as CHECKPOINT is needed between their trials). */
  default boolean readOnly() {
    return false;
  }

  /** What it guarantees about the data, verified after a trial with --check. */
  default DataCheck dataCheck() {
    return DataCheck.NONE;
  }

  /**
   * Once per trial before its clients connect: what the workload creates and loads itself (a user's
   * workload class; the tool's own have their tables made by init and the data set).
   */
  default void setUp(DataSource dataSource) throws Exception {}

  /**
   * A check of the workload's own after a trial under --check ({@code committedOps}: the trial's
   * successful ops less those rolled back by design, warmup included); throws with what is wrong,
   * or returns its named conditions each mapped to null when it held or to how it broke (see {@code
   * JdbcWorkload.checkConditions}).
   */
  default Map<String, String> verify(DataSource dataSource, long committedOps) throws Exception {
    return Map.of();
  }

  /** Whether {@link #verify} checks anything: what --check says it checked. */
  default boolean verifies() {
    return false;
  }
}
