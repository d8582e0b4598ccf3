package dev.wg1bench.experiment;

import dev.wg1bench.json.OutputFile;
import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.plot.Charts;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.server.Targets;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the experiments share: connections with the run's session settings, the safety rule for
 * their own tables (a name prefix; tables holding rows are only dropped with --force), and the
 * JSON.
 */
final class ExperimentSupport {
  /** Settings recorded with every experiment besides the --set ones. */
  static final List<String> RECORDED_SETTINGS =
      List.of(
          "enable_seqscan",
          "enable_bitmapscan",
          "enable_indexscan",
          "random_page_cost",
          "effective_cache_size",
          "work_mem",
          "maintenance_work_mem",
          "max_parallel_workers_per_gather",
          "max_parallel_maintenance_workers",
          "jit",
          "autovacuum");

  private ExperimentSupport() {}

  /** What an experiment's body gets: its connection and factory, the server, the session. */
  record Context(
      ConnectionFactory cf,
      Connection c,
      ServerInfo info,
      Map<String, String> session,
      Instant started) {

    /** The experiment's report: what it measured, with this server, session and start. */
    ExperimentReport report(
        String experiment,
        String seed,
        String method,
        ExperimentOptions o,
        Map<String, Object> setup,
        List<?> results,
        String findings,
        List<String> plots) {
      return ExperimentReport.of(
          experiment, seed, method, o, session, info, started, setup, results, findings, plots);
    }
  }

  /** An experiment's measurements, run inside {@link #run}. */
  interface Body {
    ExperimentReport measure(Context ctx) throws SQLException;
  }

  /**
   * What every experiment does around its measurements: connect, record the server and session,
   * claim its table prefix (refusing tables holding rows without --force), then write the JSON,
   * name the experiment in a failure, and drop its tables unless --keep.
   */
  static ExperimentReport run(
      String name, String prefix, ExperimentOptions o, PrintStream out, Body body) {
    ConnectionFactory cf = factory(o);
    Instant started = Instant.now();
    boolean created = false;
    try (Connection c = open(cf)) {
      ServerInfo info = ServerInfo.read(c);
      Map<String, String> session = sessionSettings(c, o);
      clearOwnTables(c, "experiment " + name, prefix, o.force());
      created = true;
      ExperimentReport report = body.measure(new Context(cf, c, info, session, started));
      out.println("result written to " + writeJson(report, o.output()));
      return report;
    } catch (SQLException e) {
      throw cf.failure("experiment " + name, e);
    } finally {
      if (created) {
        cleanup(cf, prefix, o.keep(), out);
      }
    }
  }

  /** An experiment's bar charts over one category axis, written into one directory in order. */
  static final class Bars {
    private final Path dir;
    private final String xTitle;
    private final List<String> files = new ArrayList<>();

    Bars(Path dir, String xTitle) {
      this.dir = dir;
      this.xTitle = xTitle;
    }

    void add(
        String file,
        String title,
        String yTitle,
        List<String> categories,
        Map<String, List<Double>> series,
        boolean log) {
      files.add(Charts.bars(dir, file, title, xTitle, yTitle, categories, series, log).toString());
    }

    /** Says where the plots went; their files, in the order drawn. */
    List<String> written(PrintStream out) {
      out.println("plots written to " + dir);
      return files;
    }
  }

  static ConnectionFactory factory(ExperimentOptions o) {
    return Targets.of(o.target())
        .clients(new ClientSettings(QueryMode.SIMPLE, null, o.settings(), DriverKnobs.defaults()));
  }

  /** An autocommit connection with the --set settings; one the server rejects is a usage error. */
  static Connection open(ConnectionFactory cf) throws SQLException {
    return cf.openClientCheckingSettings();
  }

  static Map<String, String> sessionSettings(Connection c, ExperimentOptions o)
      throws SQLException {
    Set<String> names = new LinkedHashSet<>(RECORDED_SETTINGS);
    names.addAll(o.settings().keySet());
    return ServerInfo.current(c, names);
  }

  /** Tables (plain and partitioned parents) in the current schema whose name has the prefix. */
  static List<String> ownTables(Connection c, String prefix) throws SQLException {
    List<String> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT relname FROM pg_class WHERE relnamespace = current_schema()::regnamespace"
                + " AND relkind IN ('r', 'p') AND NOT relispartition"
                + " AND starts_with(relname, ?) ORDER BY relkind DESC, relname")) {
      ps.setString(1, prefix);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }

  /**
   * Before an experiment: its leftover tables are dropped, but one holding rows only with --force
   * (UsageException otherwise, before anything changed). No other table is touched.
   */
  static void clearOwnTables(Connection c, String command, String prefix, boolean force)
      throws SQLException {
    List<String> tables = ownTables(c, prefix);
    if (!force) {
      try (Statement st = c.createStatement()) {
        for (String t : tables) {
          try (ResultSet rs = st.executeQuery("SELECT EXISTS (SELECT 1 FROM " + quote(t) + ")")) {
            rs.next();
            if (rs.getBoolean(1)) {
              throw new UsageException(
                  command
                      + ": table "
                      + t
                      + " already holds rows; add --force to drop and re-create the "
                      + prefix
                      + "* tables (no other table is touched)");
            }
          }
        }
      }
    }
    dropOwnTables(c, prefix);
  }

  /** Drops every table with the prefix (partitioned parents take their partitions along). */
  static void dropOwnTables(Connection c, String prefix) throws SQLException {
    try (Statement st = c.createStatement()) {
      for (String t : ownTables(c, prefix)) {
        st.execute("DROP TABLE IF EXISTS " + quote(t));
      }
    }
  }

  /** Cleanup at the end, which must not hide the experiment's own failure. */
  static void cleanup(ConnectionFactory cf, String prefix, boolean keep, PrintStream out) {
    if (keep) {
      out.println("kept the " + prefix + "* tables (--keep)");
      return;
    }
    try (Connection c = cf.openPlain()) {
      dropOwnTables(c, prefix);
    } catch (SQLException e) {
      out.println("warning: could not drop the " + prefix + "* tables: " + e.getMessage());
    }
  }

  static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  static long scalarLong(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  static void exec(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  /** Runs a statement and returns its elapsed milliseconds. */
  static double timed(Connection c, String sql) throws SQLException {
    long t0 = System.nanoTime();
    exec(c, sql);
    return Timings.msSince(t0);
  }

  static OutputFile.Written writeJson(ExperimentReport report, Path file) {
    try {
      return JsonReport.writeValue(report, file);
    } catch (UncheckedIOException e) {
      throw new RunFailure(e.getMessage(), e);
    }
  }

  static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  /** A ratio for a findings line: "12x", or "0.8x". */
  static String x(double ratio) {
    return ratio >= 10 ? fmt("%.0fx", ratio) : fmt("%.1fx", ratio);
  }

  /** "3.1x faster" for a ratio old/new above 1, "2.0x slower" below. */
  static String faster(double ratio) {
    return ratio >= 1 ? x(ratio) + " faster" : x(1 / ratio) + " slower";
  }

  static String bytes(long b) {
    if (b < 10 * 1024) {
      return b + " B";
    }
    if (b < 10L * 1024 * 1024) {
      return fmt("%.0f kB", b / 1024.0);
    }
    return fmt("%.1f MB", b / 1024.0 / 1024.0);
  }
}
