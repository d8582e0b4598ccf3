package dev.wg1bench.tpcc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** A customer chosen by last name, as Payment and Order-Status do (clause 2.5.2.2, 2.6.2.2). */
final class Customers {
  private Customers() {}

  /**
   * The customer at position n/2 rounded up of those with this last name in the district, sorted by
   * first name. Every district holds each of the 1,000 names at least once (clause 4.3.3.1).
   */
  static int byLastName(Connection c, int warehouse, int district, String last)
      throws SQLException {
    List<Integer> ids = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?"
                + " ORDER BY c_first")) {
      ps.setInt(1, warehouse);
      ps.setInt(2, district);
      ps.setString(3, last);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getInt(1));
        }
      }
    }
    if (ids.isEmpty()) {
      throw new SQLException(
          "no customer named " + last + " in warehouse " + warehouse + " district " + district);
    }
    return ids.get((ids.size() - 1) / 2);
  }
}
