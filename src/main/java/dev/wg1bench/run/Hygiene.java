package dev.wg1bench.run;

import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.workload.Workload;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * The seeds' hygiene before a trial: a CHECKPOINT so one trial's dirty buffers are not written
 * during the next (2015 §3.3), VACUUM, or a fresh data set (2020 §4.6); and the trial's storage
 * parameters, so one trial's settings never leak into the next.
 */
final class Hygiene {
  private final Matrix.BetweenTrials between;
  private final PrintStream out;

  Hygiene(Matrix.BetweenTrials between, PrintStream out) {
    this.between = between;
    this.out = out;
  }

  void beforeTrial(RunPlan plan, Workload w, LiveTarget lt, PreparedData data, Connection c)
      throws SQLException {
    DataSet ds = DataSet.of(w.schema());
    boolean recreated = ds.adjust(c, plan, lt, data, between);
    applyTableOptions(plan, w, ds, lt, c);
    Matrix.BetweenTrials what =
        between == Matrix.BetweenTrials.AUTO
            ? (w.readOnly() ? Matrix.BetweenTrials.NONE : Matrix.BetweenTrials.CHECKPOINT)
            : between;
    try (Statement st = c.createStatement()) {
      switch (what) {
        case CHECKPOINT -> checkpoint(st, lt);
        case VACUUM -> ds.vacuum(st);
        case REINIT -> {
          if (!recreated && ds.reinit(c, lt, data)) {
            applyTableOptions(plan, w, ds, lt, c);
          }
        }
        default -> {
          // NONE (or AUTO on a read-only workload)
        }
      }
    }
  }

  private void checkpoint(Statement st, LiveTarget lt) {
    if (lt.checkpointDenied) {
      return;
    }
    try {
      st.execute("CHECKPOINT");
    } catch (SQLException e) {
      lt.checkpointDenied = true;
      out.printf(
          "warning: target %s: CHECKPOINT between trials not allowed (%s); trials run without it%n",
          lt.name(), ConnectionFactory.oneLine(e));
    }
  }

  /**
   * Sets the trial's storage parameters on the workload's tables and resets those an earlier trial
   * set but this one does not.
   */
  private static void applyTableOptions(
      RunPlan plan, Workload w, DataSet ds, LiveTarget lt, Connection c) throws SQLException {
    Map<String, String> want = plan.params().tableOptions();
    List<String> tables = ds.tables(w);
    if (!want.isEmpty() && tables.isEmpty()) {
      throw new UsageException(
          "--table-option needs a workload with known tables (pgbench, ssb, or a workload class that"
              + " names its tables), not "
              + w.name());
    }
    try (Statement st = c.createStatement()) {
      for (String k : List.copyOf(lt.tableOptions.keySet())) {
        if (!want.containsKey(k)) {
          for (String t : tables) {
            st.execute("ALTER TABLE " + t + " RESET (" + k + ")");
          }
          lt.tableOptions.remove(k);
        }
      }
      for (Map.Entry<String, String> e : want.entrySet()) {
        if (!e.getValue().equals(lt.tableOptions.get(e.getKey()))) {
          for (String t : tables) {
            try {
              st.execute("ALTER TABLE " + t + " SET (" + e.getKey() + " = " + e.getValue() + ")");
            } catch (SQLException ex) {
              throw new UsageException(
                  "--table-option "
                      + e.getKey()
                      + "="
                      + e.getValue()
                      + ": "
                      + ConnectionFactory.oneLine(ex));
            }
          }
          lt.tableOptions.put(e.getKey(), e.getValue());
        }
      }
    }
  }
}
