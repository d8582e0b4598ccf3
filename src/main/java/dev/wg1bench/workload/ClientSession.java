package dev.wg1bench.workload;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

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

  /** The scripts an op chooses among, empty for a workload not made of scripts. */
  default List<ScriptOutline> outline() {
    return List.of();
  }

  /**
   * The per-command figures of this client's ops, null unless the context asked for them ({@link
   * ClientContext#perCommand()}) and the workload is made of scripts.
   */
  default CommandTimes commandTimes() {
    return null;
  }

  /**
   * The per-step figures of a workload class's ops (its {@code op.step(...)} calls), null for a
   * workload that has no steps of its own to name (scripts time their commands instead).
   */
  default StepTimes stepTimes() {
    return null;
  }

  @Override
  void close();
}
