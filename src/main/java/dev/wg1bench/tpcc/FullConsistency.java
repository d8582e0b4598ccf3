package dev.wg1bench.tpcc;

import dev.wg1bench.tpcc.Consistency.Condition;
import java.util.List;

/**
 * The consistency conditions of TPC-C 5.11 clause 3.3.2 that read every order, order line or
 * customer (5, 6, 7, 10, 11, 12): too heavy for every --check at a large scale, so only under
 * {@code -D check=full}. Each query returns one line per order or customer that breaks it.
 */
final class FullConsistency {
  private FullConsistency() {}

  /** The delivered order lines' amounts per customer (3.3.2.10 and 12 compare balances with it). */
  private static final String DELIVERED =
      "(SELECT o_w_id, o_d_id, o_c_id, sum(ol_amount) s FROM orders JOIN order_line"
          + " ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id"
          + " WHERE ol_delivery_d IS NOT NULL GROUP BY 1, 2, 3)";

  static final List<Condition> CONDITIONS =
      List.of(
          new Condition(
              "3.3.2.5",
              "O_CARRIER_ID is null exactly when the order has a NEW-ORDER row",
              "SELECT 'order ' || o_w_id || '/' || o_d_id || '/' || o_id || ': o_carrier_id '"
                  + " || coalesce(o_carrier_id::text, 'null') || ', new_order row '"
                  + " || (no_o_id IS NOT NULL) FROM orders LEFT JOIN new_order"
                  + " ON no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id"
                  + " WHERE (o_carrier_id IS NULL) <> (no_o_id IS NOT NULL)"
                  + " ORDER BY o_w_id, o_d_id, o_id"),
          new Condition(
              "3.3.2.6",
              "O_OL_CNT = the order's ORDER-LINE rows",
              "SELECT 'order ' || o_w_id || '/' || o_d_id || '/' || o_id || ': o_ol_cnt '"
                  + " || o_ol_cnt || ', order lines ' || coalesce(l, 0) FROM orders"
                  + " LEFT JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, count(*) l FROM order_line"
                  + " GROUP BY 1, 2, 3) x ON ol_w_id = o_w_id AND ol_d_id = o_d_id"
                  + " AND ol_o_id = o_id WHERE o_ol_cnt IS DISTINCT FROM l"
                  + " ORDER BY o_w_id, o_d_id, o_id"),
          new Condition(
              "3.3.2.7",
              "OL_DELIVERY_D is null exactly when the order's O_CARRIER_ID is",
              "SELECT 'order line ' || ol_w_id || '/' || ol_d_id || '/' || ol_o_id || '/'"
                  + " || ol_number || ': ol_delivery_d ' || coalesce(ol_delivery_d::text, 'null')"
                  + " || ', o_carrier_id ' || coalesce(o_carrier_id::text, 'null')"
                  + " FROM order_line JOIN orders ON o_w_id = ol_w_id AND o_d_id = ol_d_id"
                  + " AND o_id = ol_o_id"
                  + " WHERE (ol_delivery_d IS NULL) <> (o_carrier_id IS NULL)"
                  + " ORDER BY 1"),
          new Condition(
              "3.3.2.10",
              "C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT) of the customer",
              "SELECT 'customer ' || c_w_id || '/' || c_d_id || '/' || c_id || ': c_balance '"
                  + " || c_balance || ', delivered ' || coalesce(d.s, 0) || ', paid '"
                  + " || coalesce(h.s, 0) FROM customer LEFT JOIN "
                  + DELIVERED
                  + " d ON d.o_w_id = c_w_id AND d.o_d_id = c_d_id AND d.o_c_id = c_id"
                  + " LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, sum(h_amount) s FROM history"
                  + " GROUP BY 1, 2, 3) h ON h_c_w_id = c_w_id AND h_c_d_id = c_d_id"
                  + " AND h_c_id = c_id"
                  + " WHERE c_balance <> coalesce(d.s, 0) - coalesce(h.s, 0)"
                  + " ORDER BY c_w_id, c_d_id, c_id"),
          // the load's 2,100 delivered orders per district carry C_DELIVERY_CNT 0 (clause
          // 4.3.3.1), so the condition holds from the loaded state on with them taken off
          new Condition(
              "3.3.2.11",
              "count(ORDER) - count(NEW-ORDER) - 2100 = sum(C_DELIVERY_CNT) of the district",
              "SELECT 'district ' || d_w_id || '/' || d_id || ': orders ' || coalesce(o, 0)"
                  + " || ', new orders ' || coalesce(n, 0) || ', sum(c_delivery_cnt) '"
                  + " || coalesce(c, 0) FROM district"
                  + " LEFT JOIN (SELECT o_w_id, o_d_id, count(*) o FROM orders GROUP BY 1, 2) x"
                  + " ON o_w_id = d_w_id AND o_d_id = d_id"
                  + " LEFT JOIN (SELECT no_w_id, no_d_id, count(*) n FROM new_order"
                  + " GROUP BY 1, 2) y ON no_w_id = d_w_id AND no_d_id = d_id"
                  + " LEFT JOIN (SELECT c_w_id, c_d_id, sum(c_delivery_cnt) c FROM customer"
                  + " GROUP BY 1, 2) z ON c_w_id = d_w_id AND c_d_id = d_id"
                  + " WHERE coalesce(o, 0) - coalesce(n, 0) - 2100 <> coalesce(c, 0)"
                  + " ORDER BY d_w_id, d_id"),
          new Condition(
              "3.3.2.12",
              "C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT) of the customer",
              "SELECT 'customer ' || c_w_id || '/' || c_d_id || '/' || c_id || ': c_balance '"
                  + " || c_balance || ', c_ytd_payment ' || c_ytd_payment || ', delivered '"
                  + " || coalesce(d.s, 0) FROM customer LEFT JOIN "
                  + DELIVERED
                  + " d ON d.o_w_id = c_w_id AND d.o_d_id = c_d_id AND d.o_c_id = c_id"
                  + " WHERE c_balance + c_ytd_payment <> coalesce(d.s, 0)"
                  + " ORDER BY c_w_id, c_d_id, c_id"));
}
