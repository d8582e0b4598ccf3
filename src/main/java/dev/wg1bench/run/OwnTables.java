package dev.wg1bench.run;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.FactoryDataSource;
import dev.wg1bench.workload.Workload;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The tables of a workload class: its own, made by its set-up hook. wg1bench creates none for a
 * user's class, not even on a fresh server (pgbench tables there would be load time and disk spent
 * on nothing the class reads); :scale has no reader, so it is --scale, else 1. Its tables are those
 * the class names ({@code JdbcWorkload.tables()}). An application of the tool's with a loader
 * (tpcc) loads itself at that scale on a fresh server, as pgbench's and SSB's tables are loaded
 * there: the server is removed at exit, so no {@code init} could have loaded it.
 */
final class OwnTables implements DataSet {
  @Override
  public List<String> tables(Workload w) {
    return w.ownTables();
  }

  @Override
  public PreparedData prepare(
      Workload w, Connection c, ConnectionFactory cf, RunPlan plan, LiveTarget lt, Output out)
      throws SQLException {
    Integer given = plan.params().scale();
    int scale = given != null ? given : 1;
    if (lt.target.fresh() && w.loadsFresh()) {
      out.out().printf("target %s: loading %s at scale %d%n", lt.name(), w.name(), scale);
      try {
        return new PreparedData(
            scale, w.loadFresh(new FactoryDataSource(cf), scale, out.progress()));
      } catch (SQLException e) {
        throw e;
      } catch (Exception e) {
        throw new RunFailure("loading " + w.name() + " at scale " + scale + " failed: " + e, e);
      }
    }
    return new PreparedData(scale, "the workload's own tables");
  }
}
