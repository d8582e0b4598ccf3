package dev.wg1bench.run;

import dev.wg1bench.load.ssb.SsbLoader;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.workload.Workload;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The Star Schema Benchmark's five tables, loaded by {@code init ssb}. A fresh server loads itself
 * at SF {@value #FRESH_SCALE} (or --scale), small enough to take seconds.
 */
final class SsbTables implements DataSet {
  /** SSB scale factor of a fresh server when --scale is not given. */
  static final double FRESH_SCALE = 0.01;

  @Override
  public List<String> tables(Workload w) {
    return SsbLoader.TABLES;
  }

  @Override
  public PreparedData prepare(
      Workload w, Connection c, ConnectionFactory cf, RunPlan plan, LiveTarget lt, Output out)
      throws SQLException {
    if (lt.target.fresh()) {
      Integer given = plan.params().scale();
      double sf = given != null ? given : FRESH_SCALE;
      out.out()
          .printf(
              "target %s: loading the Star Schema Benchmark at SF %s%n",
              lt.name(), SsbLoader.scaleKey(sf));
      SsbLoader.load(
          cf,
          new SsbLoader.Options(sf, false, false, false, SsbLoader.defaultThreads()),
          out.progress());
      return new PreparedData(1, "SSB SF " + SsbLoader.scaleKey(sf) + " (plain)");
    }
    SsbLoader.Loaded loaded = SsbLoader.detect(c);
    if (loaded == null) {
      throw lt.missingTables("the SSB tables are missing or empty", "ssb --scale 1");
    }
    return new PreparedData(1, "SSB SF " + loaded.scaleFactor() + " (" + loaded.variant() + ")");
  }
}
