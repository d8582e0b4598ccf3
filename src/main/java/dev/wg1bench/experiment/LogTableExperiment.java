package dev.wg1bench.experiment;

import static dev.wg1bench.experiment.ExperimentSupport.bytes;
import static dev.wg1bench.experiment.ExperimentSupport.exec;
import static dev.wg1bench.experiment.ExperimentSupport.fmt;
import static dev.wg1bench.experiment.ExperimentSupport.scalarLong;
import static dev.wg1bench.experiment.ExperimentSupport.timed;
import static dev.wg1bench.experiment.ExperimentSupport.x;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.postgresql.PGConnection;

/**
 * Log table: partitioned vs single table (2015 §5.2). The seed's {@code access_log} (date char(8),
 * time char(6), ids, counters), one month of rows, loaded with COPY (as the seed's {@code \copy} of
 * a CSV) into: 31 daily partitions (declarative {@code PARTITION BY LIST (date)} instead of the
 * seed's inheritance and C trigger) with a btree on (date, time) or none; a single table with BRIN
 * on (date, time) (followed by VACUUM, which the seed timed too: BRIN summarizes bulk-loaded ranges
 * only then), btree, or none. The data is sorted by (date, time) or shuffled. Then the seed's two
 * aggregates joined with {@code product_master}: one day ({@code date = '20150131'}) and the whole
 * month.
 */
public final class LogTableExperiment extends Experiment {
  public static final String PREFIX = "exp_log_";
  public static final long DEFAULT_ROWS = 1_000_000;
  static final String SEED = "2015 §5.2 (partitioning vs BRIN, figures 5.12-5.17)";
  static final LocalDate FIRST_DAY = LocalDate.of(2015, 1, 1);
  static final int DAYS = 31;
  static final int PRODUCTS = 100;
  static final String PRODUCTS_TABLE = PREFIX + "product_master";
  static final String COLUMNS =
      "date, time, productid, place_id, machine_id, app_id, access_time_second, access_count,"
          + " err_code";

  /** A table layout: partitioned or not, and its index on (date, time). */
  record Variant(String name, boolean partitioned, String index) {
    String relation() {
      return PREFIX + name;
    }
  }

  static final List<Variant> VARIANTS =
      List.of(
          new Variant("partitioned_btree", true, "btree"),
          new Variant("partitioned", true, null),
          new Variant("single_brin", false, "brin"),
          new Variant("single_btree", false, "btree"),
          new Variant("single", false, null));

  static final List<String> ORDERS = List.of("sorted", "random");

  /**
   * One layout loaded with one ordering of the data.
   *
   * @param order sorted by (date, time), or random
   * @param variant partitioned_btree, partitioned, single_brin, single_btree, single
   * @param relation the table (the partitioned parent)
   * @param partitions leaf partitions (0 for a single table)
   * @param copyMs COPY FROM STDIN of all rows, each trial
   * @param vacuumMs VACUUM after the load (BRIN only, as the seed), each trial; null otherwise
   * @param loadMs COPY plus VACUUM, each trial
   * @param tableBytes heap size of all partitions
   * @param indexBytes index size of all partitions
   * @param day the seed's one-day aggregate
   * @param month the seed's whole-month aggregate
   */
  public record Result(
      String order,
      String variant,
      String relation,
      int partitions,
      Timings copyMs,
      Timings vacuumMs,
      Timings loadMs,
      long tableBytes,
      long indexBytes,
      QueryResult day,
      QueryResult month) {}

  public LogTableExperiment(PrintStream out) {
    super("logtable", PREFIX, out);
  }

  /** The seed's aggregate over the product table and one layout of the log, by a condition. */
  private static final String QUERY =
      "SELECT p.product_name, l.err_code, avg(l.access_time_second) FROM "
          + PRODUCTS_TABLE
          + " p, %s l WHERE p.productid = l.productid AND %s"
          + " GROUP BY p.product_name, l.err_code";

  private static String dayCond() {
    return "l.date = '" + day(DAYS - 1) + "'";
  }

  private static String monthCond() {
    return "l.date BETWEEN '" + day(0) + "' AND '" + day(DAYS - 1) + "'";
  }

