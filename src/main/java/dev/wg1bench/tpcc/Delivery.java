package dev.wg1bench.tpcc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The Delivery transaction, TPC-C 5.11 clause 2.7: in each of the home warehouse's ten districts,
 * the oldest undelivered order delivered (its new_order row deleted, its carrier set, its lines
 * dated, its customer's balance raised by their sum), all in one transaction. A district with no
 * new order left, or whose oldest one another terminal took first, is skipped (clause 2.7.4.2).
 */
final class Delivery {
  private Delivery() {}

  /** Returns the districts it delivered an order in. */
  static int run(Connection c, Terminal t) throws SQLException {
    int w = t.warehouse();
    int carrier = t.r().uniform(1, 10);
    c.setAutoCommit(false);
    int delivered = 0;
    try (PreparedStatement take =
            c.prepareStatement(
                "DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id ="
                    + " (SELECT min(no_o_id) FROM new_order WHERE no_w_id = ? AND no_d_id = ?)"
                    + " RETURNING no_o_id");
        PreparedStatement order =
            c.prepareStatement(
                "UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?"
                    + " RETURNING o_c_id");
        PreparedStatement lines =
            c.prepareStatement(
                "UPDATE customer SET c_balance = c_balance + (SELECT sum(ol_amount) FROM"
                    + " order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?),"
                    + " c_delivery_cnt = c_delivery_cnt + 1"
                    + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?");
        PreparedStatement dated =
            c.prepareStatement(
                "UPDATE order_line SET ol_delivery_d = now()"
                    + " WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?")) {
      for (int d = 1; d <= WarehouseRows.DISTRICTS; d++) {
        Integer o = firstInt(take, w, d, w, d);
        if (o == null) {
          continue;
        }
        Integer customer = firstInt(order, carrier, w, d, o);
        set(dated, w, d, o).executeUpdate();
        set(lines, w, d, o, w, d, customer).executeUpdate();
        delivered++;
      }
    }
    c.commit();
    c.setAutoCommit(true);
    return delivered;
  }

  private static PreparedStatement set(PreparedStatement ps, int... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      ps.setInt(i + 1, args[i]);
    }
    return ps;
  }

  /** The first column of the first row, or null when there is none. */
  private static Integer firstInt(PreparedStatement ps, int... args) throws SQLException {
    try (ResultSet rs = set(ps, args).executeQuery()) {
      return rs.next() ? rs.getInt(1) : null;
    }
  }
}
