package dev.wg1bench.workload;

import java.sql.Connection;
import java.sql.SQLException;

/** One client's connection-bound state: prepared statements, variables, random generator. */
public interface ClientSession extends AutoCloseable {
  /**
   * Runs one op on {@code connection}, retrying serialization failures and deadlocks up to the
   * run's max tries, and records what happened in {@code stats}. Returns whether the op succeeded.
   * The connection is the same one op after op unless the run uses a pool.
   *
   * @throws OpFailedException when the op failed and the run was told to exit on error
   * @throws SQLException only for failures outside any op (never for an op's own error)
   */
  boolean runOp(Connection connection, OpStats stats) throws SQLException;

  /**
   * The index, in the run's script list, of the script the last op ran (pgbench's script_no, from
   * 0); 0 for a workload of one script.
   */
  default int lastScriptIndex() {
    return 0;
  }

  @Override
  void close();
}