  @Override
  ExperimentReport measure(ExperimentSupport.Context ctx, ExperimentOptions o) throws SQLException {
    Connection c = ctx.c();
    out.printf(
        "experiment logtable (%s) on %s: PostgreSQL %s, %,d rows over %d days, %d trials%n",
        SEED, o.target().name(), ctx.info().version(), o.rows(), DAYS, o.repeat());
    out.printf("settings: %s%n", ctx.session());
    products(c);
    LogTableData data = LogTableData.generate((int) o.rows(), 20150101L);
    Map<String, Object> setup = setup(o);
    List<Result> results = new ArrayList<>();
    for (String order : ORDERS) {
      byte[] csv = data.csv(order.equals("random"));
      setup.put("csvBytes", csv.length);
      for (Variant v : VARIANTS) {
        Result res = measure(c, o, order, v, csv);
        results.add(res);
        printRow(res);
        exec(c, "DROP TABLE " + res.relation());
      }
    }
    String findings = findings(results);
    out.println("findings: " + findings);
    List<String> plots = o.plots() == null ? List.of() : plots(results, o);
    return ctx.report(
        "logtable",
        SEED,
        "load: wall time of COPY FROM STDIN of the whole CSV into a fresh table (plus VACUUM"
            + " for BRIN), repeated; queries: server Execution Time of EXPLAIN (ANALYZE,"
            + " BUFFERS, TIMING OFF) after ANALYZE and one untimed warm run, repeated",
        o,
        setup,
        results,
        findings,
        plots);
  }

  /** The seed's product master the aggregates join. */
  private static void products(Connection c) throws SQLException {
    exec(
        c,
        "CREATE TABLE "
            + PRODUCTS_TABLE
            + " (productid int PRIMARY KEY, product_name text NOT NULL)");
    exec(
        c,
        "INSERT INTO "
            + PRODUCTS_TABLE
            + " SELECT i, 'product_' || lpad(i::text, 3, '0') FROM generate_series(1, "
            + PRODUCTS
            + ") i");
    exec(c, "ANALYZE " + PRODUCTS_TABLE);
  }

  /** What the result records of the set-up: the data, the queries, the load. */
  private static Map<String, Object> setup(ExperimentOptions o) {
    Map<String, Object> setup = new LinkedHashMap<>();
    setup.put("rows", o.rows());
    setup.put("days", DAYS);
    setup.put("firstDay", day(0));
    setup.put("products", PRODUCTS);
    setup.put("dayQuery", QUERY.formatted("access_log", dayCond()));
    setup.put("monthQuery", QUERY.formatted("access_log", monthCond()));
    setup.put(
        "load",
        "COPY access_log (" + COLUMNS + ") FROM STDIN (FORMAT csv) of CSV generated by the client");
    return setup;
  }

  /** One layout with data in one order: its loads, sizes and the two aggregates. */
  private static Result measure(
      Connection c, ExperimentOptions o, String order, Variant v, byte[] csv) throws SQLException {
    boolean brin = v.index() != null && v.index().equals("brin");
    List<Double> copies = new ArrayList<>();
    List<Double> vacuums = new ArrayList<>();
    List<Double> loads = new ArrayList<>();
    for (int r = 0; r < o.repeat(); r++) {
      exec(c, "DROP TABLE IF EXISTS " + v.relation());
      create(c, v);
      double copy = copy(c, v.relation(), csv);
      double vac = brin ? timed(c, "VACUUM " + v.relation()) : 0;
      copies.add(copy);
      loads.add(copy + vac);
      if (brin) {
        vacuums.add(vac);
      }
    }
    exec(c, "ANALYZE " + v.relation());
    String rel = v.relation();
    // a plain table is not in pg_partition_tree's leaves: sizes of the table itself then
    String leaves =
        v.partitioned()
            ? "(SELECT relid FROM pg_partition_tree('" + rel + "') WHERE isleaf)"
            : "(SELECT '" + rel + "'::regclass AS relid)";
    long heap =
        scalarLong(c, "SELECT coalesce(sum(pg_relation_size(relid)), 0) FROM " + leaves + " l");
    long idx =
        scalarLong(c, "SELECT coalesce(sum(pg_indexes_size(relid)), 0) FROM " + leaves + " l");
    QueryResult dq = QueryTimer.time(c, QUERY.formatted(rel, dayCond()), rel, o.repeat());
    QueryResult mq = QueryTimer.time(c, QUERY.formatted(rel, monthCond()), rel, o.repeat());
    return new Result(
        order,
        v.name(),
        rel,
        v.partitioned() ? DAYS : 0,
        Timings.of(copies),
        vacuums.isEmpty() ? null : Timings.of(vacuums),
        Timings.of(loads),
        heap,
        idx,
        dq,
        mq);
  }

