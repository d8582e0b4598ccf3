package dev.wg1bench.workload;

import java.sql.SQLException;

/** One client's connection-bound state: prepared statements, variables, random generator. */
public interface ClientSession extends AutoCloseable {
  /**
   * Runs one op, retrying serialization failures and deadlocks up to the run's max tries, and
   * records what happened in {@code stats}. Returns whether the op succeeded.
   *
   * @throws OpFailedException when the op failed and the run was told to exit on error
   * @throws SQLException only for failures outside any op (never for an op's own error)
   */
  boolean runOp(OpStats stats) throws SQLException;

  @Override
  void close();
}
