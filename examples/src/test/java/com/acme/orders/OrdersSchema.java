package com.acme.orders;

import dev.wg1bench.api.JdbcWorkload;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Customers' orders and their lines: {@value #CUSTOMERS} customers with {@value #ORDERS_PER_CUSTOMER}
 * orders each and {@value #LINES_PER_ORDER} lines per order, created and loaded once (the set-up
 * runs before every trial and loads only what is missing).
 */
public abstract class OrdersSchema implements JdbcWorkload {
  static final int CUSTOMERS = 1_000;
  static final int ORDERS_PER_CUSTOMER = 20;
  static final int LINES_PER_ORDER = 5;

  @Override
  public void setUp(DataSource ds) throws Exception {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE IF NOT EXISTS orders (id bigint PRIMARY KEY, customer_id int NOT NULL,"
              + " placed_at timestamptz NOT NULL, status text NOT NULL)");
      st.execute("CREATE INDEX IF NOT EXISTS orders_customer ON orders (customer_id)");
      st.execute(
          "CREATE TABLE IF NOT EXISTS order_lines (order_id bigint NOT NULL REFERENCES orders,"
              + " line_no int NOT NULL, product text NOT NULL, qty int NOT NULL,"
              + " price numeric(10,2) NOT NULL, PRIMARY KEY (order_id, line_no))");
      long orders = CUSTOMERS * (long) ORDERS_PER_CUSTOMER;
      try (ResultSet r = st.executeQuery("SELECT count(*) FROM orders")) {
        r.next();
        if (r.getLong(1) == orders) {
          return;
        }
      }
      st.execute("TRUNCATE order_lines, orders");
      st.execute(
          "INSERT INTO orders SELECT g, 1 + (g - 1) % "
              + CUSTOMERS
              + ", now() - g * interval '1 minute', 'shipped' FROM generate_series(1, "
              + orders
              + ") g");
      st.execute(
          "INSERT INTO order_lines SELECT o, l, 'product ' || (o * l) % 997, 1 + l % 4,"
              + " ((o + l) % 10000) / 100.0 FROM generate_series(1, "
              + orders
              + ") o, generate_series(1, "
              + LINES_PER_ORDER
              + ") l");
      st.execute("ANALYZE orders");
      st.execute("ANALYZE order_lines");
    }
  }

  /** A customer for this op. */
  static int customer(dev.wg1bench.api.Op op) {
    return 1 + op.random().nextInt(CUSTOMERS);
  }
}
