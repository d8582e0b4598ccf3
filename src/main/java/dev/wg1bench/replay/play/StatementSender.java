package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.JdbcStatement;
import dev.wg1bench.replay.capture.LoggedStatement;
import dev.wg1bench.replay.capture.Replayable;
import dev.wg1bench.replay.capture.SqlText;
import java.io.IOException;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Types;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.PGConnection;
import org.postgresql.PGStatement;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.Field;
import org.postgresql.core.NativeQuery;
import org.postgresql.core.Query;
import org.postgresql.core.QueryExecutor;
import org.postgresql.core.ResultCursor;
import org.postgresql.core.ResultHandlerBase;
import org.postgresql.core.SqlCommand;
import org.postgresql.core.TransactionState;
import org.postgresql.core.Tuple;
import org.postgresql.util.PSQLException;

/**
 * Sends one logged statement the way its client sent it, and says what came back:
 *
 * <ul>
 *   <li>a statement with bind values: Parse/Bind/Execute with the values untyped, as logged;
 *   <li>a multi-statement string: one simple-protocol Query message, whatever the query mode, so
 *       the server runs it in one implicit transaction as it did for the client (pgjdbc would split
 *       it into a pipeline of separate statements, with other meaning);
 *   <li>{@code COPY ... TO STDOUT}: through pgjdbc's CopyManager, the output read and discarded;
 *   <li>anything else: under the simple query mode, one Query message through pgjdbc's executor (as
 *       pgjdbc's simple mode would send it, without a JDBC Statement around it); under {@code -M
 *       prepared} without a threshold of the user's, a text the session sends once as an unnamed
 *       statement ({@link Route#prepared}); otherwise as a JDBC Statement under the run's query
 *       mode.
 * </ul>
 *
 * <p>pgjdbc re-sends a statement once, silently, when it fails with 26000 (prepared statement does
 * not exist) or a cached-plan 0A000 outside a failed transaction (its {@code willHealOnRetry}); the
 * server then ran it twice, which the result counts rather than hides.
 */
final class StatementSender {
  /**
   * What one statement did.
   *
   * @param outcome "ok", the server's SQLSTATE, or "driver " + pgjdbc's SQLSTATE for an error the
   *     driver raised without the server (never equal to a log's outcome)
   * @param message the error's first line, null when ok
   * @param sentTwice pgjdbc re-sent it after a 26000 or cached-plan error
   * @param connectionLost the connection cannot run anything more
   */
  record Sent(
      String outcome,
      String message,
      long affected,
      long returned,
      boolean sentTwice,
      boolean connectionLost) {
    boolean ok() {
      return "ok".equals(outcome);
    }
  }

  private StatementSender() {}

  /**
   * How a statement goes to the server, as the list above says; found once per statement before the
   * replay's clock starts, because reading the text (its parts, a COPY's words) costs more CPU than
   * sending it (on a 4-client pgbench log, a tenth of the session threads' time).
   */
  enum Route {
    /** Parse/Bind/Execute with the log's values. */
    EXTENDED,
    /** {@link #EXTENDED}, a text the session sends once: unnamed whatever the threshold. */
    EXTENDED_ONCE,
    /** COPY ... TO STDOUT through CopyManager. */
    COPY_OUT,
    /** One simple-protocol Query message: a multi-statement string, or any under simple mode. */
    QUERY_MESSAGE,
    /** A JDBC Statement under the run's query mode. */
    JDBC_STATEMENT,
    /** Under {@code -M prepared}, a text the session sends once: an unnamed Parse/Bind/Execute. */
    UNNAMED;

    /**
     * @param simple the run's query mode is simple: a statement without values goes as one Query
     *     message through pgjdbc's executor, as pgjdbc's own simple mode sends it, without a JDBC
     *     Statement, its result set or pgjdbc's scan of the text for escapes and placeholders (the
     *     text is the server's, and is sent as it is either way)
     */
    static Route of(LoggedStatement st, boolean simple) {
      if (st.parameters() != null) {
        return EXTENDED;
      }
      if (Replayable.copyOut(st.sent())) {
        return COPY_OUT;
      }
      return simple || SqlText.parts(st.sent()).size() > 1 ? QUERY_MESSAGE : JDBC_STATEMENT;
    }

