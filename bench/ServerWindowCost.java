import dev.wg1bench.server.window.ServerSide;
import dev.wg1bench.server.window.ServerWindow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What server/window's wait sampler costs the server: CLIENTS connections (half of them running
 * SELECT 1 in a loop, half idle) are the window's clients; the window runs SECONDS at each sampling
 * interval, and the sampler's own backend's CPU time (utime + stime of /proc/PID/stat, so the
 * server must run on this machine) is read at the window's ends. Prints the backend's CPU ms per
 * second of window and per sample.
 *
 * <pre>java -cp target/wg1bench.jar bench/ServerWindowCost.java URL CLIENTS SECONDS INTERVALS_MS...</pre>
 */
public final class ServerWindowCost {
  private static volatile boolean stop;

  public static void main(String[] args) throws Exception {
    String url = args[0];
    int clients = Integer.parseInt(args[1]);
    double seconds = Double.parseDouble(args[2]);
    List<Connection> cs = new ArrayList<>();
    Set<Integer> pids = new TreeSet<>();
    List<Thread> busy = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      Connection c = DriverManager.getConnection(url);
      cs.add(c);
      pids.add(c.unwrap(org.postgresql.PGConnection.class).getBackendPID());
      if (i % 2 == 0) {
        Thread t = new Thread(() -> loop(c));
        t.start();
        busy.add(t);
      }
    }
    long tick = 100; // getconf CLK_TCK on Linux
    System.out.println("interval_ms seconds samples sampler_cpu_ms_per_s sampler_cpu_us_per_sample");
    try (Connection admin = DriverManager.getConnection(url)) {
      for (int a = 3; a < args.length; a++) {
        Duration every = Duration.ofMillis(Long.parseLong(args[a]));
        ServerWindow w = ServerWindow.start(() -> DriverManager.getConnection(url), pids, every);
        int sampler = samplerPid(admin);
        long cpu0 = cpuTicks(sampler);
        long t0 = System.nanoTime();
        Thread.sleep((long) (seconds * 1000));
        long cpu1 = cpuTicks(sampler);
        double s = (System.nanoTime() - t0) / 1e9;
        ServerSide side = w.finish();
        double cpuMs = (cpu1 - cpu0) * 1000.0 / tick;
        System.out.printf(
            "%s %.1f %d %.2f %.1f%n",
            args[a], s, side.samples(), cpuMs / s, cpuMs * 1000 / Math.max(1, side.samples()));
      }
    }
    stop = true;
    for (Thread t : busy) {
      t.join();
    }
    for (Connection c : cs) {
      c.close();
    }
  }

  static void loop(Connection c) {
    try (Statement st = c.createStatement()) {
      while (!stop) {
        st.executeQuery("SELECT 1").close();
      }
    } catch (Exception e) {
      System.err.println("client stopped: " + e);
    }
  }

  /** The sampler's backend: the session whose query is the sampler's, waited for. */
  static int samplerPid(Connection admin) throws Exception {
    for (int i = 0; i < 500; i++) {
      try (Statement st = admin.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT pid FROM pg_stat_activity WHERE query LIKE '%FROM pg_stat_activity WHERE"
                      + " pid = ANY%' AND query LIKE '%wg1bench:server-window%'"
                      + " AND pid <> pg_backend_pid()")) {
        if (rs.next()) {
          return rs.getInt(1);
        }
      }
      Thread.sleep(10);
    }
    throw new IllegalStateException("the sampler's backend was not found");
  }

  static long cpuTicks(int pid) throws Exception {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }
}
