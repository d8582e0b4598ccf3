package dev.wg1bench.server;

import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.TargetSpec;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A server a run talks to, whatever kind it is: callers never ask which kind (HikariCP's {@code
 * DataSource} is the model). Client traffic and admin work (CHECKPOINT, DDL, sampling) each get
 * their own connections, so a kind that puts a pooler in front of a server can route them apart.
 */
public interface Target extends AutoCloseable {
  /** What the target is now: name, kind, and once started the URL clients connect to. */
  TargetSpec spec();

  default String name() {
    return spec().name();
  }

  /**
   * Makes the target reachable for a run of up to {@code connections} client connections (starts a
   * server if it is the target's own); says what it did on {@code out}.
   */
  default void start(int connections, PrintStream out) {}

  /** Client connections of the run's session and driver knobs. */
  default ConnectionFactory clients(ClientSettings settings) {
    return new ConnectionFactory(spec(), settings);
  }

  /** A plain connection for admin work: CHECKPOINT, VACUUM, DDL, loading, sampling. */
  default ConnectionFactory admin() {
    return clients(ClientSettings.defaults());
  }

  /** Opens an admin connection. */
  default Connection openAdmin() throws SQLException {
    return admin().openPlain();
  }

  /**
   * True when wg1bench created the server empty for this run and owns its data: tables are loaded
   * on the spot and may be dropped and re-created; {@code init} and the experiments have nothing
   * lasting to work on.
   */
  default boolean fresh() {
    return false;
  }

  /**
   * Called once the tool's own sessions of a trial are closed and before its clients connect: a
   * target with something in between (a pooler) waits here until those sessions are gone from it,
   * so the clients get all of the capacity the user configured.
   */
  default void beforeClients(PrintStream out) {}

  /** Combinations of this target and a plan that cannot work, as a usage error. */
  default void validate(RunPlan plan) {}

  /** Stops what {@link #start} started. */
  @Override
  default void close() {}
}