    /**
     * This route under {@code -M prepared} (prepareThreshold 1, not set by the user), for a text
     * its session sends {@code sends} times. pgjdbc names every text on the server, so a log of
     * literal SQL, as pgbench's simple mode writes, cost the server a saved plan (and its Close)
     * for each statement that no later one ran: on a 4-client fsync-on pgbench log at {@code
     * --speed max}, 8.3-8.6 s for the log's 8.0 s span. A text sent once goes unnamed instead. A
     * text that recurs stays pgjdbc's: a plain statement's text is named anew at each send (pgjdbc
     * caches only a PreparedStatement's), so it is parsed under the session's settings of that
     * moment, as the log's was; a named statement bound again would keep its first parse (a {@code
     * date '99-01-08'} read under another DateStyle, a {@code U&'...'} under another
     * standard_conforming_strings): 18 of the regression SQL's statements ran where the log shows
     * them fail.
     */
    Route prepared(int sends) {
      return switch (this) {
        case EXTENDED -> sends > 1 ? EXTENDED : EXTENDED_ONCE;
        case JDBC_STATEMENT -> sends > 1 ? JDBC_STATEMENT : UNNAMED;
        default -> this;
      };
    }

    /**
     * How often a session sends each text: under {@code -M prepared} a text sent once goes unnamed
     * ({@link #prepared}); a threshold the user set ({@code --prepare-threshold}) is pgjdbc's own
     * rule, applied to every text.
     */
    static Map<String, Integer> sends(List<LoggedStatement> statements) {
      Map<String, Integer> out = new HashMap<>();
      for (LoggedStatement x : statements) {
        if (x.skip() == null) {
          out.merge(x.sent(), 1, Integer::sum);
        }
      }
      return out;
    }
  }

  /**
   * @param route how it goes, {@link Route#of} the statement
   */
  static Sent send(Connection c, LoggedStatement st, Route route) {
    long[] rows = {0, 0};
    TransactionState before = state(c);
    try {
      switch (route) {
        case EXTENDED, EXTENDED_ONCE -> extended(c, st, route == Route.EXTENDED_ONCE, rows);
        case COPY_OUT ->
            rows[1] =
                c.unwrap(PGConnection.class)
                    .getCopyAPI()
                    .copyOut(st.sent(), OutputStream.nullOutputStream());
        case QUERY_MESSAGE -> simpleQuery(c, st.sent(), rows);
        case UNNAMED -> query(c, st.sent(), QueryExecutor.QUERY_ONESHOT, rows);
        case JDBC_STATEMENT -> {
          try (Statement s = c.createStatement()) {
            // the text is the server's, not JDBC's: no {fn ...} escapes to rewrite
            s.setEscapeProcessing(false);
            drain(s, s.execute(st.sent()), rows);
          }
        }
      }
      return new Sent("ok", null, rows[0], rows[1], false, false);
    } catch (SQLException e) {
      return failed(c, e, before, rows);
    } catch (IOException e) {
      return new Sent("driver 08006", e.getMessage(), rows[0], rows[1], false, true);
    } catch (RuntimeException e) {
      // pgjdbc's own state errors (IllegalStateException and the like): the driver's, not SQL's
      return new Sent("driver XX000", e.toString(), rows[0], rows[1], false, true);
    }
  }

  private static Sent failed(Connection c, SQLException e, TransactionState before, long[] rows) {
    String state = e.getSQLState() == null ? "XX000" : e.getSQLState();
    boolean server = e instanceof PSQLException p && p.getServerErrorMessage() != null;
    boolean lost = state.startsWith("08") || closed(c);
    boolean healable =
        "26000".equals(state)
            || ("0A000".equals(state)
                && String.valueOf(e.getMessage()).contains("cached plan must not change"));
    boolean twice = server && healable && before != TransactionState.FAILED;
    String first = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
    return new Sent(server ? state : "driver " + state, first, rows[0], rows[1], twice, lost);
  }

