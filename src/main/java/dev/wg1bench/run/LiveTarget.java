package dev.wg1bench.run;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.server.Target;
import dev.wg1bench.server.Targets;
import dev.wg1bench.workload.Workload;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A target kept up for the whole run, with what the run did to it: the data each schema was
 * prepared to, the fillfactor and storage parameters of its tables, whether CHECKPOINT is allowed.
 */
final class LiveTarget implements AutoCloseable {
  /** The started target: its connections, and whether its data is fresh. */
  final Target target;

  /** What it was started from, with the URL it has now. */
  final TargetSpec spec;

  /** What the server is: version and relevant settings. */
  final ServerInfo info;

  final Map<Workload.Schema, PreparedData> prepared = new EnumMap<>(Workload.Schema.class);

  /** Fillfactor of the pgbench tables as they are now (100 unless wg1bench created them so). */
  int fillfactor = 100;

  /** Storage parameters wg1bench set on the workload tables, to reset when no longer wanted. */
  final Map<String, String> tableOptions = new LinkedHashMap<>();

  boolean checkpointDenied;

  private LiveTarget(Target target, ServerInfo info) {
    this.target = target;
    this.spec = target.spec();
    this.info = info;
  }

  /** Starts the target, reads what it is and says so; a target that does not answer is closed. */
  static LiveTarget open(TargetSpec spec, int connections, PrintStream out) {
    Target server = Targets.of(spec);
    try {
      server.start(connections, out);
      ConnectionFactory cf = server.admin();
      try (Connection c = cf.openPlain()) {
        ServerInfo info = ServerInfo.read(c);
        out.printf(
            "target %s: PostgreSQL %s, ssl %s%n",
            server.name(), info.version(), ServerInfo.sslInUse(c));
        return new LiveTarget(server, info);
      } catch (SQLException e) {
        throw cf.failure("connecting", e);
      }
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  String name() {
    return spec.name();
  }

  /**
   * The failure of a run on a server without its data set's tables: what is missing, and the init
   * command that creates them on this very target, so every data set words it the same way.
   *
   * @param what what is missing, e.g. "the SSB tables are missing or empty"
   * @param initArgs init's arguments before --target, e.g. "ssb --scale 1"
   */
  RunFailure missingTables(String what, String initArgs) {
    return new RunFailure(
        "target "
            + name()
            + ": "
            + what
            + "; create them first with: java -jar target/wg1bench.jar init "
            + initArgs
            + " --target '"
            + name()
            + "="
            + spec.jdbcUrl()
            + "'");
  }

  @Override
  public void close() {
    target.close();
  }
}
