package dev.wg1bench.workload;

import dev.wg1bench.script.Values;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Arrays;
import org.postgresql.PGConnection;
import org.postgresql.core.BaseConnection;
import org.postgresql.jdbc.PreferQueryMode;

/**
 * A script session's statements on its connection: each SQL command prepared once per connection
 * and reused, as pgbench -M prepared does (in simple and extended modes pgjdbc still re-sends the
 * text, which is what those modes measure), and under -M simple the one statement that sends each
 * command with its variables substituted as text. A connection other than the last one (a pool's
 * next lease) starts the cache again.
 */
final class ScriptStatements {
  /** Per script, per step: the step's prepared statement, or null until its first run. */
  private final PreparedStatement[][] prepared;

  /** The connection the cached statements belong to. */
  private Connection on;

  /** Whether {@link #on} speaks the simple query protocol (-M simple). */
  private boolean simple;

  /** -M simple: the statement that sends each command with its variables substituted as text. */
  private Statement plain;

  /** {@link #on}'s pgjdbc connection, for its transaction state at the end of an op. */
  private BaseConnection base;

  /**
   * @param steps per script, its number of steps
   */
  ScriptStatements(int[] steps) {
    prepared = new PreparedStatement[steps.length][];
    for (int s = 0; s < steps.length; s++) {
      prepared[s] = new PreparedStatement[steps[s]];
    }
  }

  /**
   * Makes {@code conn} the connection of the statements to come. Statements of a pooled
   * connection's earlier lease were closed with it; pgjdbc still reuses its server-side prepared
   * statements per physical connection.
   */
  void use(Connection conn) throws SQLException {
    if (conn == on) {
      return;
    }
    for (PreparedStatement[] row : prepared) {
      Arrays.fill(row, null);
    }
    on = conn;
    simple = conn.unwrap(PGConnection.class).getPreferQueryMode() == PreferQueryMode.SIMPLE;
    base = conn.unwrap(BaseConnection.class);
    plain = null;
  }

  /** The connection speaks the simple query protocol (-M simple). */
  boolean simple() {
    return simple;
  }

  /** The connection as pgjdbc's, for its transaction state. */
  BaseConnection base() {
    return base;
  }

  /** Step {@code i} of script {@code s} prepared with {@code sql}, once per connection. */
  PreparedStatement prepared(int s, int i, String sql) throws SQLException {
    PreparedStatement ps = prepared[s][i];
    if (ps == null) {
      ps = on.prepareStatement(sql);
      prepared[s][i] = ps;
    }
    return ps;
  }

  /** -M simple's statement: the text as the server gets it, no {fn ...} escapes rewritten. */
  Statement plain() throws SQLException {
    if (plain == null) {
      plain = on.createStatement();
      plain.setEscapeProcessing(false);
    }
    return plain;
  }

  /**
   * As pgbench -M extended / prepared sends a variable: its text, with no type, so the server
   * infers the type from where the parameter is used ({@code repeat('x', :n)} takes an int, {@code
   * :s = 0.3} a numeric); doubles as pgbench formats them (15 significant digits), NULL as the text
   * "NULL" as pgbench does, and a variable never set as an SQL NULL.
   */
  static void bind(PreparedStatement ps, int i, Object raw) throws SQLException {
    if (raw == Values.UNDEFINED) {
      ps.setNull(i, Types.OTHER);
    } else {
      ps.setObject(i, Values.toText(raw), Types.OTHER);
    }
  }

  /** Closes every statement; the connection is going away anyway, so errors are not reported. */
  void close() {
    if (on == null) {
      return;
    }
    quietly(plain);
    for (PreparedStatement[] row : prepared) {
      for (PreparedStatement ps : row) {
        quietly(ps);
      }
    }
  }

  private static void quietly(Statement st) {
    if (st != null) {
      try {
        st.close();
      } catch (SQLException e) {
        // the connection is going away anyway
      }
    }
  }
}
