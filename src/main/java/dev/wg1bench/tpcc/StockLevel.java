package dev.wg1bench.tpcc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The Stock-Level transaction, TPC-C 5.11 clause 2.8: how many distinct items of the terminal's
 * district's last 20 orders have a stock below a threshold of 10 to 20, read-only.
 */
final class StockLevel {
  private StockLevel() {}

  /** Returns the count of items below the threshold. */
  static int run(Connection c, Terminal t) throws SQLException {
    int threshold = t.r().uniform(10, 20);
    c.setAutoCommit(false);
    // the district's next order number first, so the order_line range below is two constants
    // the planner can take to the primary key (clause 2.8.2.2 reads it the same way)
    int next =
        Integer.parseInt(
            Payment.one(
                c,
                "SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?",
                t.warehouse(),
                t.district()));
    int low;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT count(DISTINCT s_i_id) FROM order_line, stock"
                + " WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ?"
                + " AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?")) {
      ps.setInt(1, t.warehouse());
      ps.setInt(2, t.district());
      ps.setInt(3, next);
      ps.setInt(4, next - 20);
      ps.setInt(5, t.warehouse());
      ps.setInt(6, threshold);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        low = rs.getInt(1);
      }
    }
    c.commit();
    c.setAutoCommit(true);
    return low;
  }
}
