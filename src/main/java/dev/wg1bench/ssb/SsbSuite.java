package dev.wg1bench.ssb;

import dev.wg1bench.BuildInfo;
import dev.wg1bench.json.Json;
import dev.wg1bench.json.OutputFile;
import dev.wg1bench.load.ssb.SsbLoader;
import dev.wg1bench.plan.Checks;
import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.result.Machine;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.server.Target;
import dev.wg1bench.server.Targets;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The Star Schema Benchmark commands as a Java API (what {@code wg1bench init ssb}, {@code ssb
 * verify} and {@code ssb queries} call): load, verify results against shipped digests, and time
 * each query on one connection as the 2020 report did (§6.3, §6.5: median of several runs).
 */
public final class SsbSuite {
  /** Settings printed and recorded with every query report, besides the --set ones. */
  static final List<String> SHOWN_SETTINGS =
      List.of("max_parallel_workers_per_gather", "work_mem", "jit");

  private final PrintStream out;

  public SsbSuite(PrintStream out) {
    this.out = out;
  }

  /** {@code init ssb}: create and load the SSB tables on each target. */
  public List<SsbLoader.Report> init(List<TargetSpec> targets, SsbLoader.Options options) {
    SsbLoader.checkScale(options.scaleFactor());
    List<SsbLoader.Report> reports = new ArrayList<>();
    for (TargetSpec t : targets) {
      ConnectionFactory cf = external(t, "init ssb", Map.of());
      try (Connection c = cf.openPlain()) {
        out.printf("target %s: PostgreSQL %s%n", t.name(), ServerInfo.read(c).version());
      } catch (SQLException e) {
        throw cf.failure("init ssb", e);
      }
      reports.add(SsbLoader.load(cf, options, out));
    }
    return reports;
  }

  /**
   * One query's verification.
   *
   * @param query e.g. "q1.1"
   * @param status same, DIFFERENT or no-reference
   * @param actual digest of this server's result
   * @param expected the shipped reference, null when there is none for the scale factor
   */
  public record Check(String query, String status, SsbDigest actual, SsbDigest expected) {}

  /**
   * The outcome of {@code ssb verify}.
   *
   * @param scaleFactor of the loaded data
   * @param checks one per query
   */
  public record Verification(String scaleFactor, String variant, List<Check> checks) {
    /** True when every query has a reference and matches it. */
    public boolean allSame() {
      return checks.stream().allMatch(c -> c.status().equals("same"));
    }

    public boolean anyDifferent() {
      return checks.stream().anyMatch(c -> c.status().equals("DIFFERENT"));
    }
  }

  /** {@code ssb verify}: run the 13 queries and compare their digests with the shipped ones. */
  public Verification verify(TargetSpec target, Map<String, String> settings) {
    ConnectionFactory cf = external(target, "ssb verify", settings);
    try (Connection c = open(cf)) {
      SsbLoader.Loaded loaded = requireLoaded(c, target);
      out.printf(
          "target %s: SSB SF %s (%s), settings %s%n",
          target.name(),
          loaded.scaleFactor(),
          loaded.variant(),
          ServerInfo.current(c, shown(settings)));
      List<Check> checks = new ArrayList<>();
      for (SsbQuery q : SsbQuery.all()) {
        SsbDigest actual = digest(c, q);
        SsbDigest expected = SsbDigest.reference(loaded.scaleFactor(), q.name());
        String status;
        if (expected == null) {
          status = "no-reference";
          out.printf(
              "%-5s no reference digest for SF %s (%d rows, %s)%n",
              q.name(), loaded.scaleFactor(), actual.rows(), actual.sha256());
        } else if (expected.equals(actual)) {
          status = "same";
          out.printf("%-5s same (%d rows)%n", q.name(), actual.rows());
        } else {
          status = "DIFFERENT";
          out.printf(
              "%-5s DIFFERENT: %d rows, expected %d rows (digest %s, expected %s)%n",
              q.name(), actual.rows(), expected.rows(), actual.sha256(), expected.sha256());
        }
        checks.add(new Check(q.name(), status, actual, expected));
      }
      Verification v =
          new Verification(loaded.scaleFactor(), loaded.variant(), List.copyOf(checks));
      if (v.allSame()) {
        out.println("all 13 queries return the reference results");
      } else if (v.anyDifferent()) {
        out.println("some queries return different results");
      } else {
        out.printf(
            "not verified: no reference digests for SF %s (references ship for SF %s)%n",
            loaded.scaleFactor(),
            SsbDigest.referenceScales().isEmpty()
                ? "none"
                : String.join(", ", SsbDigest.referenceScales()));
      }
      return v;
    } catch (SQLException e) {
      throw cf.failure("ssb verify", e);
    }
  }

  /**
   * The digests of the 13 queries on a connection, in order (for tests and for making references).
   */
  public static Map<String, SsbDigest> digests(Connection c) throws SQLException {
    Map<String, SsbDigest> out = new LinkedHashMap<>();
    for (SsbQuery q : SsbQuery.all()) {
      out.put(q.name(), digest(c, q));
    }
    return out;
  }

