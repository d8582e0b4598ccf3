package dev.wg1bench.run;

import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.workload.Workload;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The tables of one {@link Workload.Schema}: how they are made ready on a target, and what the
 * hygiene between trials does to them. One object per schema instead of a switch in every step.
 */
interface DataSet {
  /**
   * Tables for storage parameters and server sampling: the schema's, or those workload {@code w}
   * names; empty when wg1bench does not know them.
   */
  List<String> tables(Workload w);

  /**
   * Makes sure the tables of workload {@code w} exist and says what they hold. A fresh server is
   * loaded here; any other must have been initialized with {@code init}.
   */
  PreparedData prepare(
      Workload w, Connection c, ConnectionFactory cf, RunPlan plan, LiveTarget lt, Output out)
      throws SQLException;

  /**
   * Adjusts the tables to the plan before its trial's hygiene (the pgbench tables' fillfactor);
   * true when that re-created them.
   */
  default boolean adjust(
      Connection c, RunPlan plan, LiveTarget lt, PreparedData data, Matrix.BetweenTrials between)
      throws SQLException {
    return false;
  }

  /** {@code --between-trials vacuum}. */
  default void vacuum(Statement st) throws SQLException {
    st.execute("VACUUM ANALYZE");
  }

  /**
   * {@code --between-trials reinit}: re-creates the tables if this schema's are wg1bench's to drop;
   * true when it did.
   */
  default boolean reinit(Connection c, LiveTarget lt, PreparedData data) throws SQLException {
    return false;
  }

  /** Where progress goes: the console and, when verbose, the loaders' own lines. */
  record Output(PrintStream out, boolean verbose) {
    PrintStream progress() {
      return verbose ? out : null;
    }
  }

  /** The data set of every schema. */
  static DataSet of(Workload.Schema schema) {
    return ALL.get(schema);
  }

  Map<Workload.Schema, DataSet> ALL = all();

  private static Map<Workload.Schema, DataSet> all() {
    Map<Workload.Schema, DataSet> m = new EnumMap<>(Workload.Schema.class);
    m.put(Workload.Schema.PGBENCH, new PgbenchTables());
    m.put(Workload.Schema.SSB, new SsbTables());
    m.put(Workload.Schema.NONE, new ScriptTables());
    m.put(Workload.Schema.OWN, new OwnTables());
    return Map.copyOf(m);
  }
}
