package dev.wg1bench.load.ssb;

import dev.wg1bench.BuildInfo;
import dev.wg1bench.plan.Checks;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.server.ConnectionFactory;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadFactory;

/**
 * Creates the Star Schema Benchmark tables (2020 §6.2.1) and streams {@link SsbGenerator} rows
 * straight into COPY, with no intermediate files: the backend of {@code wg1bench init ssb}.
 *
 * <p>Phases, each timed: create (DDL of {@code ssb/schema.sql}, monthly partitions with {@code
 * partitioned}); generate+copy (several connections in parallel, each in one transaction: the
 * dimension tables whole with {@code COPY ... FREEZE} after a TRUNCATE in the same transaction,
 * lineorder cut into order ranges over the connections; all commit only when every stream
 * succeeded, so a failed or interrupted load leaves empty tables); keys ({@code ssb/keys.sql});
 * indexes ({@code ssb/indexes.sql}, 2020 §6.3.3.2.1) when asked; VACUUM ANALYZE. Last it writes
 * {@code ssb_meta}, one row naming the scale factor and variant, so a half-built database is never
 * taken for a loaded one.
 *
 * <p>As {@link dev.wg1bench.load.PgbenchLoader}: it refuses to drop any of the five tables while it
 * holds rows unless forced, and never touches any other table but its own {@code ssb_meta}.
 */
public final class SsbLoader {
  /** The five SSB tables, in dbgen's generation order. */
  public static final List<String> TABLES =
      List.of("part", "supplier", "customer", "date", "lineorder");

  /** One row: what was loaded (scale factor, variant), written after the last phase. */
  public static final String META = "ssb_meta";

  /** lo_orderkey reaches about 6,000,000 x SF: int4 overflows above SF 357. */
  static final double BIGINT_ORDERKEY_SCALE = 300;

  private SsbLoader() {}

  /**
   * What to load.
   *
   * @param scaleFactor SSB scale factor: a fraction below 1 or a whole number
   * @param indexes btree indexes on lineorder's foreign keys (2020 §6.3)
   * @param partitioned lineorder and date range-partitioned by month (2020 §6.5)
   * @param force drop the tables even if they hold rows
   * @param threads connections loading in parallel, &gt;= 1
   */
  public record Options(
      double scaleFactor, boolean indexes, boolean partitioned, boolean force, int threads) {

    /** The variant name recorded in ssb_meta: plain, indexes, partitioned or both. */
    public String variant() {
      if (indexes && partitioned) {
        return "partitioned+indexes";
      }
      return indexes ? "indexes" : partitioned ? "partitioned" : "plain";
    }
  }

  /**
   * What a load did.
   *
   * @param scaleFactor as {@link #scaleKey}
   * @param variant plain, indexes, partitioned or partitioned+indexes
   * @param rows rows loaded per table
   * @param phases wall time of each phase, in order
   */
  public record Report(
      String scaleFactor, String variant, Map<String, Long> rows, Map<String, Duration> phases) {}

  /**
   * A loaded SSB database.
   *
   * @param scaleFactor as {@link #scaleKey}, e.g. "0.01" or "1"
   * @param variant as recorded by the loader, or "unknown" when inferred from row counts
   */
  public record Loaded(String scaleFactor, String variant) {}

  /** Default number of loading connections: the cores, at least 2. */
  public static int defaultThreads() {
    return Math.max(2, Runtime.getRuntime().availableProcessors());
  }

  /** The canonical text of a scale factor: 0.01, 0.1, 1, 10. */
  public static String scaleKey(double sf) {
    return BigDecimal.valueOf(sf).stripTrailingZeros().toPlainString();
  }

  /**
   * Checks a {@code --scale} value: positive, finite, and whole when &gt;= 1 (dbgen's counts use
   * the integer part of SF &gt;= 1, so 1.5 would silently load SF 1).
   */
  public static void checkScale(double sf) {
    Checks.range("--scale", sf, MIN_SCALE, MAX_SCALE);
    if (sf >= 1 && sf != Math.floor(sf)) {
      throw new UsageException(
          "--scale must be a fraction below 1 or a whole number, got " + scaleKey(sf));
    }
  }

  /** The smallest scale factor accepted: 1/10,000 of SF 1 (600 lineorder rows). */
  public static final double MIN_SCALE = 0.0001;

