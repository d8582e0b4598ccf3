import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * bench/rtt-vs-proxy.sh's large-result op: 10,000 consecutive pgbench_accounts rows read with the
 * run's --fetch-size (100 there), so the driver fetches them through a portal 100 rows per round
 * trip. pgjdbc fetches in pieces only outside autocommit and in extended query mode (-M extended),
 * hence the transaction. Needs pgbench tables at scale >= 1.
 */
public class Fetch10k implements JdbcWorkload {
  private static final int ROWS = 10_000;

  @Override
  public void op(Op op) throws SQLException {
    Connection c = op.connection();
    c.setAutoCommit(false);
    try (PreparedStatement ps =
        c.prepareStatement("SELECT aid, abalance FROM pgbench_accounts WHERE aid BETWEEN ? AND ?")) {
      int from = 1 + op.random().nextInt(100_000 - ROWS);
      ps.setInt(1, from);
      ps.setInt(2, from + ROWS - 1);
      int n = 0;
      try (ResultSet r = ps.executeQuery()) {
        while (r.next()) {
          n++;
        }
      }
      if (n != ROWS) {
        throw new SQLException("expected " + ROWS + " rows, read " + n);
      }
      c.commit();
    } finally {
      c.setAutoCommit(true);
    }
  }
}
