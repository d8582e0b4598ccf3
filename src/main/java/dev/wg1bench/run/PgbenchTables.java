package dev.wg1bench.run;

import dev.wg1bench.load.PgbenchLoader;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.workload.Workload;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** pgbench's four tables: loaded on a fresh server, required (by {@code init}) on any other. */
final class PgbenchTables implements DataSet {
  @Override
  public List<String> tables(Workload w) {
    return PgbenchLoader.TABLES;
  }

  @Override
  public PreparedData prepare(
      Workload w, Connection c, ConnectionFactory cf, RunPlan plan, LiveTarget lt, Output out)
      throws SQLException {
    PreparedData p = prepareTables(c, plan, lt, out);
    lt.fillfactor = PgbenchLoader.fillfactor(c);
    return p;
  }

  private static PreparedData prepareTables(Connection c, RunPlan plan, LiveTarget lt, Output out)
      throws SQLException {
    if (lt.target.fresh()) {
      return loadFresh(c, plan, lt, out);
    }
    Integer detected = PgbenchLoader.detectScale(c);
    List<String> missing = new ArrayList<>(PgbenchLoader.TABLES);
    missing.removeAll(PgbenchLoader.existing(c));
    if (!missing.isEmpty() || detected == null || detected == 0) {
      throw lt.missingTables(
          "the pgbench tables are missing or empty ("
              + (missing.isEmpty() ? "pgbench_branches has no rows" : String.join(", ", missing))
              + ")",
          "--scale 10");
    }
    Integer given = plan.params().scale();
    if (given != null && given.intValue() != detected) {
      out.out()
          .printf(
              "warning: --scale %d ignored: pgbench_branches holds %d rows, so the scale is %d (as pgbench does)%n",
              given, detected, detected);
    }
    return PreparedData.pgbench(detected);
  }

  /** The fresh server's tables, at --scale or the default scale. */
  static PreparedData loadFresh(Connection c, RunPlan plan, LiveTarget lt, Output out)
      throws SQLException {
    Integer given = plan.params().scale();
    int scale = given != null ? given : RunPlan.EMBEDDED_DEFAULT_SCALE;
    out.out().printf("target %s: creating pgbench tables at scale %d%n", lt.name(), scale);
    PgbenchLoader.init(c, scale, 100, false, out.progress());
    return PreparedData.pgbench(scale);
  }

  /**
   * A --fillfactor other than the tables' own needs them re-created: done on a fresh server (the
   * tables are wg1bench's) or when --between-trials reinit allows it, refused otherwise.
   */
  @Override
  public boolean adjust(
      Connection c, RunPlan plan, LiveTarget lt, PreparedData data, Matrix.BetweenTrials between)
      throws SQLException {
    Integer ff = plan.params().fillfactor();
    if (ff == null || ff == lt.fillfactor) {
      return false;
    }
    if (!lt.target.fresh() && between != Matrix.BetweenTrials.REINIT) {
      throw new UsageException(
          "--fillfactor "
              + ff
              + ": the pgbench tables on target "
              + lt.name()
              + " have fillfactor "
              + lt.fillfactor
              + "; add --between-trials reinit to re-create them (or run init -F "
              + ff
              + ")");
    }
    PgbenchLoader.init(c, data.scale(), ff, true, null);
    lt.fillfactor = ff;
    return true;
  }

  @Override
  public void vacuum(Statement st) throws SQLException {
    for (String t : PgbenchLoader.TABLES) {
      st.execute("VACUUM ANALYZE " + t);
    }
  }

  /** Asked for explicitly: dropping the pgbench tables (only those) is the point. */
  @Override
  public boolean reinit(Connection c, LiveTarget lt, PreparedData data) throws SQLException {
    PgbenchLoader.init(c, data.scale(), lt.fillfactor, true, null);
    return true;
  }
}