  static String day(int i) {
    return FIRST_DAY.plusDays(i).format(DateTimeFormatter.BASIC_ISO_DATE);
  }

  /** The seed's access_log definition; partitions by day, the index on (date, time). */
  private static void create(Connection c, Variant v) throws SQLException {
    String rel = v.relation();
    exec(
        c,
        "CREATE TABLE "
            + rel
            + " (log_id bigserial, date char(8), time char(6), productid int, place_id int,"
            + " machine_id int, app_id int, access_time_second int, access_count int,"
            + " err_code int)"
            + (v.partitioned() ? " PARTITION BY LIST (date)" : ""));
    if (v.partitioned()) {
      for (int d = 0; d < DAYS; d++) {
        exec(
            c,
            "CREATE TABLE "
                + rel
                + "_"
                + day(d)
                + " PARTITION OF "
                + rel
                + " FOR VALUES IN ('"
                + day(d)
                + "')");
      }
    }
    if (v.index() != null) {
      exec(c, "CREATE INDEX " + rel + "_key ON " + rel + " USING " + v.index() + " (date, time)");
    }
  }

  private static double copy(Connection c, String rel, byte[] csv) throws SQLException {
    long t0 = System.nanoTime();
    try {
      c.unwrap(PGConnection.class)
          .getCopyAPI()
          .copyIn(
              "COPY " + rel + " (" + COLUMNS + ") FROM STDIN (FORMAT csv)",
              new ByteArrayInputStream(csv));
    } catch (IOException e) {
      throw new SQLException("COPY into " + rel + " failed: " + e.getMessage(), e);
    }
    return Timings.msSince(t0);
  }

  private boolean headerPrinted;

  private void printRow(Result r) {
    if (!headerPrinted) {
      headerPrinted = true;
      out.printf(
          "%-7s %-18s %24s %10s %10s %22s %-16s %22s %-16s%n",
          "data",
          "variant",
          "load ms med [min-max]",
          "table",
          "indexes",
          "day ms med [min-max]",
          "day plan",
          "month ms med [min-max]",
          "month plan");
    }
    out.printf(
        "%-7s %-18s %24s %10s %10s %22s %-16s %22s %-16s%n",
        r.order(),
        r.variant(),
        BrinExperiment.spread(r.loadMs()),
        bytes(r.tableBytes()),
        bytes(r.indexBytes()),
        BrinExperiment.spread(r.day().executionMs()),
        plan(r.day()),
        BrinExperiment.spread(r.month().executionMs()),
        plan(r.month()));
  }

  private static String plan(QueryResult q) {
    return q.scan() + (q.scans() > 1 ? " x" + q.scans() : "");
  }

  private static Result find(List<Result> rs, String order, String variant) {
    return rs.stream()
        .filter(r -> r.order().equals(order) && r.variant().equals(variant))
        .findFirst()
        .orElseThrow();
  }

  private static double load(List<Result> rs, String order, String variant) {
    return find(rs, order, variant).loadMs().medianMs();
  }

  private static double dayMs(List<Result> rs, String order, String variant) {
    return find(rs, order, variant).day().executionMs().medianMs();
  }

