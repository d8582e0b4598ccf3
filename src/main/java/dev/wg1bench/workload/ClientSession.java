package dev.wg1bench.workload;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** One client's connection-bound state: prepared statements, variables, random generator. */
public interface ClientSession extends AutoCloseable {
  /**
   * Runs one op on {@code connection}, retrying serialization failures and deadlocks up to the
   * run's max tries, and records what happened: its counts in {@code op}, the one value of the op
   * in progress (cleared as it begins; its statements, retries, failure by kind, and the figures of
   * its parts: each command of a script under -r, each step of a workload class), the errors it saw
   * in {@code errors}. Returns whether the op succeeded. The connection is the same one op after op
   * unless the run uses a pool.
   *
   * @throws OpFailedException when the op failed and the run was told to exit on error
   * @throws SQLException only for failures outside any op (never for an op's own error)
   */
  boolean runOp(Connection connection, OpCounts op, ErrorSamples errors) throws SQLException;

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
   * What the parts of an op's value are: its script's commands (-r), a workload class's steps, or
   * none. They sit under the op's script part ({@link ScriptOutline#keys}): a command by {@link
   * ScriptOutline#commandKey}, a step by its name.
   */
  default OpParts opParts() {
    return OpParts.NONE;
  }

  /** The parts of an op's value under its script's part: see {@link #opParts()}. */
  enum OpParts {
    NONE,
    COMMANDS,
    STEPS
  }

  /**
   * The think time the last op asked for ({@code Op.thinkTime}), in ns: the client's next op starts
   * no sooner than this after it ended; 0 when none.
   */
  default long thinkNanos() {
    return 0;
  }

  @Override
  void close();
}
