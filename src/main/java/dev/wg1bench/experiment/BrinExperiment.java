package dev.wg1bench.experiment;

import static dev.wg1bench.experiment.ExperimentSupport.bytes;
import static dev.wg1bench.experiment.ExperimentSupport.exec;
import static dev.wg1bench.experiment.ExperimentSupport.fmt;
import static dev.wg1bench.experiment.ExperimentSupport.scalarLong;
import static dev.wg1bench.experiment.ExperimentSupport.timed;
import static dev.wg1bench.experiment.ExperimentSupport.x;

import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * BRIN vs btree (2015 §5.1): two tables of N rows {@code (id, md5(id))}, {@code t_mono} with id in
 * physical order and {@code t_random} shuffled ({@code ORDER BY random()}), as the seed built them;
 * for each index variant (none, btree, BRIN with pages_per_range 1, 128, 12800) the build time
 * (repeated), the index size, and the seed's point lookup ({@code id = N/2}) and range lookup
 * ({@code id BETWEEN N/3 AND 2N/3}, the seed's 40M–80M of 120M) on both tables. The seed left the
 * planner settings at their defaults (no enable_seqscan change); so does this, and records them.
 */
public final class BrinExperiment extends Experiment {
  public static final String PREFIX = "exp_brin_";
  public static final long DEFAULT_ROWS = 2_000_000;
  static final String SEED = "2015 §5.1 (BRIN vs btree, figures 5.3-5.10)";

  /** An index variant: no index, btree, or BRIN with a pages_per_range. */
  record Variant(String name, String method, Integer pagesPerRange) {
    String ddl(String table, String index) {
      String with = pagesPerRange == null ? "" : " WITH (pages_per_range = " + pagesPerRange + ")";
      return "CREATE INDEX " + index + " ON " + table + " USING " + method + " (id)" + with;
    }
  }

  static final List<Variant> VARIANTS =
      List.of(
          new Variant("none", null, null),
          new Variant("btree", "btree", null),
          new Variant("brin(1)", "brin", 1),
          new Variant("brin(128)", "brin", 128),
          new Variant("brin(12800)", "brin", 12800));

  static final List<String> TABLES = List.of("t_mono", "t_random");

  /**
   * One variant on one table.
   *
   * @param variant none, btree, brin(1), brin(128), brin(12800)
   * @param table t_mono (sorted) or t_random (shuffled)
   * @param relation the table's name in the database
   * @param index the index's name, null for none
   * @param buildMs CREATE INDEX, each trial (null for none)
   * @param indexBytes pg_relation_size of the index (null for none)
   * @param point the point lookup
   * @param range the range lookup
   */
  public record Result(
      String variant,
      String table,
      String relation,
      String index,
      Timings buildMs,
      Long indexBytes,
      QueryResult point,
      QueryResult range) {}

  public BrinExperiment(PrintStream out) {
    super("brin", PREFIX, out);
  }

  @Override
  ExperimentReport measure(ExperimentSupport.Context ctx, ExperimentOptions o) throws SQLException {
    Connection c = ctx.c();
    long n = o.rows();
    out.printf(
        "experiment brin (%s) on %s: PostgreSQL %s, %,d rows per table, %d trials%n",
        SEED, o.target().name(), ctx.info().version(), n, o.repeat());
    out.printf("settings: %s%n", ctx.session());
    Map<String, Object> setup = new LinkedHashMap<>();
    for (String t : TABLES) {
      setup.put(t, create(c, t, n));
    }
    String point = "SELECT name FROM %s WHERE id = " + (n / 2);
    String range = "SELECT name FROM %s WHERE id BETWEEN " + (n / 3) + " AND " + (2 * n / 3);
    setup.put("pointQuery", point.formatted("t"));
    setup.put("rangeQuery", range.formatted("t"));
    List<Result> results = new ArrayList<>();
    for (Variant v : VARIANTS) {
      for (String t : TABLES) {
        Result res = measure(c, o, v, t, point, range);
        results.add(res);
        printRow(res);
      }
    }
    String findings = findings(results);
    out.println("findings: " + findings);
    List<String> plots = o.plots() == null ? List.of() : plots(results, o);
    return ctx.report(
        "brin",
        SEED,
        "build: wall time of CREATE INDEX, repeated; lookups: server Execution Time of"
            + " EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) after one untimed warm run, repeated;"
            + " sizes: pg_relation_size",
        o,
        setup,
        results,
        findings,
        plots);
  }

  /** One of the seed's tables, sorted or shuffled, with what the result records of it. */
  private Map<String, Object> create(Connection c, String t, long n) throws SQLException {
    String order = t.equals("t_random") ? " ORDER BY random()" : "";
    double ms =
        timed(
            c,
            "CREATE TABLE "
                + PREFIX
                + t
                + " AS SELECT id, md5(id::text) AS name FROM generate_series(1, "
                + n
                + ") id"
                + order);
    // the server's autovacuum may be off: statistics and the visibility map, as a DBA would
    double vac = timed(c, "VACUUM ANALYZE " + PREFIX + t);
    long size = scalarLong(c, "SELECT pg_relation_size('" + PREFIX + t + "')");
    out.printf(
        "created %s%s: %s in %.1f s (VACUUM ANALYZE %.1f s)%n",
        PREFIX, t, bytes(size), ms / 1000, vac / 1000);
    return Map.of(
        "relation", PREFIX + t,
        "createMs", Timings.round(ms),
        "vacuumAnalyzeMs", Timings.round(vac),
        "tableBytes", size,
        "correlation", correlation(c, PREFIX + t));
  }

  /** One index variant on one table: its builds and size, then the two lookups. */
  private static Result measure(
      Connection c, ExperimentOptions o, Variant v, String t, String point, String range)
      throws SQLException {
    String rel = PREFIX + t;
    String idx = null;
    Timings build = null;
    Long size = null;
    if (v.method() != null) {
      idx = rel + "_" + v.name().replaceAll("[()]", "");
      List<Double> builds = new ArrayList<>();
      for (int r = 0; r < o.repeat(); r++) {
        if (r > 0) {
          exec(c, "DROP INDEX " + idx);
        }
        builds.add(timed(c, v.ddl(rel, idx)));
      }
      build = Timings.of(builds);
      size = scalarLong(c, "SELECT pg_relation_size('" + idx + "')");
    }
    QueryResult p = QueryTimer.time(c, point.formatted(rel), rel, o.repeat());
    QueryResult q = QueryTimer.time(c, range.formatted(rel), rel, o.repeat());
    if (idx != null) {
      exec(c, "DROP INDEX " + idx);
    }
    return new Result(v.name(), t, rel, idx, build, size, p, q);
  }

  private static double correlation(Connection c, String table) throws SQLException {
    try (var st = c.createStatement();
        var rs =
            st.executeQuery(
                "SELECT correlation FROM pg_stats WHERE schemaname = current_schema()"
                    + " AND tablename = '"
                    + table
                    + "' AND attname = 'id'")) {
      return rs.next() ? Math.round(rs.getDouble(1) * 1000) / 1000.0 : Double.NaN;
    }
  }

  private boolean headerPrinted;

  private void printRow(Result r) {
    if (!headerPrinted) {
      headerPrinted = true;
      out.printf(
          "%-12s %-9s %22s %10s %22s %-28s %22s %-28s%n",
          "variant",
          "table",
          "build ms med [min-max]",
          "size",
          "point ms med [min-max]",
          "point plan",
          "range ms med [min-max]",
          "range plan");
    }
    out.printf(
        "%-12s %-9s %22s %10s %22s %-28s %22s %-28s%n",
        r.variant(),
        r.table(),
        r.buildMs() == null ? "-" : spread(r.buildMs()),
        r.indexBytes() == null ? "-" : bytes(r.indexBytes()),
        spread(r.point().executionMs()),
        planText(r.point()),
        spread(r.range().executionMs()),
        planText(r.range()));
  }

  static String spread(Timings t) {
    return fmt("%.2f [%.2f-%.2f]", t.medianMs(), t.minMs(), t.maxMs());
  }

  static String planText(QueryResult q) {
    return q.scan() + (q.index() != null ? " " + q.index().replaceFirst("^" + PREFIX, "") : "");
  }

  private static Result find(List<Result> rs, String variant, String table) {
    return rs.stream()
        .filter(r -> r.variant().equals(variant) && r.table().equals(table))
        .findFirst()
        .orElseThrow();
  }

  /** The seed's qualitative findings, checked against this server's numbers. */
  static String findings(List<Result> rs) {
    Ratios q = Ratios.of(rs);
    Result m = find(rs, "brin(128)", "t_mono");
    Result r = find(rs, "brin(128)", "t_random");
    Result nm = find(rs, "none", "t_mono");
    StringBuilder b = new StringBuilder();
    b.append(
        fmt(
            "BRIN(128) is %s of btree's size and builds %s faster; on t_mono its point lookup is %s"
                + " and its range lookup %s than no index (%s than btree; plan %s); on t_random its"
                + " point lookup is %s and its range lookup %s than no index (%s than btree; plan"
                + " %s)",
            q.sizePct() < 0.1 ? fmt("%.3f%%", q.sizePct()) : fmt("%.1f%%", q.sizePct()),
            x(q.buildX()),
            ExperimentSupport.faster(q.monoPointVsNone()),
            ExperimentSupport.faster(q.monoRangeVsNone()),
            ExperimentSupport.faster(1 / q.monoRangeVsBtree()),
            m.range().scan(),
            ExperimentSupport.faster(q.randPointVsNone()),
            ExperimentSupport.faster(q.randRangeVsNone()),
            ExperimentSupport.faster(1 / q.randRangeVsBtree()),
            r.range().scan()));
    List<String> differs = differsFromSeed(q);
    boolean parallel = nm.range().plan().contains("Gather") || nm.point().plan().contains("Gather");
    if (differs.isEmpty()) {
      b.append(": useful only on sorted data, as in the seed");
    } else {
      b.append(": this server differs from the seed: ").append(String.join("; ", differs));
      if (parallel) {
        b.append(
            " (the no-index scans ran as parallel seq scans, which the seed's 9.5 did not have;"
                + " --set max_parallel_workers_per_gather=0 compares like the seed)");
      }
    }
    return b.toString();
  }

  /**
   * The ratios the findings are stated in: BRIN(128) against btree and against no index, on sorted
   * (mono) and shuffled (random) data, each from the medians.
   */
  private record Ratios(
      double sizePct,
      double buildX,
      double monoRangeVsNone,
      double monoPointVsNone,
      double randRangeVsNone,
      double randRangeVsBtree,
      double randPointVsNone,
      double monoRangeVsBtree) {
    static Ratios of(List<Result> rs) {
      Result bm = find(rs, "btree", "t_mono");
      Result br = find(rs, "btree", "t_random");
      Result m = find(rs, "brin(128)", "t_mono");
      Result r = find(rs, "brin(128)", "t_random");
      Result nm = find(rs, "none", "t_mono");
      Result nr = find(rs, "none", "t_random");
      return new Ratios(
          100.0 * (m.indexBytes() + r.indexBytes()) / (bm.indexBytes() + br.indexBytes()),
          (bm.buildMs().medianMs() + br.buildMs().medianMs())
              / (m.buildMs().medianMs() + r.buildMs().medianMs()),
          nm.range().executionMs().medianMs() / m.range().executionMs().medianMs(),
          nm.point().executionMs().medianMs() / m.point().executionMs().medianMs(),
          nr.range().executionMs().medianMs() / r.range().executionMs().medianMs(),
          r.range().executionMs().medianMs() / br.range().executionMs().medianMs(),
          nr.point().executionMs().medianMs() / r.point().executionMs().medianMs(),
          m.range().executionMs().medianMs() / bm.range().executionMs().medianMs());
    }
  }

  /** Where this server's numbers break the seed's claims; empty when they all hold. */
  private static List<String> differsFromSeed(Ratios q) {
    List<String> differs = new ArrayList<>();
    if (q.sizePct() >= 100) {
      differs.add("BRIN is not smaller than btree");
    }
    if (q.buildX() <= 1) {
      differs.add("BRIN does not build faster");
    }
    if (q.monoPointVsNone() < 1.5) {
      differs.add("BRIN does not speed up the point lookup on sorted data");
    }
    if (q.monoRangeVsBtree() > 2) {
      differs.add("on sorted data BRIN's range lookup is not comparable to btree's (seed: it was)");
    }
    if (q.monoRangeVsNone() < 1) {
      differs.add("on sorted data BRIN's range lookup is slower than no index");
    }
    if (q.randRangeVsNone() >= 1.5 || q.randPointVsNone() >= 1.5) {
      differs.add("BRIN speeds up lookups on shuffled data");
    }
    return differs;
  }

  private List<String> plots(List<Result> rs, ExperimentOptions o) {
    Path dir = o.plots();
    List<String> indexed =
        VARIANTS.stream().filter(v -> v.method() != null).map(Variant::name).toList();
    List<String> all = VARIANTS.stream().map(Variant::name).toList();
    String rows = fmt("%,d rows", o.rows());
    String med = "median of " + o.repeat();
    ExperimentSupport.Bars bars = new ExperimentSupport.Bars(dir, "index");
    bars.add(
        "brin-build-time.png",
        "Index build time (" + rows + ", " + med + ")",
        "CREATE INDEX time [ms]",
        indexed,
        series(rs, indexed, r -> r.buildMs().medianMs()),
        false);
    bars.add(
        "brin-index-size.png",
        "Index size (" + rows + ", log scale)",
        "index size [kB]",
        indexed,
        series(rs, indexed, r -> r.indexBytes() / 1024.0),
        true);
    bars.add(
        "brin-point-lookup.png",
        "Point lookup id = N/2 (" + rows + ", " + med + ", log scale)",
        "execution time [ms]",
        all,
        series(rs, all, r -> r.point().executionMs().medianMs()),
        true);
    bars.add(
        "brin-range-lookup.png",
        "Range lookup id BETWEEN N/3 AND 2N/3 (" + rows + ", " + med + ")",
        "execution time [ms]",
        all,
        series(rs, all, r -> r.range().executionMs().medianMs()),
        false);
    return bars.written(out);
  }

  private static Map<String, List<Double>> series(
      List<Result> rs, List<String> variants, ToDoubleFunction<Result> f) {
    Map<String, List<Double>> m = new LinkedHashMap<>();
    for (String t : TABLES) {
      m.put(
          t + (t.equals("t_mono") ? " (sorted)" : " (shuffled)"),
          variants.stream().map(v -> f.applyAsDouble(find(rs, v, t))).toList());
    }
    return m;
  }
}