  /** The seed's findings (§5.2.4), checked against this server's numbers. */
  static String findings(List<Result> rs) {
    double partLoad = (load(rs, "sorted", "partitioned") + load(rs, "random", "partitioned")) / 2;
    double singleLoad = (load(rs, "sorted", "single") + load(rs, "random", "single")) / 2;
    double brinLoad = (load(rs, "sorted", "single_brin") + load(rs, "random", "single_brin")) / 2;
    double btreeLoad =
        (load(rs, "sorted", "single_btree") + load(rs, "random", "single_btree")) / 2;
    double partBtreeLoad =
        (load(rs, "sorted", "partitioned_btree") + load(rs, "random", "partitioned_btree")) / 2;
    double sortedBrinVsNone = dayMs(rs, "sorted", "single") / dayMs(rs, "sorted", "single_brin");
    double sortedBrinVsPart =
        dayMs(rs, "sorted", "single_brin") / dayMs(rs, "sorted", "partitioned");
    double randomBrinVsNone = dayMs(rs, "random", "single") / dayMs(rs, "random", "single_brin");
    double randomPartVsNone = dayMs(rs, "random", "single") / dayMs(rs, "random", "partitioned");
    double monthSpread =
        rs.stream().mapToDouble(r -> r.month().executionMs().medianMs()).max().orElse(0)
            / rs.stream().mapToDouble(r -> r.month().executionMs().medianMs()).min().orElse(1);
    StringBuilder b = new StringBuilder();
    b.append(
        fmt(
            "load: 31 partitions take %s the single table's time (%s with btree), single+btree"
                + " %s single+BRIN incl. VACUUM; one day: BRIN is %s faster than no index on"
                + " sorted data (%s partition pruning's time), %s on random data, where pruning"
                + " is %s faster; whole month: all layouts within %s of each other",
            x(partLoad / singleLoad),
            x(partBtreeLoad / singleLoad),
            x(btreeLoad / brinLoad),
            x(sortedBrinVsNone),
            x(sortedBrinVsPart),
            randomBrinVsNone >= 1
                ? x(randomBrinVsNone) + " faster"
                : x(1 / randomBrinVsNone) + " slower",
            x(randomPartVsNone),
            x(monthSpread)));
    List<String> differs = new ArrayList<>();
    if (partLoad <= singleLoad * 1.1) {
      differs.add(
          "loading into partitions is not clearly slower (declarative routing, no trigger)");
    }
    if (btreeLoad <= brinLoad) {
      differs.add("btree does not load slower than BRIN");
    }
    if (sortedBrinVsNone < 1.5) {
      differs.add("BRIN does not speed up the one-day query on sorted data");
    }
    if (randomBrinVsNone >= 1.5) {
      differs.add("BRIN speeds up the one-day query on random data");
    }
    if (differs.isEmpty()) {
      b.append(": as in the seed");
    } else {
      b.append("; this server differs from the seed: ").append(String.join("; ", differs));
    }
    return b.toString();
  }

  private List<String> plots(List<Result> rs, ExperimentOptions o) {
    Path dir = o.plots();
    List<String> names = VARIANTS.stream().map(Variant::name).toList();
    String rows = fmt("%,d rows", o.rows());
    String med = "median of " + o.repeat();
    ExperimentSupport.Bars bars = new ExperimentSupport.Bars(dir, "table layout");
    bars.add(
        "logtable-load-time.png",
        "COPY load time (" + rows + ", " + med + "; BRIN incl. VACUUM)",
        "load time [ms]",
        names,
        series(rs, names, r -> r.loadMs().medianMs()),
        false);
    bars.add(
        "logtable-day-query.png",
        "One-day aggregate, date = '" + day(DAYS - 1) + "' (" + rows + ", " + med + ")",
        "execution time [ms]",
        names,
        series(rs, names, r -> r.day().executionMs().medianMs()),
        false);
    bars.add(
        "logtable-month-query.png",
        "Whole-month aggregate (" + rows + ", " + med + ")",
        "execution time [ms]",
        names,
        series(rs, names, r -> r.month().executionMs().medianMs()),
        false);
    return bars.written(out);
  }

  private static Map<String, List<Double>> series(
      List<Result> rs, List<String> variants, ToDoubleFunction<Result> f) {
    Map<String, List<Double>> m = new LinkedHashMap<>();
    for (String order : ORDERS) {
      m.put(
          order + " data",
          variants.stream().map(v -> f.applyAsDouble(find(rs, order, v))).toList());
    }
    return m;
  }
}
