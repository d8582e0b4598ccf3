package dev.wg1bench.tpcc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The Order-Status transaction, TPC-C 5.11 clause 2.6: a customer of the home warehouse (by last
 * name 60% of the time), their last order and its lines, read in one read-only transaction.
 */
final class OrderStatus {
  private OrderStatus() {}

  /** Returns the lines of the customer's last order it read. */
  static int run(Connection c, Terminal t) throws SQLException {
    TpccRandom r = t.r();
    int w = t.warehouse();
    int d = r.uniform(1, 10);
    boolean byName = r.uniform(1, 100) <= 60;
    int given = byName ? 0 : t.customerId();
    String last = byName ? t.lastName() : null;
    c.setAutoCommit(false);
    int customer = byName ? Customers.byLastName(c, w, d, last) : given;
    Payment.one(
        c,
        "SELECT c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
        w,
        d,
        customer);
    int lines = 0;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d"
                + " FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id ="
                + " (SELECT max(o_id) FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ?)")) {
      ps.setInt(1, w);
      ps.setInt(2, d);
      ps.setInt(3, w);
      ps.setInt(4, d);
      ps.setInt(5, customer);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          lines++;
        }
      }
    }
    c.commit();
    c.setAutoCommit(true);
    return lines;
  }
}
