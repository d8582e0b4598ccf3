package dev.wg1bench.workload;

import java.sql.SQLException;
import java.util.Locale;

/** How an op failed, by the SQLSTATE classes pgbench's --failures-detailed distinguishes. */
public enum FailureKind {
  SERIALIZATION,
  DEADLOCK,
  CONNECTION,
  SCRIPT,
  /**
   * A prepared statement missing on, or already on, the server connection the op got: session state
   * lost between server connections, as a transaction- or statement-mode pooler does to pgjdbc's
   * named statements (PgBouncer without max_prepared_statements). On a direct connection these do
   * not happen.
   */
  POOLER,
  /** A statement cancelled by statement_timeout (--statement-timeout). */
  TIMEOUT,
  OTHER;

  /** Serialization failures and deadlocks are the only failures a retry can cure. */
  public boolean retryable() {
    return this == SERIALIZATION || this == DEADLOCK;
  }

  public static FailureKind of(SQLException e) {
    String s = e.getSQLState();
    if (s == null) {
      return OTHER;
    }
    if (s.equals("40001")) {
      return SERIALIZATION;
    }
    if (s.equals("40P01")) {
      return DEADLOCK;
    }
    String msg = e.getMessage() == null ? "" : e.getMessage();
    if (s.equals("26000") || s.equals("42P05") || msg.contains("prepared statement \"S_")) {
      return POOLER;
    }
    if (s.equals("57014")) {
      return TIMEOUT;
    }
    if (s.startsWith("08") || s.equals("57P01") || s.equals("57P02") || s.equals("57P03")) {
      return CONNECTION;
    }
    return OTHER;
  }

  /**
   * Whether an op failing this way would fail again however often it ran, so pgbench would abort
   * the client: a script error, a syntax error, an undefined table, column or function, a missing
   * privilege (class 42), a database or schema that does not exist (3D000, 3F000), refused
   * authentication (class 28). Data-dependent errors (division by zero, a duplicate key) and lost
   * connections may not recur and are only counted.
   */
  public static boolean wontHeal(FailureKind kind, String sqlState) {
    if (kind == SCRIPT) {
      return true;
    }
    if (kind != OTHER) {
      // only an unclassified error can be a wrong statement, object, role or database; a pooler's
      // lost or duplicated prepared statement (42P05, 26000, kind pooler, or connection when met
      // while connecting), a timeout or a conflict may not recur on the next op
      return false;
    }
    if (sqlState == null) {
      return false;
    }
    return sqlState.startsWith("42")
        || sqlState.startsWith("28")
        || sqlState.equals("3D000")
        || sqlState.equals("3F000");
  }

  /**
   * Whether a client that cannot open its connection at the start should stop rather than keep
   * trying: as {@link #wontHeal} (a wrong database, user or password), and the server's connection
   * limit (53300), which the running clients keep full.
   */
  public static boolean wontHealAtConnect(SQLException e) {
    // classified as any failure is, so a pooler's lost statement met while preparing the session
    // (42P05 behind PgBouncer) does not pass for a wrong database or role
    return "53300".equals(e.getSQLState()) || wontHeal(of(e), e.getSQLState());
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
