package dev.wg1bench.tpcc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The consistency conditions of TPC-C 5.11 clause 3.3.2 as queries, each returning the warehouses,
 * districts, orders or customers that break it: 1 to 4 (cheap, per warehouse and district), and 8
 * and 9 (the year-to-date totals against the history rows), checked by every --check; with {@code
 * -D check=full} also 5, 6, 7, 10, 11 and 12, which read every order, order line and customer.
 */
final class Consistency {
  private Consistency() {}

  /** A condition: its clause, what must hold, and a query returning one line per violation. */
  record Condition(String clause, String rule, String violations) {}

  /** 3.3.2.N's N. */
  private static int number(String clause) {
    return Integer.parseInt(clause.substring(clause.lastIndexOf('.') + 1));
  }

  static final List<Condition> CONDITIONS =
      List.of(
          new Condition(
              "3.3.2.1",
              "W_YTD = sum(D_YTD)",
              "SELECT 'warehouse ' || w_id || ': w_ytd ' || w_ytd || ', sum(d_ytd) ' || s"
                  + " FROM warehouse JOIN (SELECT d_w_id, sum(d_ytd) s FROM district GROUP BY 1) d"
                  + " ON d_w_id = w_id WHERE w_ytd <> s ORDER BY w_id"),
          new Condition(
              "3.3.2.2",
              "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)",
              "SELECT 'district ' || d_w_id || '/' || d_id || ': d_next_o_id ' || d_next_o_id"
                  + " || ', max(o_id) ' || coalesce(o::text, 'none') || ', max(no_o_id) '"
                  + " || coalesce(n::text, 'none') FROM district"
                  + " LEFT JOIN (SELECT o_w_id, o_d_id, max(o_id) o FROM orders GROUP BY 1, 2) x"
                  + " ON o_w_id = d_w_id AND o_d_id = d_id"
                  + " LEFT JOIN (SELECT no_w_id, no_d_id, max(no_o_id) n FROM new_order"
                  + " GROUP BY 1, 2) y ON no_w_id = d_w_id AND no_d_id = d_id"
                  + " WHERE o IS DISTINCT FROM d_next_o_id - 1"
                  + " OR (n IS NOT NULL AND n <> d_next_o_id - 1) ORDER BY d_w_id, d_id"),
          new Condition(
              "3.3.2.3",
              "max(NO_O_ID) - min(NO_O_ID) + 1 = count(new_order)",
              "SELECT 'district ' || no_w_id || '/' || no_d_id || ': max ' || max(no_o_id)"
                  + " || ', min ' || min(no_o_id) || ', rows ' || count(*) FROM new_order"
                  + " GROUP BY no_w_id, no_d_id"
                  + " HAVING max(no_o_id) - min(no_o_id) + 1 <> count(*) ORDER BY 1"),
          new Condition(
              "3.3.2.4",
              "sum(O_OL_CNT) = count(order_line)",
              "SELECT 'district ' || o_w_id || '/' || o_d_id || ': sum(o_ol_cnt) ' || s"
                  + " || ', order lines ' || coalesce(l, 0) FROM"
                  + " (SELECT o_w_id, o_d_id, sum(o_ol_cnt) s FROM orders GROUP BY 1, 2) o"
                  + " LEFT JOIN (SELECT ol_w_id, ol_d_id, count(*) l FROM order_line"
                  + " GROUP BY 1, 2) l ON ol_w_id = o_w_id AND ol_d_id = o_d_id"
                  + " WHERE s IS DISTINCT FROM l ORDER BY o_w_id, o_d_id"),
          new Condition(
              "3.3.2.8",
              "W_YTD = sum(H_AMOUNT) of the warehouse",
              "SELECT 'warehouse ' || w_id || ': w_ytd ' || w_ytd || ', sum(h_amount) ' || s"
                  + " FROM warehouse JOIN (SELECT h_w_id, sum(h_amount) s FROM history"
                  + " GROUP BY 1) h ON h_w_id = w_id WHERE w_ytd <> s ORDER BY w_id"),
          new Condition(
              "3.3.2.9",
              "D_YTD = sum(H_AMOUNT) of the district",
              "SELECT 'district ' || d_w_id || '/' || d_id || ': d_ytd ' || d_ytd"
                  + " || ', sum(h_amount) ' || s FROM district JOIN (SELECT h_w_id, h_d_id,"
                  + " sum(h_amount) s FROM history GROUP BY 1, 2) h"
                  + " ON h_w_id = d_w_id AND h_d_id = d_id WHERE d_ytd <> s"
                  + " ORDER BY d_w_id, d_id"));

  /**
   * Every condition checked (all twelve when {@code full}, in clause order), named with its clause
   * and rule ("TPC-C 3.3.2.1 (W_YTD = sum(D_YTD))"), mapped to null when it holds or to how many
   * places break it and the first of them.
   */
  static Map<String, String> check(Connection c, boolean full) throws SQLException {
    Map<String, String> checked = new LinkedHashMap<>();
    List<Condition> all = new ArrayList<>(CONDITIONS);
    if (full) {
      all.addAll(FullConsistency.CONDITIONS);
      all.sort(Comparator.comparingInt(k -> number(k.clause())));
    }
    try (Statement st = c.createStatement()) {
      for (Condition k : all) {
        List<String> bad = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(k.violations())) {
          while (rs.next()) {
            bad.add(rs.getString(1));
          }
        }
        checked.put(
            "TPC-C " + k.clause() + " (" + k.rule() + ")",
            bad.isEmpty() ? null : "fails in " + bad.size() + " place(s), first " + bad.get(0));
      }
    }
    return checked;
  }
}
