import dev.wg1bench.server.BlockingSocketFactory;
import dev.wg1bench.server.wire.Wire;
import dev.wg1bench.server.wire.WireCounts;
import dev.wg1bench.server.wire.WireMark;
import dev.wg1bench.server.wire.WireSocketFactory;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Properties;

/**
 * What counting a connection's round trips, bytes, statements and rows costs a client: one thread,
 * one connection, the same op run on a connection whose socket counts (server/wire, and a WireMark
 * taken and read around every op, as a client would) and on one whose socket does not (the
 * benchmark's own blocking channel socket either way), interleaved round by round. Prints, per
 * round and op, the client thread's CPU per op (ThreadMXBean: this thread only, so JIT and GC are
 * out) on each and the difference.
 *
 * <pre>java -cp target/wg1bench.jar bench/WireCost.java URL ROUNDS SECONDS</pre>
 *
 * Ops: "point" (one prepared single-row select, as select_only) and "rows100" (one prepared select
 * of 100 rows: 100 DataRow messages to scan).
 */
public final class WireCost {
  public static void main(String[] args) throws Exception {
    String url = args[0];
    int rounds = Integer.parseInt(args[1]);
    double seconds = Double.parseDouble(args[2]);
    String[][] ops = {
      {"point", "SELECT 1 + ?"},
      {"rows100", "SELECT g + ? FROM generate_series(1, 100) g"},
    };
    System.out.println("round op plain_us counted_us diff_us");
    for (int r = 1; r <= rounds; r++) {
      for (String[] op : ops) {
        double plain = run(url, op[1], seconds, false);
        double counted = run(url, op[1], seconds, true);
        System.out.printf("%d %s %.3f %.3f %.3f%n", r, op[0], plain, counted, counted - plain);
      }
    }
  }

  /** Client thread CPU microseconds per op, after a warm-up of a third of the time. */
  static double run(String url, String sql, double seconds, boolean counted) throws Exception {
    Properties p = new Properties();
    p.setProperty("socketFactory", BlockingSocketFactory.class.getName());
    p.setProperty("prepareThreshold", "1");
    if (counted) {
      WireSocketFactory.install(p, url);
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    try (Connection c = new org.postgresql.Driver().connect(url, p);
        PreparedStatement ps = c.prepareStatement(sql)) {
      WireCounts w = counted ? Wire.of(c) : null;
      WireMark m = new WireMark();
      long sink = 0;
      long warm = System.nanoTime() + (long) (seconds / 3 * 1e9);
      while (System.nanoTime() < warm) {
        sink += op(ps, w, m);
      }
      long n = 0;
      long cpu0 = mx.getCurrentThreadCpuTime();
      long end = System.nanoTime() + (long) (seconds * 1e9);
      while (System.nanoTime() < end) {
        sink += op(ps, w, m);
        n++;
      }
      long cpu = mx.getCurrentThreadCpuTime() - cpu0;
      if (sink == 42) {
        System.out.print("");
      }
      return cpu / 1e3 / n;
    }
  }

  static long op(PreparedStatement ps, WireCounts w, WireMark m) throws Exception {
    if (w != null) {
      m.take(w);
    }
    ps.setInt(1, 1);
    long s = 0;
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        s += rs.getInt(1);
      }
    }
    if (w != null) {
      s += m.roundTrips() + m.bytesSent() + m.bytesReceived() + m.statements() + m.rows();
    }
    return s;
  }
}
