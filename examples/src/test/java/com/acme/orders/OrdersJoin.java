package com.acme.orders;

import dev.wg1bench.api.Op;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashSet;
import java.util.Set;

/** The same orders with their lines as {@link OrdersNPlusOne}, in one JOIN. */
public class OrdersJoin extends OrdersSchema {
  @Override
  public void op(Op op) throws Exception {
    Set<Long> ids = new HashSet<>();
    long lines = 0;
    try (PreparedStatement ps =
        op.connection()
            .prepareStatement(
                "SELECT o.id, o.placed_at, o.status, l.line_no, l.product, l.qty, l.price"
                    + " FROM orders o JOIN order_lines l ON l.order_id = o.id"
                    + " WHERE o.customer_id = ? ORDER BY o.id, l.line_no")) {
      ps.setInt(1, customer(op));
      try (ResultSet r = ps.executeQuery()) {
        while (r.next()) {
          ids.add(r.getLong(1));
          lines++;
        }
      }
    }
    if (lines != (long) ids.size() * LINES_PER_ORDER) {
      throw new IllegalStateException(lines + " lines for " + ids.size() + " orders");
    }
  }
}
