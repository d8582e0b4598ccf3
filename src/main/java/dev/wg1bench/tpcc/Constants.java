package dev.wg1bench.tpcc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The C constants of NURand (clause 2.1.6): one per field, the same for every terminal of a run.
 * The loader draws them and keeps them in the comment of table customer, so every client (in any
 * forked JVM) of every later run reads the same values, and C_LAST's run value keeps the distance
 * to its load value that clause 2.1.6.1 requires.
 *
 * @param lastLoad C for C_LAST at load time, 0..255
 * @param lastRun C for C_LAST during runs: |lastRun - lastLoad| in 65..119, neither 96 nor 112
 * @param customerId C for C_ID, 0..1023
 * @param itemId C for OL_I_ID, 0..8191
 */
record Constants(int lastLoad, int lastRun, int customerId, int itemId) {
  private static final String PREFIX = "wg1bench tpcc NURand constants: ";
  private static final Pattern STORED =
      Pattern.compile(
          Pattern.quote(PREFIX) + "C_LAST load (\\d+) run (\\d+), C_ID (\\d+), OL_I_ID (\\d+)");

  /**
   * The values used when the comment is missing (tables loaded by another tool): a fixed C_LAST run
   * value, since the load value is unknown.
   */
  static final Constants UNKNOWN_LOAD = new Constants(-1, 157, 259, 7911);

  Constants {
    if (lastLoad >= 0 && !validDelta(Math.abs(lastRun - lastLoad))) {
      throw new IllegalArgumentException("C_LAST run/load distance violates clause 2.1.6.1");
    }
  }

  /** Clause 2.1.6.1's rule on the distance of C_LAST's run value from its load value. */
  static boolean validDelta(int delta) {
    return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
  }

  /** Fresh constants for a load: C_LAST's run value drawn until its distance is valid. */
  static Constants draw(Random r) {
    int load = r.nextInt(256);
    int run;
    do {
      run = r.nextInt(256);
    } while (!validDelta(Math.abs(run - load)));
    return new Constants(load, run, r.nextInt(1024), r.nextInt(8192));
  }

  String comment() {
    return PREFIX
        + "C_LAST load "
        + lastLoad
        + " run "
        + lastRun
        + ", C_ID "
        + customerId
        + ", OL_I_ID "
        + itemId;
  }

  void store(Statement st) throws SQLException {
    st.execute("COMMENT ON TABLE customer IS '" + comment() + "'");
  }

  /** The constants the loader stored, or {@link #UNKNOWN_LOAD}. */
  static Constants read(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT obj_description('customer'::regclass, 'pg_class')")) {
      String text = rs.next() ? rs.getString(1) : null;
      Matcher m = text == null ? null : STORED.matcher(text);
      if (m == null || !m.matches()) {
        return UNKNOWN_LOAD;
      }
      return new Constants(
          Integer.parseInt(m.group(1)),
          Integer.parseInt(m.group(2)),
          Integer.parseInt(m.group(3)),
          Integer.parseInt(m.group(4)));
    }
  }
}
