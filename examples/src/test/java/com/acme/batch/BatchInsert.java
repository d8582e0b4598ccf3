package com.acme.batch;

import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * One op inserts {@code -D batch=N} rows (default 100) with {@code addBatch}/{@code executeBatch}
 * in one transaction. Whether pgjdbc sends them as N single-row INSERTs or rewrites them into
 * multi-row INSERTs is the driver property {@code reWriteBatchedInserts}: the code is the same,
 * only the run's knob differs ({@code --rewrite-batched-inserts} on the command line).
 */
public class BatchInsert implements JdbcWorkload {
  private long next;

  @Override
  public void setUp(DataSource ds) throws Exception {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE IF NOT EXISTS batch_rows"
              + " (client int, n bigint, amount numeric(12,2), note text)");
      // every trial starts from an empty table, so both arms insert into the same state
      st.execute("TRUNCATE batch_rows");
    }
  }

  @Override
  public void op(Op op) throws Exception {
    int batch = op.intParam("batch", 100);
    Connection c = op.connection();
    c.setAutoCommit(false);
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO batch_rows (client, n, amount, note) VALUES (?, ?, ?, ?)")) {
      for (int i = 0; i < batch; i++) {
        ps.setInt(1, op.client());
        ps.setLong(2, next++);
        ps.setBigDecimal(3, java.math.BigDecimal.valueOf(op.random().nextInt(100_000), 2));
        ps.setString(4, "row " + next);
        ps.addBatch();
      }
      ps.executeBatch();
      c.commit();
    } catch (Exception e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(true);
    }
  }
}