  private static boolean closed(Connection c) {
    try {
      return c.isClosed();
    } catch (SQLException e) {
      return true;
    }
  }

  private static TransactionState state(Connection c) {
    try {
      return c.unwrap(BaseConnection.class).getTransactionState();
    } catch (SQLException e) {
      return null;
    }
  }

  /** Whether the connection is inside a transaction block (open or failed), as the server said. */
  static boolean inTransaction(Connection c) {
    TransactionState s = state(c);
    return s != null && s != TransactionState.IDLE;
  }

  /** Parse/Bind/Execute with the log's values, each untyped: the server infers their types. */
  private static void extended(Connection c, LoggedStatement st, boolean once, long[] rows)
      throws SQLException {
    JdbcStatement j = JdbcStatement.of(st.sql());
    try (PreparedStatement ps = c.prepareStatement(j.sql())) {
      if (once) {
        // a threshold of 0 sends it unnamed, whatever the connection's
        ps.unwrap(PGStatement.class).setPrepareThreshold(0);
      }
      for (int i = 0; i < j.order().length; i++) {
        String v = st.parameters().get(j.order()[i] - 1);
        if (v == null) {
          ps.setNull(i + 1, Types.OTHER);
        } else {
          ps.setObject(i + 1, v, Types.OTHER);
        }
      }
      drain(ps, ps.execute(), rows);
    }
  }

  /** One Query message with the whole string, through pgjdbc's executor and no statement object. */
  private static void simpleQuery(Connection c, String sql, long[] rows) throws SQLException {
    query(c, sql, QueryExecutor.QUERY_EXECUTE_AS_SIMPLE, rows);
  }

  /** The text through pgjdbc's executor, as {@code flags} say, without a statement object. */
  private static void query(Connection c, String sql, int flags, long[] rows) throws SQLException {
    QueryExecutor qe = c.unwrap(BaseConnection.class).getQueryExecutor();
    // one statement unless sent as a Query message (pgjdbc asserts a multi-statement text is)
    boolean multi = (flags & QueryExecutor.QUERY_EXECUTE_AS_SIMPLE) != 0;
    Query q = qe.wrap(List.of(new NativeQuery(sql, new int[0], multi, SqlCommand.BLANK)));
    Counting h = new Counting(rows);
    int f = c.getAutoCommit() ? flags | QueryExecutor.QUERY_SUPPRESS_BEGIN : flags;
    try {
      qe.execute(q, q.createParameterList(), h, 0, 0, f);
      h.handleCompletion();
    } finally {
      q.close();
    }
  }

  /** Counts rows and affected rows of every result, keeps the first error. */
  private static final class Counting extends ResultHandlerBase {
    private final long[] rows;

    Counting(long[] rows) {
      this.rows = rows;
    }

    @Override
    public void handleResultRows(
        Query fromQuery, Field[] fields, List<Tuple> tuples, ResultCursor cursor) {
      rows[1] += tuples.size();
    }

    @Override
    public void handleCommandStatus(String status, long updateCount, long insertOID) {
      rows[0] += Math.max(0, updateCount);
    }

    @Override
    public void handleWarning(SQLWarning warning) {
      // notices are not outcomes
    }
  }

  /** Reads every result the statement produced, as a client would: rows[0] affected, [1] read. */
  private static void drain(Statement s, boolean isResultSet, long[] rows) throws SQLException {
    boolean rs = isResultSet;
    while (true) {
      if (rs) {
        try (ResultSet r = s.getResultSet()) {
          while (r.next()) {
            rows[1]++;
          }
        }
      } else {
        int n = s.getUpdateCount();
        if (n == -1) {
          return;
        }
        rows[0] += n;
      }
      rs = s.getMoreResults();
    }
  }
}
