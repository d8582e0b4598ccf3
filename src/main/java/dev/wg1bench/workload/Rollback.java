package dev.wg1bench.workload;

import dev.wg1bench.server.ConnectionFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

/** Ends what a failed op left open on its connection, for every workload alike. */
public final class Rollback {
  /**
   * ROLLBACKs tried before the connection is given up. The statement_timeout of the database (a
   * user's, 1-5 ms) applies to the ROLLBACK too: one it cancelled (57014) left the transaction
   * aborted, the failure was taken for a broken connection and ignored, and the client's next op
   * failed with 25P02 at its BEGIN.
   */
  static final int TRIES = 3;

  private Rollback() {}

  /**
   * After a failure inside BEGIN ... END the server waits for ROLLBACK; a dead link needs none. A
   * transaction still not ended after {@link #TRIES} ROLLBACKs is not left for the next op: the
   * connection is aborted, so the client reconnects (as after any lost connection) rather than fail
   * its next op on the aborted transaction.
   */
  public static void ifNeeded(Connection conn) {
    for (int i = 0; i < TRIES; i++) {
      try {
        if (conn.isClosed() || (conn.getAutoCommit() && ended(conn))) {
          return;
        }
        end(conn);
        if (ended(conn)) {
          return;
        }
      } catch (SQLException e) {
        // cancelled (tried again), or the connection is broken: the next try finds it closed, or
        // fails the same way and the connection is given up below
      }
    }
    try {
      if (!conn.isClosed()) {
        conn.abort(Runnable::run);
      }
    } catch (SQLException | RuntimeException e) {
      // already gone: the op is already counted as failed and the caller reconnects
    }
  }

  private static boolean ended(Connection conn) throws SQLException {
    return conn.unwrap(BaseConnection.class).getTransactionState() == TransactionState.IDLE;
  }

  private static void end(Connection conn) throws SQLException {
    if (!conn.getAutoCommit()) {
      conn.rollback();
      return;
    }
    // never server-prepared: under -M prepared a ROLLBACK the driver named S_n, behind a
    // transaction-mode pooler without statement tracking, met a server connection that had that
    // name already (42P05) and left the aborted transaction there, so the client's next ops failed
    // with 25P02
    try (Statement st = ConnectionFactory.unnamed(conn.createStatement())) {
      st.execute("ROLLBACK");
    }
  }
}
