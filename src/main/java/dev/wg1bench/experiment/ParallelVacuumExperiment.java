package dev.wg1bench.experiment;

import static dev.wg1bench.experiment.ExperimentSupport.exec;
import static dev.wg1bench.experiment.ExperimentSupport.fmt;
import static dev.wg1bench.experiment.ExperimentSupport.scalarLong;
import static dev.wg1bench.experiment.ExperimentSupport.x;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plot.Charts;
import dev.wg1bench.server.ConnectionFactory;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Parallel VACUUM (2015 §4): K tables shaped like pgbench_accounts at fillfactor 80 (so updates are
 * HOT, as in the seed), each dirtied by an update workload (several transactions updating a fifth
 * of the rows' filler, as the seed's pgbench UPDATE script did), then a CHECKPOINT; then {@code
 * VACUUM (FREEZE, ANALYZE)} of all K tables on J connections, each taking the next table from a
 * shared queue, which is what {@code vacuumdb --freeze --analyze --jobs J} does. The seed restored
 * a physical backup before each run; here the tables are rebuilt identically before each trial. The
 * tables have autovacuum_enabled = off (the seed ran with autovacuum = off).
 */
public final class ParallelVacuumExperiment extends Experiment {
  public static final String PREFIX = "exp_vac_";
  public static final long DEFAULT_ROWS = 500_000;
  public static final int DEFAULT_TABLES = 4;
  public static final List<Integer> DEFAULT_JOBS = List.of(1, 2, 4);
  static final String SEED = "2015 §4 (parallel VACUUM, table 4.2)";

  /** Update transactions per table; each updates rows with aid % 50 = its number. */
  static final int UPDATE_TRANSACTIONS = 10;

  /**
   * One trial: all tables rebuilt and dirtied, then vacuumed with {@code jobs} connections.
   *
   * @param elapsedMs from the first VACUUM's start to the last one's end
   * @param tableMs each table's VACUUM time
   * @param deadTuplesBefore n_dead_tup over the tables before the VACUUM
   * @param maxXidAgeBefore the largest age(relfrozenxid) of the tables before
   * @param maxXidAgeAfter the same after: FREEZE brings it near zero
   * @param checkpoint whether the CHECKPOINT before the VACUUM ran (it needs pg_checkpoint)
   */
  public record Trial(
      int jobs,
      int repeat,
      int sequence,
      double elapsedMs,
      Map<String, Double> tableMs,
      long deadTuplesBefore,
      long maxXidAgeBefore,
      long maxXidAgeAfter,
      boolean checkpoint) {}

  /**
   * One job count.
   *
   * @param elapsedMs the trials' elapsed times
   * @param speedup median elapsed at the baseline job count over this one's
   * @param tableMs per-table VACUUM times over all trials: min, max, mean (the seed's table 4.3)
   */
  public record Result(
      int jobs,
      Timings elapsedMs,
      double speedup,
      Map<String, Double> tableMs,
      List<Trial> trials) {}

  public ParallelVacuumExperiment(PrintStream out) {
    super("vacuum", PREFIX, out);
  }

