package dev.wg1bench.tpcc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The initial rows of TPC-C 5.11 clause 4.3.3.1, table by table, sent through COPY: the 100,000
 * items once, and for one warehouse its row, 100,000 stock rows, 10 districts, and per district
 * 3,000 customers, 3,000 history rows, 3,000 orders with 5 to 15 lines each, of which the last 900
 * are undelivered and listed in new_order.
 */
final class WarehouseRows {
  static final int ITEMS = 100_000;
  static final int DISTRICTS = 10;
  static final int CUSTOMERS = 3_000;
  static final int ORDERS = 3_000;

  /** Orders below this were delivered at load time; the rest are new orders (clause 4.3.3.1). */
  static final int FIRST_NEW_ORDER = 2_101;

  private final Connection c;
  private final TpccRandom r;
  private final Constants constants;
  private final String now;

  WarehouseRows(Connection c, TpccRandom r, Constants constants, String now) {
    this.c = c;
    this.r = r;
    this.constants = constants;
    this.now = now;
  }

  /** item: i_im_id in 1..10,000, price 1.00..100.00, 10% of i_data with "ORIGINAL". */
  void items() throws SQLException {
    try (CopyRows out = new CopyRows(c, "item")) {
      for (int i = 1; i <= ITEMS; i++) {
        out.row().append(i);
        out.tab().append(r.uniform(1, 10_000));
        r.astring(out.tab(), 14, 24);
        TpccRandom.fixed(out.tab(), r.uniform(100, 10_000), 2);
        r.data(out.tab());
        out.end();
      }
      out.finish();
    }
  }

  /** Every table's rows for warehouse {@code w}. */
  void warehouse(int w) throws SQLException {
    try (CopyRows out = new CopyRows(c, "warehouse")) {
      out.row().append(w);
      r.astring(out.tab(), 6, 10);
      address(out);
      TpccRandom.fixed(out.tab(), r.uniform(0, 2000), 4);
      out.tab().append("300000.00");
      out.end();
      out.finish();
    }
    stock(w);
    districts(w);
    customers(w);
    orders(w);
  }

  /** Street 1 and 2, city, state and zip, each field after a tab. */
  private void address(CopyRows out) {
    r.astring(out.tab(), 10, 20);
    r.astring(out.tab(), 10, 20);
    r.astring(out.tab(), 10, 20);
    r.state(out.tab());
    r.zip(out.tab());
  }

  private void stock(int w) throws SQLException {
    try (CopyRows out = new CopyRows(c, "stock")) {
      for (int i = 1; i <= ITEMS; i++) {
        out.row().append(i);
        out.tab().append(w);
        out.tab().append(r.uniform(10, 100));
        for (int d = 0; d < DISTRICTS; d++) {
          r.astring(out.tab(), 24, 24);
        }
        out.tab().append("0\t0\t0");
        r.data(out.tab());
        out.end();
      }
      out.finish();
    }
  }

  private void districts(int w) throws SQLException {
    try (CopyRows out = new CopyRows(c, "district")) {
      for (int d = 1; d <= DISTRICTS; d++) {
        out.row().append(d);
        out.tab().append(w);
        r.astring(out.tab(), 6, 10);
        address(out);
        TpccRandom.fixed(out.tab(), r.uniform(0, 2000), 4);
        out.tab().append("30000.00");
        out.tab().append(ORDERS + 1);
        out.end();
      }
      out.finish();
    }
  }

  /** Customers and their one history row each, in two COPYs side by side on one connection. */
  private void customers(int w) throws SQLException {
    try (CopyRows out = new CopyRows(c, "customer")) {
      for (int d = 1; d <= DISTRICTS; d++) {
        for (int id = 1; id <= CUSTOMERS; id++) {
          customer(out, w, d, id);
        }
      }
      out.finish();
    }
    try (CopyRows out = new CopyRows(c, "history")) {
      for (int d = 1; d <= DISTRICTS; d++) {
        for (int id = 1; id <= CUSTOMERS; id++) {
          out.row().append(id).append('\t').append(d).append('\t').append(w);
          out.tab().append(d).append('\t').append(w);
          out.tab().append(now);
          out.tab().append("10.00");
          r.astring(out.tab(), 12, 24);
          out.end();
        }
      }
      out.finish();
    }
  }

  private void customer(CopyRows out, int w, int d, int id) throws SQLException {
    out.row().append(id).append('\t').append(d).append('\t').append(w);
    r.astring(out.tab(), 8, 16);
    out.tab().append("OE");
    // clause 4.3.2.3: the first 1,000 customers take each name once, the rest a NURand one
    int name = id <= 1000 ? id - 1 : r.nurand(255, constants.lastLoad(), 0, 999);
    out.tab().append(TpccRandom.lastName(name));
    address(out);
    r.nstring(out.tab(), 16);
    out.tab().append(now);
    out.tab().append(r.uniform(1, 10) == 1 ? "BC" : "GC");
    out.tab().append("50000.00");
    TpccRandom.fixed(out.tab(), r.uniform(0, 5000), 4);
    out.tab().append("-10.00\t10.00\t1\t0");
    r.astring(out.tab(), 300, 500);
    out.end();
  }

  /** Orders with their lines, and new_order for the undelivered ones, per district. */
  private void orders(int w) throws SQLException {
    int[][] lineCounts = new int[DISTRICTS][];
    try (CopyRows out = new CopyRows(c, "orders")) {
      for (int d = 1; d <= DISTRICTS; d++) {
        int[] customers = r.permutation(CUSTOMERS);
        lineCounts[d - 1] = new int[ORDERS + 1];
        for (int o = 1; o <= ORDERS; o++) {
          int lines = r.uniform(5, 15);
          lineCounts[d - 1][o] = lines;
          out.row().append(o).append('\t').append(d).append('\t').append(w);
          out.tab().append(customers[o - 1]);
          out.tab().append(now);
          if (o < FIRST_NEW_ORDER) {
            out.tab().append(r.uniform(1, 10));
          } else {
            out.tab();
            out.nul();
          }
          out.tab().append(lines).append("\t1");
          out.end();
        }
      }
      out.finish();
    }
    orderLines(w, lineCounts);
    try (CopyRows out = new CopyRows(c, "new_order")) {
      for (int d = 1; d <= DISTRICTS; d++) {
        for (int o = FIRST_NEW_ORDER; o <= ORDERS; o++) {
          out.row().append(o).append('\t').append(d).append('\t').append(w);
          out.end();
        }
      }
      out.finish();
    }
  }

  private void orderLines(int w, int[][] lineCounts) throws SQLException {
    try (CopyRows out = new CopyRows(c, "order_line")) {
      for (int d = 1; d <= DISTRICTS; d++) {
        for (int o = 1; o <= ORDERS; o++) {
          boolean delivered = o < FIRST_NEW_ORDER;
          for (int n = 1; n <= lineCounts[d - 1][o]; n++) {
            out.row().append(o).append('\t').append(d).append('\t').append(w);
            out.tab().append(n);
            out.tab().append(r.uniform(1, ITEMS));
            out.tab().append(w);
            if (delivered) {
              out.tab().append(now);
              out.tab().append("5\t0.00");
            } else {
              out.tab();
              out.nul();
              out.tab().append('5');
              TpccRandom.fixed(out.tab(), r.uniform(1, 999_999), 2);
            }
            r.astring(out.tab(), 24, 24);
            out.end();
          }
        }
      }
      out.finish();
    }
  }
}
