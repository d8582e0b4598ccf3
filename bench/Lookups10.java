import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * bench/roundtrips-vs-proxy.sh's N+1 op: ten single-row lookups of pgbench_accounts, one statement
 * and one round trip each in autocommit, so the protocol requires exactly 10 round trips per op.
 * Needs pgbench tables at scale >= 1.
 */
public class Lookups10 implements JdbcWorkload {
  @Override
  public void op(Op op) throws SQLException {
    try (PreparedStatement ps =
        op.connection().prepareStatement("SELECT abalance FROM pgbench_accounts WHERE aid = ?")) {
      for (int i = 0; i < 10; i++) {
        ps.setInt(1, 1 + op.random().nextInt(100_000));
        try (ResultSet r = ps.executeQuery()) {
          if (!r.next()) {
            throw new SQLException("no row");
          }
        }
      }
    }
  }
}
