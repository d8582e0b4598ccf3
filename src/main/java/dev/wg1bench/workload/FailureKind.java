package dev.wg1bench.workload;

import java.sql.SQLException;

/** How an op failed, by the SQLSTATE classes pgbench's --failures-detailed distinguishes. */
public enum FailureKind {
  SERIALIZATION,
  DEADLOCK,
  CONNECTION,
  SCRIPT,
  OTHER;

  /** Serialization failures and deadlocks are the only failures a retry can cure. */
  public boolean retryable() {
    return this == SERIALIZATION || this == DEADLOCK;
  }

  /**
   * The kind of {@code e}: connection failures are SQLSTATE class 08 (pgjdbc's connection closed
   * included), 57P01-57P03 (the server shutting down or not yet accepting), and any error caused by
   * an I/O failure on the socket.
   */
  public static FailureKind of(SQLException e) {
    String s = e.getSQLState();
    if (s == null) {
      return causedByIo(e) ? CONNECTION : OTHER;
    }
    if (s.equals("40001")) {
      return SERIALIZATION;
    }
    if (s.equals("40P01")) {
      return DEADLOCK;
    }
    if (s.startsWith("08") || s.equals("57P01") || s.equals("57P02") || s.equals("57P03")) {
      return CONNECTION;
    }
    return causedByIo(e) ? CONNECTION : OTHER;
  }

  private static boolean causedByIo(Throwable e) {
    for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
      if (t instanceof java.io.IOException) {
        return true;
      }
    }
    return false;
  }

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
