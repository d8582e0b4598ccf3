package dev.wg1bench.tpcc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The New-Order transaction, TPC-C 5.11 clause 2.4: an order of 5 to 15 lines entered for a
 * customer of the home warehouse, 1% of its lines supplied by another warehouse, and 1% of the
 * orders naming an unused item on their last line, so the transaction is rolled back by design.
 */
final class NewOrder {
  /** The item number clause 2.4.1.5 asks for to roll an order back: no item has it. */
  static final int UNUSED_ITEM = WarehouseRows.ITEMS + 1;

  private NewOrder() {}

  /** One order's input data (clause 2.4.1). */
  record Input(
      int warehouse, int district, int customer, int[] items, int[] supply, int[] quantity) {
    boolean rollsBack() {
      return items[items.length - 1] == UNUSED_ITEM;
    }

    boolean allLocal() {
      return Arrays.stream(supply).allMatch(w -> w == warehouse);
    }
  }

  static Input input(Terminal t) {
    TpccRandom r = t.r();
    int lines = r.uniform(5, 15);
    boolean rollback = r.uniform(1, 100) == 1;
    int[] items = new int[lines];
    int[] supply = new int[lines];
    int[] quantity = new int[lines];
    for (int i = 0; i < lines; i++) {
      items[i] = rollback && i == lines - 1 ? UNUSED_ITEM : t.itemId();
      supply[i] = r.uniform(1, 100) == 1 ? t.remoteWarehouse() : t.warehouse();
      quantity[i] = r.uniform(1, 10);
    }
    return new Input(t.warehouse(), r.uniform(1, 10), t.customerId(), items, supply, quantity);
  }

  private static final String DISTRICT =
      "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?"
          + " RETURNING d_tax, d_next_o_id - 1";
  private static final String CUSTOMER =
      "SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse"
          + " WHERE w_id = ? AND c_w_id = w_id AND c_d_id = ? AND c_id = ?";
  private static final String ORDER =
      "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local)"
          + " VALUES (?, ?, ?, ?, now(), ?, ?)";
  private static final String NEW_ORDER =
      "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)";
  private static final String ITEM = "SELECT i_price, i_name, i_data FROM item WHERE i_id = ?";
  private static final String LINE =
      "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,"
          + " ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";

  /**
   * Runs the order in one transaction; returns true when it committed, false when its unused item
   * rolled it back (clause 2.4.2.3). Any SQLException leaves the rollback to the caller.
   */
  static boolean run(Connection c, Input in) throws SQLException {
    int w = in.warehouse();
    int d = in.district();
    c.setAutoCommit(false);
    int orderId;
    try (PreparedStatement ps = c.prepareStatement(DISTRICT)) {
      ps.setInt(1, w);
      ps.setInt(2, d);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        orderId = rs.getInt(2);
      }
    }
    try (PreparedStatement ps = c.prepareStatement(CUSTOMER)) {
      ps.setInt(1, w);
      ps.setInt(2, d);
      ps.setInt(3, in.customer());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
      }
    }
    try (PreparedStatement o = c.prepareStatement(ORDER);
        PreparedStatement n = c.prepareStatement(NEW_ORDER)) {
      o.setInt(1, orderId);
      o.setInt(2, d);
      o.setInt(3, w);
      o.setInt(4, in.customer());
      o.setInt(5, in.items().length);
      o.setInt(6, in.allLocal() ? 1 : 0);
      o.executeUpdate();
      n.setInt(1, orderId);
      n.setInt(2, d);
      n.setInt(3, w);
      n.executeUpdate();
    }
    if (!lines(c, in, orderId)) {
      c.rollback();
      c.setAutoCommit(true);
      return false;
    }
    c.commit();
    c.setAutoCommit(true);
    return true;
  }

  /**
   * The order's lines; false at the unused item. Stock rows are updated in (warehouse, item) order,
   * so two orders sharing items wait for each other instead of deadlocking.
   */
  private static boolean lines(Connection c, Input in, int orderId) throws SQLException {
    Integer[] order = new Integer[in.items().length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(
        order,
        Comparator.<Integer>comparingInt(i -> in.supply()[i]).thenComparingInt(i -> in.items()[i]));
    try (PreparedStatement item = c.prepareStatement(ITEM);
        PreparedStatement line = c.prepareStatement(LINE)) {
      for (int i : order) {
        item.setInt(1, in.items()[i]);
        double price;
        try (ResultSet rs = item.executeQuery()) {
          if (!rs.next()) {
            return false;
          }
          price = rs.getDouble(1);
        }
        String dist = stock(c, in, i);
        line.setInt(1, orderId);
        line.setInt(2, in.district());
        line.setInt(3, in.warehouse());
        line.setInt(4, i + 1);
        line.setInt(5, in.items()[i]);
        line.setInt(6, in.supply()[i]);
        line.setInt(7, in.quantity()[i]);
        line.setBigDecimal(8, BigDecimal.valueOf(Math.round(price * in.quantity()[i] * 100), 2));
        line.setString(9, dist);
        line.addBatch();
      }
      line.executeBatch();
    }
    return true;
  }

  /**
   * The line's stock taken (clause 2.4.2.2): the quantity lowered, or raised by 91 when fewer than
   * 10 would be left, year-to-date and counts updated; returns the district's s_dist_xx.
   */
  private static String stock(Connection c, Input in, int i) throws SQLException {
    String dist = String.format("s_dist_%02d", in.district());
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE stock SET s_quantity = CASE WHEN s_quantity >= ? + 10 THEN s_quantity - ?"
                + " ELSE s_quantity - ? + 91 END, s_ytd = s_ytd + ?,"
                + " s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ?"
                + " WHERE s_i_id = ? AND s_w_id = ? RETURNING "
                + dist)) {
      int q = in.quantity()[i];
      ps.setInt(1, q);
      ps.setInt(2, q);
      ps.setInt(3, q);
      ps.setInt(4, q);
      ps.setInt(5, in.supply()[i] == in.warehouse() ? 0 : 1);
      ps.setInt(6, in.items()[i]);
      ps.setInt(7, in.supply()[i]);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }
}
