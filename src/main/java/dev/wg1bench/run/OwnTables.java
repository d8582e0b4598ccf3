package dev.wg1bench.run;

import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.workload.Workload;
import java.sql.Connection;
import java.util.List;

/**
 * The tables of a workload class: its own, made by its set-up hook. wg1bench creates none, not even
 * on a fresh server (pgbench tables there would be load time and disk spent on nothing the class
 * reads); :scale has no reader, so it is --scale, else 1. Its tables are those the class names
 * ({@code JdbcWorkload.tables()}).
 */
final class OwnTables implements DataSet {
  @Override
  public List<String> tables(Workload w) {
    return w.ownTables();
  }

  @Override
  public PreparedData prepare(
      Connection c, ConnectionFactory cf, RunPlan plan, LiveTarget lt, Output out) {
    Integer given = plan.params().scale();
    return new PreparedData(given != null ? given : 1, "the workload's own tables");
  }
}
