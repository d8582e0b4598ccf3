package dev.wg1bench.run;

import dev.wg1bench.load.PgbenchLoader;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.workload.Workload;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The tables of a script that declares none wg1bench knows (its own, or none): nothing is required;
 * :scale is --scale, else the pgbench tables' scale if they are there, else 1. A fresh server gets
 * the pgbench tables, as most scripts expect them.
 */
final class ScriptTables implements DataSet {
  @Override
  public List<String> tables(Workload w) {
    return List.of();
  }

  @Override
  public PreparedData prepare(
      Workload w, Connection c, ConnectionFactory cf, RunPlan plan, LiveTarget lt, Output out)
      throws SQLException {
    if (lt.target.fresh()) {
      return PgbenchTables.loadFresh(c, plan, lt, out);
    }
    if (plan.params().scale() != null) {
      return PreparedData.pgbench(plan.params().scale());
    }
    Integer detected = PgbenchLoader.detectScale(c);
    return PreparedData.pgbench(detected != null && detected > 0 ? detected : 1);
  }
}