  @Override
  ExperimentReport measure(ExperimentSupport.Context ctx, ExperimentOptions o) throws SQLException {
    Connection c = ctx.c();
    List<String> tables = new ArrayList<>();
    for (int i = 1; i <= o.tables(); i++) {
      tables.add(PREFIX + i);
    }
    out.printf(
        "experiment vacuum (%s) on %s: PostgreSQL %s, %d tables x %,d rows, jobs %s, %d"
            + " trials%n",
        SEED, o.target().name(), ctx.info().version(), o.tables(), o.rows(), o.jobs(), o.repeat());
    out.printf("settings: %s%n", ctx.session());
    Map<String, Object> setup = setup(tables, o);
    Map<Integer, List<Trial>> byJobs = new LinkedHashMap<>();
    o.jobs().forEach(j -> byJobs.put(j, new ArrayList<>()));
    List<Double> prepare = new ArrayList<>();
    int seq = 0;
    for (int r = 0; r < o.repeat(); r++) {
      // rotate the job order between rounds so no J always runs first
      List<Integer> order = new ArrayList<>(o.jobs());
      Collections.rotate(order, -r);
      for (int j : order) {
        long t0 = System.nanoTime();
        prepare(c, tables, o.rows());
        prepare.add(Timings.msSince(t0));
        byJobs.get(j).add(trial(ctx.cf(), c, tables, j, r + 1, ++seq));
      }
    }
    setup.put("prepareMs", Timings.of(prepare));
    setup.put(
        "totalBytesPerTable",
        scalarLong(c, "SELECT pg_total_relation_size('" + tables.get(0) + "')"));
    int base = o.jobs().contains(1) ? 1 : Collections.min(o.jobs());
    setup.put("baselineJobs", base);
    List<Result> results = results(o.jobs(), byJobs, base);
    printTable(results, base);
    String findings = findings(results, base, o);
    out.println("findings: " + findings);
    List<String> plots = o.plots() == null ? List.of() : plots(results, base, o);
    return ctx.report(
        "vacuum",
        SEED,
        "elapsed: wall time from the start of the first VACUUM (FREEZE, ANALYZE) to the end"
            + " of the last, connections opened beforehand; tables rebuilt before each trial",
        o,
        setup,
        results,
        findings,
        plots);
  }

  /** What the result records of the set-up: the tables, how they are dirtied and vacuumed. */
  private static Map<String, Object> setup(List<String> tables, ExperimentOptions o) {
    Map<String, Object> setup = new LinkedHashMap<>();
    setup.put("tables", tables);
    setup.put("rowsPerTable", o.rows());
    setup.put(
        "table",
        "(aid int PRIMARY KEY, bid int, abalance int, filler char(84)) WITH (fillfactor = 80,"
            + " autovacuum_enabled = off)");
    setup.put(
        "dirty",
        UPDATE_TRANSACTIONS
            + " transactions per table: UPDATE t SET filler = repeat(current_timestamp::text, 2)"
            + " WHERE aid % 50 = k (a fifth of the rows); then CHECKPOINT");
    setup.put("vacuum", "VACUUM (FREEZE, ANALYZE) t, tables taken from a queue by J connections");
    return setup;
  }

  /** One timed VACUUM of the prepared tables on {@code j} connections. */
  private Trial trial(
      ConnectionFactory cf, Connection c, List<String> tables, int j, int repeat, int seq)
      throws SQLException {
    long dead = deadTuples(c, tables);
    long ageBefore = maxAge(c, tables);
    boolean checkpoint = checkpoint(c);
    Map<String, Double> perTable = new ConcurrentHashMap<>();
    double elapsed = vacuum(cf, tables, j, perTable);
    long ageAfter = maxAge(c, tables);
    out.printf(
        "trial %d: jobs %d, VACUUM (FREEZE, ANALYZE) %.0f ms (dead tuples before %,d,"
            + " xid age %,d -> %,d)%n",
        seq, j, elapsed, dead, ageBefore, ageAfter);
    return new Trial(
        j,
        repeat,
        seq,
        Timings.round(elapsed),
        new TreeMap<>(perTable),
        dead,
        ageBefore,
        ageAfter,
        checkpoint);
  }

  /** Per number of jobs: elapsed times, the speed-up over {@code base} jobs, per-table times. */
  private static List<Result> results(
      List<Integer> jobs, Map<Integer, List<Trial>> byJobs, int base) {
    double baseMedian = Timings.of(elapsedOf(byJobs.get(base))).medianMs();
    List<Result> results = new ArrayList<>();
    for (int j : jobs) {
      List<Trial> ts = byJobs.get(j);
      Timings el = Timings.of(elapsedOf(ts));
      List<Double> all = ts.stream().flatMap(t -> t.tableMs().values().stream()).toList();
      Map<String, Double> tm = new LinkedHashMap<>();
      tm.put("min", Timings.round(all.stream().mapToDouble(d -> d).min().orElse(0)));
      tm.put("max", Timings.round(all.stream().mapToDouble(d -> d).max().orElse(0)));
      tm.put("mean", Timings.round(all.stream().mapToDouble(d -> d).average().orElse(0)));
      results.add(
          new Result(j, el, Math.round(baseMedian / el.medianMs() * 1000) / 1000.0, tm, ts));
    }
    return results;
  }

