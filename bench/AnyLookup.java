import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * bench/roundtrips-vs-proxy.sh's answer to the N+1: the same ten rows in one {@code = ANY} query,
 * one round trip per op. Needs pgbench tables at scale >= 1.
 */
public class AnyLookup implements JdbcWorkload {
  @Override
  public void op(Op op) throws SQLException {
    Integer[] ids = new Integer[10];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = 1 + op.random().nextInt(100_000);
    }
    try (PreparedStatement ps =
        op.connection()
            .prepareStatement("SELECT abalance FROM pgbench_accounts WHERE aid = ANY (?)")) {
      Array a = op.connection().createArrayOf("int4", ids);
      ps.setArray(1, a);
      try (ResultSet r = ps.executeQuery()) {
        while (r.next()) {
          // read every row
        }
      }
    }
  }
}
