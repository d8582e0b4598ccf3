package dev.wg1bench.tpcc;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;

/**
 * {@code init --workload tpcc}: the nine TPC-C tables dropped, created and loaded per clause 4.3
 * for W warehouses, through COPY, the warehouses on a few connections in parallel; then the keys
 * and indexes, and VACUUM ANALYZE so the first run starts from fresh statistics and a set
 * visibility map.
 */
public final class TpccLoader {
  /** Tables that hold rows and no --force: nothing was changed. */
  public static final class Refused extends IllegalStateException {
    Refused(String message) {
      super(message);
    }
  }

  /** How the load went, for the console and the bench record. */
  public record Loaded(int warehouses, int threads, double loadSeconds, double totalSeconds) {
    /** Seconds of loading (COPY, before keys and vacuum) per warehouse, threads working at once. */
    public double secondsPerWarehouse() {
      return loadSeconds / warehouses;
    }
  }

  /**
   * Connections loading at once when not told (init's --threads): one per warehouse and one more,
   * up to the processors, and at least 2.
   */
  public static int defaultThreads(int warehouses) {
    return Math.min(warehouses + 1, Math.max(2, Runtime.getRuntime().availableProcessors()));
  }

  private final DataSource dataSource;
  private final PrintStream log;

  public TpccLoader(DataSource dataSource, PrintStream log) {
    this.dataSource = dataSource;
    this.log = log;
  }

  /**
   * Loads {@code warehouses} warehouses on {@code threads} connections. Throws {@link Refused}
   * before changing anything when one of the nine tables holds rows and {@code force} is off.
   */
  public Loaded load(int warehouses, boolean force, int threads, long seed) throws SQLException {
    if (warehouses < 1 || threads < 1) {
      throw new IllegalArgumentException("warehouses and threads must be at least 1");
    }
    long t0 = System.nanoTime();
    Constants constants = Constants.draw(new Random(seed));
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      c.setAutoCommit(true);
      if (!force) {
        refuseRows(st);
      }
      st.execute("DROP TABLE IF EXISTS " + String.join(", ", Schema.TABLES));
      try {
        Schema.create(st);
        constants.store(st);
        long t1 = System.nanoTime();
        say("loading %d warehouse(s) on %d connection(s)...", warehouses, threads);
        copyAll(warehouses, threads, seed, constants);
        double loaded = (System.nanoTime() - t1) / 1e9;
        say("creating primary keys and indexes...");
        for (String k : Schema.KEYS) {
          st.execute(k);
        }
        say("vacuuming...");
        for (String t : Schema.TABLES) {
          st.execute("VACUUM ANALYZE " + t);
        }
        Loaded done = new Loaded(warehouses, threads, loaded, (System.nanoTime() - t0) / 1e9);
        say(
            "done in %.2f s (load %.2f s, %.2f s per warehouse; %d warehouse(s)).",
            done.totalSeconds(), done.loadSeconds(), done.secondsPerWarehouse(), warehouses);
        return done;
      } catch (SQLException | RuntimeException e) {
        // a half-loaded schema would pass for a loaded one: remove it, as init does for pgbench's
        st.execute("DROP TABLE IF EXISTS " + String.join(", ", Schema.TABLES));
        throw e;
      }
    }
  }

  /** Items and every warehouse, a task each, on {@code threads} connections. */
  private void copyAll(int warehouses, int threads, long seed, Constants constants)
      throws SQLException {
    String now = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> tasks = new ArrayList<>();
      tasks.add(pool.submit(() -> copy(0, seed, constants, now)));
      for (int w = 1; w <= warehouses; w++) {
        int ww = w;
        tasks.add(pool.submit(() -> copy(ww, seed, constants, now)));
      }
      for (Future<?> f : tasks) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while loading", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SQLException s) {
        throw s;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /** Warehouse {@code w}'s rows (0: the items), each with a random source of its own. */
  private Void copy(int w, long seed, Constants constants, String now) throws SQLException {
    long t0 = System.nanoTime();
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      WarehouseRows rows =
          new WarehouseRows(c, new TpccRandom(new Random(seed * 31 + w)), constants, now);
      if (w == 0) {
        rows.items();
        say("items loaded in %.2f s", (System.nanoTime() - t0) / 1e9);
      } else {
        rows.warehouse(w);
        say("warehouse %d loaded in %.2f s", w, (System.nanoTime() - t0) / 1e9);
      }
    }
    return null;
  }

  private void refuseRows(Statement st) throws SQLException {
    for (String t : Schema.TABLES) {
      try (ResultSet rs = st.executeQuery("SELECT to_regclass('" + t + "') IS NOT NULL")) {
        rs.next();
        if (!rs.getBoolean(1)) {
          continue;
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT EXISTS (SELECT 1 FROM " + t + ")")) {
        rs.next();
        if (rs.getBoolean(1)) {
          throw new Refused(
              "init --workload tpcc: table "
                  + t
                  + " already holds rows; add --force to drop and re-create the nine TPC-C"
                  + " tables (no other table is touched)");
        }
      }
    }
  }

  private void say(String format, Object... args) {
    if (log != null) {
      synchronized (log) {
        log.println(String.format(Locale.ROOT, format, args));
      }
    }
  }
}