  private static List<Double> elapsedOf(List<Trial> ts) {
    return ts.stream().map(Trial::elapsedMs).toList();
  }

  /** Rebuilds each table as pgbench -i -F 80 would, then dirties it with update transactions. */
  private static void prepare(Connection c, List<String> tables, long rows) throws SQLException {
    for (String t : tables) {
      exec(c, "DROP TABLE IF EXISTS " + t);
      exec(
          c,
          "CREATE TABLE "
              + t
              + " (aid int NOT NULL, bid int, abalance int, filler char(84))"
              + " WITH (fillfactor = 80, autovacuum_enabled = off)");
      exec(
          c,
          "INSERT INTO "
              + t
              + " SELECT a, (a - 1) / 100000 + 1, 0, '' FROM generate_series(1, "
              + rows
              + ") a");
      exec(c, "ALTER TABLE " + t + " ADD PRIMARY KEY (aid)");
    }
    for (int k = 0; k < UPDATE_TRANSACTIONS; k++) {
      for (String t : tables) {
        exec(
            c,
            "UPDATE "
                + t
                + " SET filler = repeat(current_timestamp::text, 2) WHERE aid % 50 = "
                + k);
      }
    }
  }

  private static boolean checkpoint(Connection c) {
    try {
      exec(c, "CHECKPOINT");
      return true;
    } catch (SQLException e) {
      return false; // needs superuser or pg_checkpoint: recorded, not fatal
    }
  }

  private static long deadTuples(Connection c, List<String> tables) throws SQLException {
    try {
      exec(c, "SELECT pg_stat_force_next_flush()");
    } catch (SQLException e) {
      // before PostgreSQL 15 the statistics reach the view a moment later
    }
    return scalarLong(
        c,
        "SELECT coalesce(sum(n_dead_tup), 0) FROM pg_stat_user_tables WHERE schemaname ="
            + " current_schema() AND relname IN ("
            + quoted(tables)
            + ")");
  }

  private static long maxAge(Connection c, List<String> tables) throws SQLException {
    return scalarLong(
        c,
        "SELECT max(age(relfrozenxid)) FROM pg_class WHERE relnamespace ="
            + " current_schema()::regnamespace AND relname IN ("
            + quoted(tables)
            + ")");
  }

  private static String quoted(List<String> tables) {
    return String.join(", ", tables.stream().map(t -> "'" + t + "'").toList());
  }

