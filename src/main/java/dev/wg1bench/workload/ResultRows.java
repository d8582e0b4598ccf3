package dev.wg1bench.workload;

import dev.wg1bench.script.CompiledScript;
import dev.wg1bench.script.ScriptRuntimeException;
import dev.wg1bench.script.SqlStep;
import dev.wg1bench.script.Values;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A script statement's results read as pgbench reads them: every row of every result (a compound
 * {@code \;} command has several), and the row {@code \gset} or {@code \aset} stores into the
 * script's variables.
 */
final class ResultRows {
  private ResultRows() {}

  /**
   * {@code \gset}: the LAST result of the command, as pgbench stores it after a compound {@code \;}
   * command (the earlier results are read and dropped); as in pgbench it must have exactly one row,
   * and every column must make a valid variable name.
   */
  static void gsetLast(Statement ps, boolean hasRows, SqlStep q, CompiledScript cs, Object[] vars)
      throws SQLException {
    String[] labels = null;
    String[] values = null;
    int rows = 0;
    while (hasRows || ps.getUpdateCount() != -1) {
      labels = null;
      values = null;
      rows = 0;
      if (hasRows) {
        try (ResultSet rs = ps.getResultSet()) {
          while (rs.next()) {
            if (rows++ == 0) {
              labels = labels(rs);
              values = row(rs, labels.length);
            }
          }
        }
      }
      hasRows = ps.getMoreResults();
    }
    if (rows != 1) {
      throw new ScriptRuntimeException(
          cs.sourceName(), q.line(), "\\gset: expected one row, got " + rows);
    }
    storeRow(q, labels, values, cs, vars);
  }

  /**
   * Reads every result of a statement (a compound {@code \;} command has several): pgbench reads
   * every row, so a SELECT costs what it costs. Under {@code \aset} the last row of each result
   * that has rows is stored, as pgbench does; a result without rows stores nothing.
   */
  static void drain(Statement ps, boolean hasRows, SqlStep aset, CompiledScript cs, Object[] vars)
      throws SQLException {
    while (hasRows || ps.getUpdateCount() != -1) {
      if (hasRows) {
        try (ResultSet rs = ps.getResultSet()) {
          String[] labels = null;
          String[] values = null;
          while (rs.next()) {
            if (aset != null) {
              labels = labels == null ? labels(rs) : labels;
              values = row(rs, labels.length);
            }
          }
          if (values != null) {
            storeRow(aset, labels, values, cs, vars);
          }
        }
      }
      hasRows = ps.getMoreResults();
    }
  }

  private static String[] labels(ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    String[] labels = new String[md.getColumnCount()];
    for (int c = 0; c < labels.length; c++) {
      labels[c] = md.getColumnLabel(c + 1);
    }
    return labels;
  }

  /** The current row as pgbench stores it: each column's text, an SQL NULL as "". */
  private static String[] row(ResultSet rs, int n) throws SQLException {
    String[] values = new String[n];
    for (int c = 0; c < n; c++) {
      String v = rs.getString(c + 1);
      values[c] = v == null ? "" : v;
    }
    return values;
  }

  /** A row's columns into the slots of prefix + column name; a name pgbench refuses fails. */
  private static void storeRow(
      SqlStep q, String[] labels, String[] values, CompiledScript cs, Object[] vars) {
    for (int c = 0; c < labels.length; c++) {
      String name = q.gsetPrefix() + labels[c];
      if (!Values.validVariableName(name)) {
        throw new ScriptRuntimeException(
            cs.sourceName(),
            q.line(),
            (q.aset() ? "\\aset" : "\\gset")
                + ": error storing into variable "
                + name
                + ": invalid variable name");
      }
      int slot = cs.slotOf(name);
      if (slot >= 0) {
        // pgbench stores each column's text; expressions read numbers out of it on use
        vars[slot] = values[c];
      }
    }
  }
}
