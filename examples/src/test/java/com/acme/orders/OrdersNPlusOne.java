package com.acme.orders;

import dev.wg1bench.api.Op;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/**
 * A customer's orders with their lines the N+1 way: one query for the orders, then one query per
 * order for its lines (what a lazily loaded collection does in a loop).
 */
public class OrdersNPlusOne extends OrdersSchema {
  @Override
  public void op(Op op) throws Exception {
    List<Long> ids = new ArrayList<>();
    try (PreparedStatement ps =
        op.connection()
            .prepareStatement(
                "SELECT id, placed_at, status FROM orders WHERE customer_id = ? ORDER BY id")) {
      ps.setInt(1, customer(op));
      try (ResultSet r = ps.executeQuery()) {
        while (r.next()) {
          ids.add(r.getLong(1));
        }
      }
    }
    long lines = 0;
    try (PreparedStatement ps =
        op.connection()
            .prepareStatement(
                "SELECT line_no, product, qty, price FROM order_lines WHERE order_id = ?"
                    + " ORDER BY line_no")) {
      for (long id : ids) {
        ps.setLong(1, id);
        try (ResultSet r = ps.executeQuery()) {
          while (r.next()) {
            lines++;
          }
        }
      }
    }
    if (lines != (long) ids.size() * LINES_PER_ORDER) {
      throw new IllegalStateException(lines + " lines for " + ids.size() + " orders");
    }
  }
}