  /** vacuumdb --jobs J: J connections, each vacuuming the next table until none is left. */
  private static double vacuum(
      ConnectionFactory cf, List<String> tables, int jobs, Map<String, Double> perTable)
      throws SQLException {
    List<Connection> conns = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(jobs);
    try {
      for (int i = 0; i < jobs; i++) {
        conns.add(ExperimentSupport.open(cf));
      }
      ConcurrentLinkedQueue<String> queue = new ConcurrentLinkedQueue<>(tables);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Void>> futures = new ArrayList<>();
      for (Connection conn : conns) {
        futures.add(
            pool.submit(
                () -> {
                  go.await();
                  String t;
                  while ((t = queue.poll()) != null) {
                    long t0 = System.nanoTime();
                    exec(conn, "VACUUM (FREEZE, ANALYZE) " + t);
                    perTable.put(t, Timings.round(Timings.msSince(t0)));
                  }
                  return null;
                }));
      }
      long t0 = System.nanoTime();
      go.countDown();
      for (Future<Void> f : futures) {
        f.get();
      }
      return Timings.msSince(t0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RunFailure("experiment vacuum interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SQLException s) {
        throw s;
      }
      throw new RunFailure("experiment vacuum: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
      for (Connection conn : conns) {
        conn.close();
      }
    }
  }

  private void printTable(List<Result> results, int base) {
    out.printf(
        "%5s %26s %10s %34s%n",
        "jobs", "elapsed ms med [min-max]", "vs J=" + base, "per table ms min / max / mean");
    for (Result r : results) {
      out.printf(
          "%5d %26s %9.0f%% %34s%n",
          r.jobs(),
          BrinExperiment.spread(r.elapsedMs()),
          r.speedup() * 100,
          fmt(
              "%.0f / %.0f / %.0f",
              r.tableMs().get("min"), r.tableMs().get("max"), r.tableMs().get("mean")));
    }
  }

  static String findings(List<Result> results, int base, ExperimentOptions o) {
    Result best = results.stream().max((a, b) -> Double.compare(a.speedup(), b.speedup())).get();
    StringBuilder b = new StringBuilder();
    b.append(fmt("VACUUM (FREEZE, ANALYZE) of %d tables x %,d rows: ", o.tables(), o.rows()));
    List<String> parts = new ArrayList<>();
    for (Result r : results) {
      parts.add(
          fmt("J=%d %.2f s", r.jobs(), r.elapsedMs().medianMs() / 1000)
              + (r.jobs() == base ? "" : " (" + x(r.speedup()) + ")"));
    }
    b.append(String.join(", ", parts));
    b.append(
        fmt(
            "; best J=%d at %s over J=%d on %d client cores",
            best.jobs(), x(best.speedup()), base, Runtime.getRuntime().availableProcessors()));
    Result two = results.stream().filter(r -> r.jobs() == 2 * base).findFirst().orElse(null);
    if (two != null) {
      b.append(
          two.speedup() < 1.9
              ? fmt(
                  "; J=%d gains %s, far from linear, as in the seed", two.jobs(), x(two.speedup()))
              : fmt(
                  "; J=%d gains %s, near linear: this server scales better than the seed's",
                  two.jobs(), x(two.speedup())));
    }
    b.append(
        " (seed: 1.57x at J=2 and at best 4.64x at J=40 on 24 cores with SAN storage; 1.2x at best"
            + " on a 6-core server with one disk array)");
    return b.toString();
  }

  private List<String> plots(List<Result> results, int base, ExperimentOptions o) {
    Path dir = o.plots();
    double[] jx = results.stream().mapToDouble(Result::jobs).toArray();
    String what = fmt("%d tables x %,d rows, median of %d", o.tables(), o.rows(), o.repeat());
    Map<String, double[][]> elapsed = new LinkedHashMap<>();
    elapsed.put(
        "elapsed (median)",
        new double[][] {
          jx, results.stream().mapToDouble(r -> r.elapsedMs().medianMs() / 1000).toArray()
        });
    elapsed.put(
        "fastest trial",
        new double[][] {
          jx, results.stream().mapToDouble(r -> r.elapsedMs().minMs() / 1000).toArray()
        });
    elapsed.put(
        "slowest trial",
        new double[][] {
          jx, results.stream().mapToDouble(r -> r.elapsedMs().maxMs() / 1000).toArray()
        });
    Map<String, double[][]> speed = new LinkedHashMap<>();
    speed.put(
        "speed-up over J=" + base,
        new double[][] {jx, results.stream().mapToDouble(Result::speedup).toArray()});
    Map<String, double[][]> ideal = new LinkedHashMap<>();
    ideal.put(
        "linear",
        new double[][] {jx, results.stream().mapToDouble(r -> (double) r.jobs() / base).toArray()});
    List<String> files = new ArrayList<>();
    files.add(
        Charts.lines(
                dir,
                "vacuum-elapsed.png",
                "VACUUM (FREEZE, ANALYZE) elapsed time vs jobs (" + what + ")",
                "parallel jobs J (connections)",
                "elapsed time [s]",
                elapsed,
                Map.of())
            .toString());
    files.add(
        Charts.lines(
                dir,
                "vacuum-speedup.png",
                "Parallel VACUUM speed-up over J=" + base + " (" + what + ")",
                "parallel jobs J (connections)",
                "speed-up [x]",
                speed,
                ideal)
            .toString());
    out.println("plots written to " + dir);
    return files;
  }
}
