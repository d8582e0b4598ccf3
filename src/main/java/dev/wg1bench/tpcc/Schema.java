package dev.wg1bench.tpcc;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The nine tables of TPC-C 5.11 clause 1.3 under HammerDB's PostgreSQL names, with the
 * specification's column names and types; the primary keys and HammerDB's two secondary indexes
 * (customer by last name for Payment and Order-Status, orders by customer for Order-Status) are
 * added after the load, when building them once is cheaper than maintaining them per row.
 */
final class Schema {
  private Schema() {}

  /** Every table, in the order they are dropped and created. */
  static final List<String> TABLES =
      List.of(
          "warehouse",
          "district",
          "customer",
          "history",
          "new_order",
          "orders",
          "order_line",
          "item",
          "stock");

  private static final String ADDRESS =
      "_street_1 varchar(20), %1$s_street_2 varchar(20), %1$s_city varchar(20),"
          + " %1$s_state char(2), %1$s_zip char(9)";

  static void create(Statement st) throws SQLException {
    st.execute(
        "CREATE TABLE warehouse (w_id int NOT NULL, w_name varchar(10), w"
            + ADDRESS.formatted("w")
            + ", w_tax numeric(4,4), w_ytd numeric(12,2))");
    st.execute(
        "CREATE TABLE district (d_id int NOT NULL, d_w_id int NOT NULL, d_name varchar(10), d"
            + ADDRESS.formatted("d")
            + ", d_tax numeric(4,4), d_ytd numeric(12,2), d_next_o_id int)");
    st.execute(
        "CREATE TABLE customer (c_id int NOT NULL, c_d_id int NOT NULL, c_w_id int NOT NULL,"
            + " c_first varchar(16), c_middle char(2), c_last varchar(16), c"
            + ADDRESS.formatted("c")
            + ", c_phone char(16), c_since timestamp, c_credit char(2), c_credit_lim"
            + " numeric(12,2), c_discount numeric(4,4), c_balance numeric(12,2), c_ytd_payment"
            + " numeric(12,2), c_payment_cnt int, c_delivery_cnt int, c_data varchar(500))");
    st.execute(
        "CREATE TABLE history (h_c_id int, h_c_d_id int, h_c_w_id int, h_d_id int, h_w_id int,"
            + " h_date timestamp, h_amount numeric(6,2), h_data varchar(24))");
    st.execute(
        "CREATE TABLE new_order (no_o_id int NOT NULL, no_d_id int NOT NULL, no_w_id int NOT"
            + " NULL)");
    st.execute(
        "CREATE TABLE orders (o_id int NOT NULL, o_d_id int NOT NULL, o_w_id int NOT NULL, o_c_id"
            + " int, o_entry_d timestamp, o_carrier_id int, o_ol_cnt int, o_all_local int)");
    st.execute(
        "CREATE TABLE order_line (ol_o_id int NOT NULL, ol_d_id int NOT NULL, ol_w_id int NOT"
            + " NULL, ol_number int NOT NULL, ol_i_id int, ol_supply_w_id int, ol_delivery_d"
            + " timestamp, ol_quantity int, ol_amount numeric(6,2), ol_dist_info char(24))");
    st.execute(
        "CREATE TABLE item (i_id int NOT NULL, i_im_id int, i_name varchar(24), i_price"
            + " numeric(5,2), i_data varchar(50))");
    StringBuilder stock =
        new StringBuilder("CREATE TABLE stock (s_i_id int NOT NULL, s_w_id int NOT NULL,");
    stock.append(" s_quantity int");
    for (int d = 1; d <= 10; d++) {
      stock.append(", s_dist_").append(d < 10 ? "0" : "").append(d).append(" char(24)");
    }
    stock.append(", s_ytd int, s_order_cnt int, s_remote_cnt int, s_data varchar(50))");
    st.execute(stock.toString());
  }

  /** Primary keys, then HammerDB's secondary indexes. */
  static final List<String> KEYS =
      List.of(
          "ALTER TABLE warehouse ADD CONSTRAINT warehouse_i1 PRIMARY KEY (w_id)",
          "ALTER TABLE district ADD CONSTRAINT district_i1 PRIMARY KEY (d_w_id, d_id)",
          "ALTER TABLE customer ADD CONSTRAINT customer_i1 PRIMARY KEY (c_w_id, c_d_id, c_id)",
          "CREATE INDEX customer_i2 ON customer (c_w_id, c_d_id, c_last, c_first, c_id)",
          "ALTER TABLE new_order ADD CONSTRAINT new_order_i1"
              + " PRIMARY KEY (no_w_id, no_d_id, no_o_id)",
          "ALTER TABLE orders ADD CONSTRAINT orders_i1 PRIMARY KEY (o_w_id, o_d_id, o_id)",
          "CREATE INDEX orders_i2 ON orders (o_w_id, o_d_id, o_c_id, o_id)",
          "ALTER TABLE order_line ADD CONSTRAINT order_line_i1"
              + " PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)",
          "ALTER TABLE item ADD CONSTRAINT item_i1 PRIMARY KEY (i_id)",
          "ALTER TABLE stock ADD CONSTRAINT stock_i1 PRIMARY KEY (s_w_id, s_i_id)");
}
