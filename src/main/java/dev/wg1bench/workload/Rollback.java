package dev.wg1bench.workload;

import dev.wg1bench.server.ConnectionFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

/** Ends what a failed op left open on its connection, for every workload alike. */
public final class Rollback {
  private Rollback() {}

  /** After a failure inside BEGIN ... END the server waits for ROLLBACK; a dead link needs none. */
  public static void ifNeeded(Connection conn) {
    try {
      if (conn.isClosed()) {
        return;
      }
      if (!conn.getAutoCommit()) {
        conn.rollback();
      } else if (conn.unwrap(BaseConnection.class).getTransactionState() != TransactionState.IDLE) {
        // never server-prepared: under -M prepared a ROLLBACK the driver named S_n, behind a
        // transaction-mode pooler without statement tracking, met a server connection that had
        // that name already (42P05) and left the aborted transaction there, so the client's next
        // ops failed with 25P02
        try (Statement st = ConnectionFactory.unnamed(conn.createStatement())) {
          st.execute("ROLLBACK");
        }
      }
    } catch (SQLException e) {
      // the connection is broken; the op is already counted as failed and the caller reconnects
    }
  }
}
