import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What a plain JDBC client costs: the baseline bench/op-path-vs-bare-loop.sh holds wg1bench's op
 * path to. One platform thread per client, each with its own connection and one {@link
 * PreparedStatement} (prepareThreshold=1, so it is a named server-side statement from the first
 * execution, as under pgbench -M prepared); an op is STATEMENTS point selects on pgbench_accounts at
 * random aids in autocommit, as the bench's pgbench script does. Nothing else: no pool, no
 * timing per op, no error handling beyond stopping.
 *
 * <p>Run by the JDK's source launcher against wg1bench's shaded jar, so both sides use the same
 * pgjdbc classes:
 *
 * <pre>java -cp target/wg1bench.jar bench/BareLoop.java URL CLIENTS WARMUP_S DURATION_S STATEMENTS SCALE</pre>
 *
 * <p>Prints one line: {@code ops tps cpuMicrosPerOp}. CPU per op is measured as wg1bench measures
 * its own (the process's CPU time, all threads, JIT and GC included, over the measured interval
 * only, divided by the ops completed in it), so the two figures compare like for like.
 */
public final class BareLoop {
  private static volatile boolean stop;

  public static void main(String[] args) throws Exception {
    String url = args[0];
    int clients = Integer.parseInt(args[1]);
    long warmupNanos = (long) (Double.parseDouble(args[2]) * 1e9);
    long durationNanos = (long) (Double.parseDouble(args[3]) * 1e9);
    int statements = Integer.parseInt(args[4]);
    int scale = Integer.parseInt(args[5]);
    int accounts = 100_000 * scale;

    // counts padded 16 longs apart so clients do not share a cache line
    AtomicLongArray ops = new AtomicLongArray(clients * 16);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int slot = c * 16;
      long seed = 1_000_003L * (c + 1);
      Thread t =
          new Thread(
              () -> {
                try {
                  run(url, statements, accounts, seed, ops, slot);
                } catch (Throwable e) {
                  synchronized (failures) {
                    failures.add(e);
                  }
                }
              },
              "client-" + c);
      threads.add(t);
      t.start();
    }

    OperatingSystemMXBean os =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Thread.sleep(warmupNanos / 1_000_000);
    long cpu0 = os.getProcessCpuTime();
    long ops0 = sum(ops, clients);
    long t0 = System.nanoTime();
    Thread.sleep(durationNanos / 1_000_000);
    long cpu1 = os.getProcessCpuTime();
    long ops1 = sum(ops, clients);
    long t1 = System.nanoTime();
    stop = true;
    for (Thread t : threads) {
      t.join();
    }
    if (!failures.isEmpty()) {
      System.err.println("bare loop failed: " + failures.get(0));
      System.exit(1);
    }
    long n = ops1 - ops0;
    System.out.printf(
        "%d %.1f %.2f%n", n, n / ((t1 - t0) / 1e9), n == 0 ? Double.NaN : (cpu1 - cpu0) / 1e3 / n);
  }

  private static void run(
      String url, int statements, int accounts, long seed, AtomicLongArray ops, int slot)
      throws SQLException {
    SplittableRandom random = new SplittableRandom(seed);
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement ps =
            c.prepareStatement("SELECT abalance FROM pgbench_accounts WHERE aid = ?")) {
      while (!stop) {
        for (int s = 0; s < statements; s++) {
          ps.setInt(1, random.nextInt(accounts) + 1);
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              rs.getInt(1);
            }
          }
        }
        ops.lazySet(slot, ops.get(slot) + 1);
      }
    }
  }

  private static long sum(AtomicLongArray ops, int clients) {
    long n = 0;
    for (int c = 0; c < clients; c++) {
      n += ops.get(c * 16);
    }
    return n;
  }
}
