package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.support.TestServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code init --workload tpcc}: the nine tables counted against TPC-C 5.11 clause 4.3.3.1's
 * cardinalities and value rules, read with queries written from the specification, not from the
 * loader.
 */
class TpccLoadTest {
  static final String SCHEMA = "tpcc_load_test";
  static final int W = 2;

  static String url() {
    return TestServer.url("currentSchema=" + SCHEMA);
  }

  @BeforeAll
  static void load() throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
    }
    Cli r = Cli.run("init", "--workload", "tpcc", "--scale", "" + W, "--force", "--target", url());
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("warehouse 2 loaded in"), r.out);
  }

  static long scalar(String sql) throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("SET search_path = " + SCHEMA);
      try (ResultSet rs = st.executeQuery(sql)) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  @Test
  void everyTableHoldsTheSpecifiedRows() throws SQLException {
    assertEquals(W, scalar("SELECT count(*) FROM warehouse"));
    assertEquals(10L * W, scalar("SELECT count(*) FROM district"));
    assertEquals(30_000L * W, scalar("SELECT count(*) FROM customer"));
    assertEquals(30_000L * W, scalar("SELECT count(*) FROM history"));
    assertEquals(30_000L * W, scalar("SELECT count(*) FROM orders"));
    assertEquals(9_000L * W, scalar("SELECT count(*) FROM new_order"));
    assertEquals(100_000L, scalar("SELECT count(*) FROM item"));
    assertEquals(100_000L * W, scalar("SELECT count(*) FROM stock"));
    long lines = scalar("SELECT count(*) FROM order_line");
    assertEquals(scalar("SELECT sum(o_ol_cnt) FROM orders"), lines, "sum(o_ol_cnt)");
    assertEquals(0, scalar("SELECT count(*) FROM orders WHERE o_ol_cnt NOT BETWEEN 5 AND 15"));
    // 5..15 lines, uniform: the mean is 10 per order, within a few percent on 60,000 orders
    assertTrue(Math.abs(lines / (30_000.0 * W) - 10) < 0.2, "lines per order " + lines);
  }

  @Test
  void valuesFollowClause4_3_3_1() throws SQLException {
    // 10% of item and stock data hold "ORIGINAL", 10% of customers have bad credit
    double items = scalar("SELECT count(*) FROM item WHERE i_data LIKE '%ORIGINAL%'") / 1e5;
    double stock = scalar("SELECT count(*) FROM stock WHERE s_data LIKE '%ORIGINAL%'") / (1e5 * W);
    double bad = scalar("SELECT count(*) FROM customer WHERE c_credit = 'BC'") / (3e4 * W);
    assertTrue(items > 0.09 && items < 0.11, "i_data ORIGINAL " + items);
    assertTrue(stock > 0.09 && stock < 0.11, "s_data ORIGINAL " + stock);
    assertTrue(bad > 0.09 && bad < 0.11, "c_credit BC " + bad);
    // the last 900 orders of each district are new orders, the rest delivered
    assertEquals(
        0,
        scalar(
            "SELECT count(*) FROM (SELECT no_w_id, no_d_id FROM new_order GROUP BY 1, 2 HAVING"
                + " count(*) <> 900 OR min(no_o_id) <> 2101 OR max(no_o_id) <> 3000) x"));
    assertEquals(
        0,
        scalar(
            "SELECT count(*) FROM orders WHERE (o_carrier_id IS NULL) <> (o_id >= 2101)"
                + " OR o_carrier_id NOT BETWEEN 1 AND 10"));
    assertEquals(
        0,
        scalar(
            "SELECT count(*) FROM order_line WHERE (ol_delivery_d IS NULL) <> (ol_o_id >= 2101)"
                + " OR (ol_amount = 0) <> (ol_o_id < 2101)"));
    assertEquals(0, scalar("SELECT count(*) FROM district WHERE d_next_o_id <> 3001"));
    // o_c_id is a permutation of the district's customers
    assertEquals(
        0,
        scalar(
            "SELECT count(*) FROM (SELECT 1 FROM orders GROUP BY o_w_id, o_d_id"
                + " HAVING count(DISTINCT o_c_id) <> 3000) x"));
    // customers 1..1000 of a district take the 1,000 syllable names once each
    assertEquals(
        0,
        scalar(
            "SELECT count(*) FROM (SELECT 1 FROM customer WHERE c_id <= 1000"
                + " GROUP BY c_w_id, c_d_id HAVING count(DISTINCT c_last) <> 1000) x"));
    assertEquals(
        1,
        scalar(
            "SELECT count(*) FROM customer WHERE c_id = 1 AND c_d_id = 1"
                + " AND c_w_id = 1 AND c_last = 'BARBARBAR'"));
    assertEquals(0, scalar("SELECT count(*) FROM warehouse WHERE w_ytd <> 300000"));
    assertEquals(0, scalar("SELECT count(*) FROM district WHERE d_ytd <> 30000"));
  }

  @Test
  void keysAndHammerDbsIndexesExist() throws SQLException {
    assertEquals(
        10,
        scalar(
            "SELECT count(*) FROM pg_indexes WHERE schemaname = '"
                + SCHEMA
                + "' AND indexname IN ('warehouse_i1', 'district_i1', 'customer_i1',"
                + " 'customer_i2', 'new_order_i1', 'orders_i1', 'orders_i2', 'order_line_i1',"
                + " 'item_i1', 'stock_i1')"));
  }

  @Test
  void aLoadedSchemaIsReplacedOnlyWithForce() {
    Cli r = Cli.run("init", "--workload", "tpcc", "--scale", "1", "--target", url());
    assertEquals(2, r.exit, r.toString());
    assertEquals(
        "wg1bench: init --workload tpcc: table warehouse already holds rows; add --force to drop"
            + " and re-create the nine TPC-C tables (no other table is touched)",
        r.err.strip());
  }

  @Test
  void aScaleBelowOneIsRefusedInOneLine() {
    for (String s : new String[] {"0", "-3"}) {
      Cli r = Cli.run("init", "--workload", "tpcc", "--scale", s, "--target", url());
      assertEquals(2, r.exit, r.toString());
      assertEquals(
          "wg1bench: --scale must be between 1 and 1000000, got " + s, r.err.strip(), r.err);
    }
  }
}
