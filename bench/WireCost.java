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
  public static void main(String[] args) throws Throwable {
    String url = args[0];
    int rounds = Integer.parseInt(args[1]);
    double seconds = Double.parseDouble(args[2]);
    String[][] ops = {
      {"point", "SELECT 1 + ?"},
      {"rows100", "SELECT g + ? FROM generate_series(1, 100) g"},
    };
    System.out.printf("scan point answer: %.1f ns/op%n", scanNanos(pointAnswer(), 20_000_000));
    System.out.printf("scan rows100 answer: %.1f ns/op%n", scanNanos(rowsAnswer(100), 500_000));
    System.out.println("round op plain_us counted_us diff_us");
    for (int r = 1; r <= rounds; r++) {
      for (String[] op : ops) {
        double plain = run(url, op[1], seconds, false);
        double counted = run(url, op[1], seconds, true);
        System.out.printf("%d %s %.3f %.3f %.3f%n", r, op[0], plain, counted, counted - plain);
      }
    }
  }

  /**
   * The counting alone, without the network's noise: an op's bytes as the server sends them, through
   * the counting streams' scanner (package-private, so reached by reflection), CPU ns per op.
   */
  static double scanNanos(byte[] answer, int ops) throws Throwable {
    Class<?> countsClass = Class.forName("dev.wg1bench.server.wire.WireCounts");
    var cc = countsClass.getDeclaredConstructor();
    cc.setAccessible(true);
    Object counts = cc.newInstance();
    Class<?> scannerClass = Class.forName("dev.wg1bench.server.wire.ProtocolScanner");
    var sc = scannerClass.getDeclaredConstructor(countsClass);
    sc.setAccessible(true);
    Object scanner = sc.newInstance(counts);
    var sent = scannerClass.getDeclaredMethod("sent", byte[].class, int.class, int.class);
    var received = scannerClass.getDeclaredMethod("received", byte[].class, int.class, int.class);
    sent.setAccessible(true);
    received.setAccessible(true);
    var handle = java.lang.invoke.MethodHandles.lookup().unreflect(received);
    byte[] startup = {0, 0, 0, 8, 0, 3, 0, 0};
    sent.invoke(scanner, startup, 0, startup.length);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (int pass = 0; pass < 2; pass++) {
      long cpu0 = mx.getCurrentThreadCpuTime();
      for (int i = 0; i < ops; i++) {
        handle.invoke(scanner, answer, 0, answer.length);
      }
      if (pass == 1) {
        return (mx.getCurrentThreadCpuTime() - cpu0) / (double) ops;
      }
    }
    return Double.NaN;
  }

  /** BindComplete, DataRow (one int), CommandComplete "SELECT 1", ReadyForQuery. */
  static byte[] pointAnswer() {
    return rowsAnswer(1);
  }

  static byte[] rowsAnswer(int rows) {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    message(b, '2', new byte[0]);
    for (int i = 0; i < rows; i++) {
      message(b, 'D', new byte[] {0, 1, 0, 0, 0, 4, 0, 0, 0, 1});
    }
    message(b, 'C', ("SELECT " + rows + "\0").getBytes());
    message(b, 'Z', new byte[] {'I'});
    return b.toByteArray();
  }

  static void message(java.io.ByteArrayOutputStream b, char type, byte[] body) {
    int n = body.length + 4;
    b.write(type);
    b.write(n >>> 24);
    b.write(n >>> 16);
    b.write(n >>> 8);
    b.write(n);
    b.writeBytes(body);
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