  public static final double MAX_SCALE = 100_000;

  /** Most loading or generating threads (--threads). */
  public static final int MAX_THREADS = 256;

  /** Tables of the five that exist in the connection's search path. */
  public static List<String> existing(Connection c) throws SQLException {
    List<String> out = new ArrayList<>();
    for (String t : TABLES) {
      if (exists(c, t)) {
        out.add(t);
      }
    }
    return out;
  }

  private static boolean exists(Connection c, String table) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT to_regclass('" + table + "') IS NOT NULL")) {
      rs.next();
      return rs.getBoolean(1);
    }
  }

  /**
   * The SSB data in the database: from ssb_meta, else inferred from the supplier row count (2000 x
   * SF); null when lineorder is missing or empty.
   */
  public static Loaded detect(Connection c) throws SQLException {
    if (!existing(c).containsAll(TABLES)) {
      return null;
    }
    try (Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT EXISTS (SELECT 1 FROM lineorder)")) {
        rs.next();
        if (!rs.getBoolean(1)) {
          return null;
        }
      }
      if (exists(c, META)) {
        try (ResultSet rs = st.executeQuery("SELECT scale_factor, variant FROM " + META)) {
          if (rs.next()) {
            return new Loaded(rs.getString(1), rs.getString(2));
          }
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM supplier")) {
        rs.next();
        long suppliers = rs.getLong(1);
        BigDecimal sf = BigDecimal.valueOf(suppliers).divide(BigDecimal.valueOf(2000));
        return new Loaded(sf.stripTrailingZeros().toPlainString(), "unknown");
      }
    }
  }

  /**
   * Creates and loads the SSB tables. Throws {@link UsageException} before changing anything when
   * one of the five tables holds rows and {@code force} is off; {@link RunFailure} saying what is
   * left when a phase fails.
   */
  public static Report load(ConnectionFactory cf, Options o, PrintStream log) {
    checkScale(o.scaleFactor());
    Checks.range("--threads", o.threads(), 1, MAX_THREADS);
    String sf = scaleKey(o.scaleFactor());
    Map<String, Duration> phases = new LinkedHashMap<>();
    try (Connection c = cf.openPlain()) {
      c.setAutoCommit(true);
      refuseToReplaceRows(c, o.force());
      long t0 = System.nanoTime();
      say(log, "creating SSB tables (" + o.variant() + ")...");
      SsbSchema.create(c, o);
      phases.put("create", since(t0));

      SsbGenerator g = new SsbGenerator(o.scaleFactor(), false);
      t0 = System.nanoTime();
      Map<String, Long> rows;
      try {
        rows = SsbCopy.copyAll(cf, g, o, log);
      } catch (RuntimeException | SQLException e) {
        throw afterCopyFailure(c, sf, e);
      }
      phases.put("generate+copy", since(t0));
      say(
          log,
          String.format(Locale.ROOT, "generate+copy: %.2f s", seconds(phases, "generate+copy")));

      addKeysAndStatistics(cf, c, o, sf, rows, phases, log);
      printSummary(log, phases, sf, o, rows);
      return new Report(
          sf, o.variant(), Collections.unmodifiableMap(rows), Collections.unmodifiableMap(phases));
    } catch (SQLException e) {
      throw cf.failure("init ssb", e);
    }
  }

  /**
   * The phases after the copy, each timed: keys, indexes if asked, statistics, then ssb_meta last,
   * so a table set without it is known to be incomplete. A failure names the phase and what is
   * left.
   */
  private static void addKeysAndStatistics(
      ConnectionFactory cf,
      Connection c,
      Options o,
      String sf,
      Map<String, Long> rows,
      Map<String, Duration> phases,
      PrintStream log) {
    String phase = "keys";
    try {
      long t0 = System.nanoTime();
      say(log, "adding primary keys...");
      SsbSchema.runParallel(cf, SsbSchema.keyStatements(o.partitioned()), o.threads());
      phases.put("keys", since(t0));
      if (o.indexes()) {
        phase = "indexes";
        t0 = System.nanoTime();
        say(log, "creating indexes on lineorder's foreign keys...");
        SsbSchema.runParallel(cf, SsbSchema.statements("ssb/indexes.sql"), o.threads());
        phases.put("indexes", since(t0));
      }
      phase = "analyze";
      t0 = System.nanoTime();
      say(log, "vacuum analyze...");
      List<String> analyze = new ArrayList<>();
      for (String t : List.of("lineorder", "part", "customer", "supplier", "date")) {
        analyze.add("VACUUM ANALYZE " + t);
      }
      SsbSchema.runParallel(cf, analyze, o.threads());
      phases.put("analyze", since(t0));
      phase = "ssb_meta";
      writeMeta(c, sf, o.variant(), rows);
    } catch (SQLException | RuntimeException e) {
      throw new RunFailure(
          "init ssb failed while adding "
              + phase
              + ": "
              + ConnectionFactory.oneLine(e)
              + "; the five SSB tables hold all the data but not all keys, indexes or statistics"
              + " (ssb_meta is not written); re-run init ssb --scale "
              + sf
              + " --force to rebuild",
          e);
    }
  }

  /** Each phase's time, then one line of what was loaded. */
  private static void printSummary(
      PrintStream log, Map<String, Duration> phases, String sf, Options o, Map<String, Long> rows) {
    for (Map.Entry<String, Duration> p : phases.entrySet()) {
      say(
          log,
          String.format(Locale.ROOT, "  %-14s %8.2f s", p.getKey(), p.getValue().toNanos() / 1e9));
    }
    say(
        log,
        String.format(
            Locale.ROOT,
            "done: SSB SF %s (%s), %d lineorder rows, %d connections.",
            sf,
            o.variant(),
            rows.get("lineorder"),
            o.threads()));
  }

  private static double seconds(Map<String, Duration> phases, String p) {
    return phases.get(p).toNanos() / 1e9;
  }

  private static Duration since(long t0) {
    return Duration.ofNanos(System.nanoTime() - t0);
  }

  private static void refuseToReplaceRows(Connection c, boolean force) throws SQLException {
    if (force) {
      return;
    }
    try (Statement st = c.createStatement()) {
      for (String t : existing(c)) {
        try (ResultSet rs = st.executeQuery("SELECT EXISTS (SELECT 1 FROM " + t + ")")) {
          rs.next();
          if (rs.getBoolean(1)) {
            throw new UsageException(
                "init ssb: table "
                    + t
                    + " already holds rows; add --force to drop and re-create the five SSB tables"
                    + " (no other table is touched)");
          }
        }
      }
    }
  }

  /** After a failed copy phase: empty the tables (the streams rolled back) and say so. */
  private static RunFailure afterCopyFailure(Connection c, String sf, Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && !(cause instanceof SQLException)) {
      cause = cause.getCause();
    }
    String why = ConnectionFactory.oneLine(cause);
    try (Statement st = c.createStatement()) {
      st.execute("TRUNCATE " + String.join(", ", TABLES));
      return new RunFailure(
          "init ssb failed while loading (generate+copy): "
              + why
              + "; it was rolled back to the five SSB tables created empty (no other table"
              + " touched); re-run init ssb --scale "
              + sf,
          e);
    } catch (SQLException again) {
      return new RunFailure(
          "init ssb failed while loading (generate+copy): "
              + why
              + "; the five SSB tables may hold part of the data; re-run init ssb --scale "
              + sf
              + " --force to replace them",
          e);
    }
  }

  // ------------------------------------------------------------------ keys, indexes, analyze

  private static void writeMeta(Connection c, String sf, String variant, Map<String, Long> rows)
      throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE "
              + META
              + " (scale_factor text NOT NULL, variant text NOT NULL, date_rows int NOT NULL,"
              + " lineorder_rows bigint NOT NULL, generator text NOT NULL,"
              + " loaded_at timestamptz NOT NULL DEFAULT now())");
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO "
                + META
                + " (scale_factor, variant, date_rows, lineorder_rows, generator)"
                + " VALUES (?, ?, ?, ?, ?)")) {
      ps.setString(1, sf);
      ps.setString(2, variant);
      ps.setInt(3, rows.get("date").intValue());
      ps.setLong(4, rows.get("lineorder"));
      ps.setString(5, "wg1bench " + BuildInfo.version() + " SsbGenerator (full date table)");
      ps.executeUpdate();
    }
  }

  static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  private static void say(PrintStream log, String s) {
    if (log != null) {
      log.println(s);
    }
  }
}
