package dev.wg1bench.run;

import dev.wg1bench.load.PgbenchLoader;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.server.Target;
import dev.wg1bench.server.Targets;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** {@code wg1bench init}: creates and loads the pgbench tables on each target. */
public final class PgbenchInit {
  private final PrintStream out;

  public PgbenchInit(PrintStream out) {
    this.out = out;
  }

  public void load(List<TargetSpec> targets, int scale, int fillfactor, boolean force) {
    for (TargetSpec spec : targets) {
      Target t = Targets.of(spec);
      if (t.fresh()) {
        throw new UsageException(
            "init --target embedded: the embedded server is created fresh for every run and"
                + " initializes itself; give init an external --target URL");
      }
      ConnectionFactory cf = t.admin();
      try (Connection c = cf.openPlain()) {
        ServerInfo info = ServerInfo.read(c);
        out.printf("target %s: PostgreSQL %s%n", spec.name(), info.version());
        PgbenchLoader.init(c, scale, fillfactor, force, out);
      } catch (SQLException e) {
        throw cf.failure("init", e);
      }
    }
  }
}
