package dev.wg1bench.tpcc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The Payment transaction, TPC-C 5.11 clause 2.5: a payment to the home warehouse and one of its
 * districts, by a customer of that district (85%) or of another warehouse (15%), found by last name
 * (60%) or by number; a bad-credit customer's c_data gets the payment prepended.
 */
final class Payment {
  private Payment() {}

  /** One payment's input data (clause 2.5.1); {@code lastName} null when chosen by number. */
  record Input(
      int warehouse,
      int district,
      int customerWarehouse,
      int customerDistrict,
      int customer,
      String lastName,
      BigDecimal amount) {}

  static Input input(Terminal t) {
    TpccRandom r = t.r();
    int d = r.uniform(1, 10);
    boolean local = r.uniform(1, 100) <= 85 || t.warehouses() == 1;
    int cw = local ? t.warehouse() : t.remoteWarehouse();
    int cd = local ? d : r.uniform(1, 10);
    boolean byName = r.uniform(1, 100) <= 60;
    return new Input(
        t.warehouse(),
        d,
        cw,
        cd,
        byName ? 0 : t.customerId(),
        byName ? t.lastName() : null,
        BigDecimal.valueOf(r.uniform(100, 500_000), 2));
  }

  /** Runs the payment in one transaction and commits it. */
  static void run(Connection c, Input in) throws SQLException {
    c.setAutoCommit(false);
    String warehouse =
        one(
            c,
            "UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ? RETURNING w_name",
            in.amount(),
            in.warehouse());
    String district =
        one(
            c,
            "UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ? RETURNING d_name",
            in.amount(),
            in.warehouse(),
            in.district());
    int customer =
        in.lastName() == null
            ? in.customer()
            : Customers.byLastName(c, in.customerWarehouse(), in.customerDistrict(), in.lastName());
    String credit =
        one(
            c,
            "UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?,"
                + " c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?"
                + " RETURNING c_credit",
            in.amount(),
            in.amount(),
            in.customerWarehouse(),
            in.customerDistrict(),
            customer);
    if ("BC".equals(credit)) {
      badCredit(c, in, customer);
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount,"
                + " h_data) VALUES (?, ?, ?, ?, ?, now(), ?, ?)")) {
      ps.setInt(1, customer);
      ps.setInt(2, in.customerDistrict());
      ps.setInt(3, in.customerWarehouse());
      ps.setInt(4, in.district());
      ps.setInt(5, in.warehouse());
      ps.setBigDecimal(6, in.amount());
      ps.setString(7, warehouse + "    " + district);
      ps.executeUpdate();
    }
    c.commit();
    c.setAutoCommit(true);
  }

  /** Clause 2.5.2.2: a bad-credit customer's c_data starts with the payment, kept to 500. */
  private static void badCredit(Connection c, Input in, int customer) throws SQLException {
    String note =
        customer
            + " "
            + in.customerDistrict()
            + " "
            + in.customerWarehouse()
            + " "
            + in.district()
            + " "
            + in.warehouse()
            + " "
            + in.amount()
            + " | ";
    one(
        c,
        "UPDATE customer SET c_data = substr(? || c_data, 1, 500)"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? RETURNING c_id",
        note,
        in.customerWarehouse(),
        in.customerDistrict(),
        customer);
  }

  /** The first column of the one row {@code sql} returns. */
  static String one(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("no row for " + sql.substring(0, sql.indexOf(' ', 7)));
        }
        return rs.getString(1);
      }
    }
  }
}