  static SsbDigest digest(Connection c, SsbQuery q) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(q.sql())) {
      return SsbDigest.of(q, rs);
    }
  }

  /**
   * One query's timings.
   *
   * @param query e.g. "q2.1"
   * @param rows rows returned
   * @param medianMs median of the timed runs
   * @param timesMs every timed run, in order
   * @param digest result digest of the warm run; reference: same, DIFFERENT or none
   */
  public record QueryTiming(
      String query,
      long rows,
      double medianMs,
      double minMs,
      double maxMs,
      List<Double> timesMs,
      String digest,
      String reference) {}

  /** The JSON of {@code ssb queries}. */
  public record QueriesRun(
      String tool,
      String version,
      String target,
      String url,
      String scaleFactor,
      String variant,
      int repeat,
      Map<String, String> sessionSettings,
      Map<String, String> effectiveSettings,
      ServerInfo server,
      Machine machine,
      Instant startedAt,
      Instant finishedAt,
      List<QueryTiming> queries) {}

  /**
   * {@code ssb queries}: each query once untimed, then {@code repeat} times timed (execution and
   * fetching every row), on one connection; prints a table and writes the JSON to output.
   */
  public QueriesRun queries(
      TargetSpec target, int repeat, Map<String, String> settings, Path output) {
    Checks.range("--repeat", repeat, 1, Matrix.MAX_REPEAT);
    ConnectionFactory cf = external(target, "ssb queries", settings);
    Instant started = Instant.now();
    try (Connection c = open(cf)) {
      SsbLoader.Loaded loaded = requireLoaded(c, target);
      ServerInfo info = ServerInfo.read(c);
      Map<String, String> effective = ServerInfo.current(c, shown(settings));
      out.printf(
          "target %s: PostgreSQL %s, SSB SF %s (%s)%n",
          target.name(), info.version(), loaded.scaleFactor(), loaded.variant());
      out.printf("settings: %s; %d timed runs per query after one warm run%n", effective, repeat);
      out.printf(
          "%-6s %10s %10s %10s %8s  %s%n",
          "query", "median ms", "min ms", "max ms", "rows", "result");
      List<QueryTiming> timings = new ArrayList<>();
      for (SsbQuery q : SsbQuery.all()) {
        QueryTiming qt = time(c, q, repeat, loaded.scaleFactor());
        timings.add(qt);
        out.printf(
            Locale.ROOT,
            "%-6s %10.2f %10.2f %10.2f %8d  %s%n",
            q.name(),
            qt.medianMs(),
            qt.minMs(),
            qt.maxMs(),
            qt.rows(),
            qt.reference().equals("none") ? "no reference digest" : qt.reference());
      }
      QueriesRun run =
          new QueriesRun(
              "wg1bench",
              BuildInfo.version(),
              target.name(),
              target.jdbcUrl(),
              loaded.scaleFactor(),
              loaded.variant(),
              repeat,
              Map.copyOf(new LinkedHashMap<>(settings)),
              effective,
              info,
              Machine.current(),
              started,
              Instant.now(),
              List.copyOf(timings));
      out.println("result written to " + writeJson(run, output));
      return run;
    } catch (SQLException e) {
      throw cf.failure("ssb queries", e);
    }
  }

  /**
   * One query: a warm run whose result digest is checked against the shipped one, then {@code
   * repeat} timed runs, each executing the query and fetching every row.
   */
  private static QueryTiming time(Connection c, SsbQuery q, int repeat, String scaleFactor)
      throws SQLException {
    SsbDigest warm = digest(c, q);
    List<Double> times = new ArrayList<>();
    long rows = 0;
    for (int i = 0; i < repeat; i++) {
      long t0 = System.nanoTime();
      rows = 0;
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery(q.sql())) {
        while (rs.next()) {
          rows++;
        }
      }
      times.add((System.nanoTime() - t0) / 1e6);
    }
    SsbDigest ref = SsbDigest.reference(scaleFactor, q.name());
    String match = ref == null ? "none" : ref.equals(warm) ? "same" : "DIFFERENT";
    List<Double> sorted = new ArrayList<>(times);
    sorted.sort(null);
    int m = sorted.size();
    double median =
        m % 2 == 1 ? sorted.get(m / 2) : (sorted.get(m / 2 - 1) + sorted.get(m / 2)) / 2;
    return new QueryTiming(
        q.name(),
        rows,
        round(median),
        round(sorted.get(0)),
        round(sorted.get(m - 1)),
        times.stream().map(SsbSuite::round).toList(),
        warm.sha256(),
        match);
  }

  private static double round(double ms) {
    return Math.round(ms * 1000) / 1000.0;
  }

  private static Set<String> shown(Map<String, String> settings) {
    Set<String> names = new LinkedHashSet<>(SHOWN_SETTINGS);
    names.addAll(settings.keySet());
    return names;
  }

  /** Only external targets: the embedded server has no SSB tables. */
  private static ConnectionFactory external(
      TargetSpec t, String command, Map<String, String> settings) {
    Target target = Targets.of(t);
    if (target.fresh()) {
      throw new UsageException(
          command
              + " --target embedded: the embedded server is created fresh for every run; give an"
              + " external --target URL");
    }
    return target.clients(
        new ClientSettings(QueryMode.SIMPLE, null, Map.copyOf(settings), DriverKnobs.defaults()));
  }

  /** A client connection with the --set settings; one the server rejects is a usage error. */
  private static Connection open(ConnectionFactory cf) throws SQLException {
    Connection plain = cf.openPlain();
    plain.close();
    return cf.openClientCheckingSettings();
  }

  private static SsbLoader.Loaded requireLoaded(Connection c, TargetSpec target)
      throws SQLException {
    SsbLoader.Loaded loaded = SsbLoader.detect(c);
    if (loaded == null) {
      throw new RunFailure(
          "target "
              + target.name()
              + ": the SSB tables are missing or empty; load them first with: java -jar"
              + " target/wg1bench.jar init ssb --scale 1 --target URL");
    }
    return loaded;
  }

  private static OutputFile.Written writeJson(Object value, Path file) {
    try {
      return Json.write(value, file);
    } catch (UncheckedIOException e) {
      throw new RunFailure(e.getMessage(), e);
    }
  }
}
