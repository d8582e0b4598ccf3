package dev.wg1bench.workload;

import static dev.wg1bench.load.CopyText.digits;
import static dev.wg1bench.load.CopyText.put;

import dev.wg1bench.plan.Isolation;
import dev.wg1bench.script.PgbenchRandom;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.Set;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * The blog's insert transaction done the ways an application can, beyond what pgbench expresses
 * (seed 001; WORKLOADS.md "Bulk-insert family"). One op inserts N rows into pgbench_history: the
 * same tid, bid and aid, deltas d, d+1, ..., d+N-1. The random numbers are drawn exactly as the
 * {@code insert8} script draws them (aid, bid, tid, delta from the client's stream), so with the
 * same seed every variant inserts the same rows as insert8 and each other.
 *
 * <ul>
 *   <li>{@link Variant#BATCH}: N single-row INSERTs through one JDBC batch (addBatch /
 *       executeBatch) and a commit; with {@code --rewrite-batched-inserts} pgjdbc sends them as
 *       multi-row INSERTs.
 *   <li>{@link Variant#MULTIROW}: one {@code INSERT ... VALUES (...), (...)} of N rows.
 *   <li>{@link Variant#COPY}: {@code COPY ... FROM STDIN} of N rows through pgjdbc's CopyManager.
 *       COPY cannot evaluate CURRENT_TIMESTAMP, so mtime is the client's clock (UTC) at the op.
 * </ul>
 */
public final class InsertWorkload implements Workload {
  /** How the N rows travel. */
  public enum Variant {
    BATCH(
        "insert_batch",
        "N single-row INSERTs in one JDBC batch and one transaction (--batch-size, --rewrite-batched-inserts)"),
    MULTIROW(
        "insert_multirow",
        "one multi-row INSERT ... VALUES of N rows per transaction (--batch-size)"),
    COPY(
        "insert_copy",
        "COPY FROM STDIN of N rows per transaction through pgjdbc's CopyManager (--batch-size)");

    final String workloadName;
    final String description;

    Variant(String workloadName, String description) {
      this.workloadName = workloadName;
      this.description = description;
    }
  }

  static final String COLUMNS = "pgbench_history (tid, bid, aid, delta, mtime)";

  private final Variant variant;
  private final int rows;

  public InsertWorkload(Variant variant, int rows) {
    this.variant = variant;
    this.rows = rows;
  }

  @Override
  public String name() {
    return variant.workloadName;
  }

  @Override
  public String description() {
    return variant.description;
  }

  @Override
  public String seed() {
    return "blog (insert-heavy pgbench), app-side variants";
  }

  @Override
  public Schema schema() {
    return Schema.PGBENCH;
  }

  @Override
  public Isolation defaultIsolation() {
    return null;
  }

  @Override
  public int rowsInsertedPerOp() {
    return rows;
  }

  @Override
  public DataCheck dataCheck() {
    return new DataCheck(EnumSet.of(DataCheck.Rule.ROWS), rows);
  }

  @Override
  public void check(Set<String> predefined) {
    // no script: nothing to check before connecting
  }

  @Override
  public ClientSession open(ClientContext context) {
    return new Session(context);
  }

  /** The row values of one op, drawn as insert8's \set lines draw them. */
  static final class Draw {
    long aid;
    long bid;
    long tid;
    long delta;

    void next(PgbenchRandom r, int scale) {
      aid = r.uniform(1, 100_000L * scale);
      bid = r.uniform(1, scale);
      tid = r.uniform(1, 10L * scale);
      delta = r.uniform(-5000, 5000);
    }
  }

  private final class Session implements ClientSession {
    private final PgbenchRandom random;
    private final int scale;
    private final boolean exitOnError;
    private final Draw d = new Draw();
    private final byte[] copyBuffer;
    private Connection preparedOn;
    private PreparedStatement statement;

    Session(ClientContext ctx) {
      // the stream the script variants get (pgbench's per-client derivation), so every variant
      // draws the same numbers for the same client and op
      this.random = PgbenchRandom.forClient(ctx.randomSeed(), ctx.clientId());
      this.scale = ctx.scale();
      this.exitOnError = ctx.exitOnError();
      this.copyBuffer = new byte[rows * 96];
    }

    @Override
    public boolean runOp(Connection conn, OpCounts op, ErrorSamples errors) throws SQLException {
      d.next(random, scale);
      try {
        switch (variant) {
          case BATCH -> batch(conn, op);
          case MULTIROW -> multirow(conn, op);
          case COPY -> copy(conn, op);
          default -> throw new IllegalStateException(variant.name());
        }
        return true;
      } catch (SQLException e) {
        ScriptSession.rollbackIfNeeded(conn);
        FailureKind kind = FailureKind.of(e);
        errors.error(kind, e.getSQLState(), firstLine(e.getMessage()), false);
        errors.failed(op, kind);
        if (exitOnError) {
          throw new OpFailedException(kind.label() + " failure: " + firstLine(e.getMessage()), e);
        }
        return false;
      }
    }

    private PreparedStatement prepare(Connection conn, String sql) throws SQLException {
      if (conn != preparedOn) {
        preparedOn = conn;
        statement = conn.prepareStatement(sql);
      }
      return statement;
    }

    private void batch(Connection conn, OpCounts op) throws SQLException {
      PreparedStatement ps =
          prepare(conn, "INSERT INTO " + COLUMNS + " VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)");
      boolean auto = conn.getAutoCommit();
      if (auto) {
        conn.setAutoCommit(false);
      }
      try {
        for (int i = 0; i < rows; i++) {
          ps.setLong(1, d.tid);
          ps.setLong(2, d.bid);
          ps.setLong(3, d.aid);
          ps.setLong(4, d.delta + i);
          ps.addBatch();
        }
        ps.executeBatch();
        conn.commit();
        op.statements += rows;
      } finally {
        if (auto) {
          ScriptSession.rollbackIfNeeded(conn);
          conn.setAutoCommit(true);
        }
      }
    }

    private void multirow(Connection conn, OpCounts op) throws SQLException {
      PreparedStatement ps = prepare(conn, multirowSql(rows));
      int p = 1;
      for (int i = 0; i < rows; i++) {
        ps.setLong(p++, d.tid);
        ps.setLong(p++, d.bid);
        ps.setLong(p++, d.aid);
        ps.setLong(p++, d.delta + i);
      }
      ps.executeUpdate();
      op.statements++;
    }

    private void copy(Connection conn, OpCounts op) throws SQLException {
      byte[] ts =
          LocalDateTime.now(ZoneOffset.UTC)
              .toString()
              .replace('T', ' ')
              .getBytes(StandardCharsets.US_ASCII);
      int n = 0;
      for (int i = 0; i < rows; i++) {
        n = digits(copyBuffer, n, d.tid);
        copyBuffer[n++] = '\t';
        n = digits(copyBuffer, n, d.bid);
        copyBuffer[n++] = '\t';
        n = digits(copyBuffer, n, d.aid);
        copyBuffer[n++] = '\t';
        n = digits(copyBuffer, n, d.delta + i);
        copyBuffer[n++] = '\t';
        n = put(copyBuffer, n, ts);
        copyBuffer[n++] = '\n';
      }
      CopyIn in =
          conn.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + COLUMNS + " FROM STDIN");
      try {
        in.writeToCopy(copyBuffer, 0, n);
        in.endCopy();
      } finally {
        if (in.isActive()) {
          in.cancelCopy();
        }
      }
      op.statements++;
    }

    @Override
    public void close() {
      try {
        if (statement != null) {
          statement.close();
        }
      } catch (SQLException e) {
        // closing with the connection anyway
      }
    }
  }

  static String multirowSql(int rows) {
    StringBuilder b = new StringBuilder("INSERT INTO ").append(COLUMNS).append(" VALUES ");
    for (int i = 0; i < rows; i++) {
      b.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, CURRENT_TIMESTAMP)");
    }
    return b.toString();
  }

  private static String firstLine(String m) {
    if (m == null) {
      return "";
    }
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
