package dev.wg1bench.history.store;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.wg1bench.BuildInfo;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.TargetSpec;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A history a team shares: the schema {@code wg1bench_history} of a PostgreSQL database, created on
 * first use and migrated by version. Each run and its metrics are appended in one transaction, so a
 * reader sees a run whole or not at all, and writers in any number never wait for each other (ids
 * are made by the writer from the run; only a first use or a migration takes a lock, and two
 * writers of the same run, which the primary key stores once).
 */
final class PostgresStore implements HistoryStore {
  static final String SCHEMA = "wg1bench_history";

  /**
   * The migrations, in order: the schema at version N is what the first N of them build. Never edit
   * one that shipped; add the next. A history at a version above their count was made by a newer
   * wg1bench, and this one neither reads nor writes it.
   */
  static final List<List<String>> MIGRATIONS =
      List.of(
          List.of(
              "CREATE TABLE "
                  + SCHEMA
                  + ".run (id text PRIMARY KEY, time timestamptz NOT NULL, kind text NOT NULL,"
                  + " attributes jsonb NOT NULL, stored_at timestamptz NOT NULL DEFAULT now())",
              "CREATE TABLE "
                  + SCHEMA
                  + ".metric (run_id text NOT NULL REFERENCES "
                  + SCHEMA
                  + ".run (id), config text NOT NULL, metric text NOT NULL, higher_is_better"
                  + " boolean NOT NULL, value double precision NOT NULL, low double precision,"
                  + " high double precision, PRIMARY KEY (run_id, config, metric))",
              "CREATE INDEX ON " + SCHEMA + ".run (time, id)",
              "CREATE INDEX ON " + SCHEMA + ".metric (config, metric)"));

  /** The schema version this wg1bench writes. */
  static final int VERSION = MIGRATIONS.size();

  /** The advisory lock that serializes first uses and migrations between writers. */
  private static final long MIGRATION_LOCK = 0x7767316268697374L; // "wg1bhist"

  private final String url;
  private final Connection conn;
  private final int migrated;

  private PostgresStore(String url, Connection conn, int migrated) {
    this.url = url;
    this.conn = conn;
    this.migrated = migrated;
  }

  /**
   * Connects, and creates or migrates the schema when it is older than this wg1bench's.
   *
   * @throws NewerFormatException when the schema is newer than this wg1bench's (nothing written)
   * @throws IOException when the database cannot be reached or the schema made
   */
  static PostgresStore open(String url) throws IOException {
    Properties p = new Properties();
    // an unreachable history fails in seconds, not after the OS's TCP timeout; the URL's own
    // settings win over these
    p.setProperty("connectTimeout", "10");
    p.setProperty("ApplicationName", "wg1bench history");
    Connection c;
    try {
      c = DriverManager.getConnection(url, p);
    } catch (SQLException e) {
      throw new IOException("cannot connect: " + oneLine(e), e);
    }
    try {
      int applied = migrate(c);
      return new PostgresStore(url, c, applied);
    } catch (IOException | RuntimeException e) {
      closeQuietly(c);
      throw e;
    } catch (SQLException e) {
      closeQuietly(c);
      throw new IOException("cannot create or read the schema " + SCHEMA + ": " + oneLine(e), e);
    }
  }

  /** Brings the schema to {@link #VERSION}; returns how many migrations it applied. */
  private static int migrate(Connection c) throws SQLException, IOException {
    c.setAutoCommit(false);
    // read before writing: a current schema needs no lock, a newer one is left untouched
    int found = version(c);
    c.commit();
    refuseNewer(found);
    if (found == VERSION) {
      return 0;
    }
    try (Statement st = c.createStatement()) {
      st.execute("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK + ")");
      st.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
      st.execute(
          "CREATE TABLE IF NOT EXISTS "
              + SCHEMA
              + ".schema_version (version int PRIMARY KEY, applied_at timestamptz NOT NULL"
              + " DEFAULT now(), tool_version text)");
      // another writer may have migrated while this one waited for the lock
      int now = version(c);
      refuseNewer(now);
      for (int v = now + 1; v <= VERSION; v++) {
        for (String sql : MIGRATIONS.get(v - 1)) {
          st.execute(sql);
        }
        try (PreparedStatement ins =
            c.prepareStatement(
                "INSERT INTO "
                    + SCHEMA
                    + ".schema_version (version, tool_version) VALUES (?, ?)")) {
          ins.setInt(1, v);
          ins.setString(2, BuildInfo.version());
          ins.executeUpdate();
        }
      }
      c.commit();
      return VERSION - now;
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    }
  }

  private static void refuseNewer(int found) throws NewerFormatException {
    if (found > VERSION) {
      throw new NewerFormatException(
          "schema "
              + SCHEMA
              + " is at version "
              + found
              + ", newer than this wg1bench knows ("
              + VERSION
              + "): use the wg1bench that made it, or a newer one");
    }
  }

  /** The schema's version, 0 when there is no schema yet. */
  private static int version(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT to_regclass('" + SCHEMA + ".schema_version') IS NOT NULL")) {
      rs.next();
      if (!rs.getBoolean(1)) {
        return 0;
      }
    }
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT coalesce(max(version), 0) FROM " + SCHEMA + ".schema_version")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** How many migrations opening this store applied (0 when the schema was current). */
  int migrationsApplied() {
    return migrated;
  }

  @Override
  public synchronized Appended append(StoredRun run) throws IOException {
    StoredRun stored =
        new StoredRun(
            RunIds.of(run), micros(run.time()), run.kind(), run.attributes(), run.metrics());
    try {
      return new Appended(stored, !insert(stored));
    } catch (SQLException e) {
      rollbackQuietly();
      throw new IOException("cannot store the run: " + oneLine(e), e);
    }
  }

  /** The time as the column keeps it: to the microsecond. */
  private static Instant micros(Instant t) {
    return t.truncatedTo(ChronoUnit.MICROS);
  }

  /**
   * Inserts a run and its figures in one transaction; false when its id is stored already (the
   * primary key: a writer inserting the same run at the same moment waits for the first one's
   * commit, then inserts nothing).
   */
  private boolean insert(StoredRun r) throws SQLException, IOException {
    try (PreparedStatement run =
            conn.prepareStatement(
                "INSERT INTO "
                    + SCHEMA
                    + ".run (id, time, kind, attributes) VALUES (?, ?, ?, ?::jsonb)"
                    + " ON CONFLICT (id) DO NOTHING");
        PreparedStatement metric =
            conn.prepareStatement(
                "INSERT INTO "
                    + SCHEMA
                    + ".metric (run_id, config, metric, higher_is_better, value, low, high)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      run.setString(1, r.id());
      run.setTimestamp(2, Timestamp.from(r.time()));
      run.setString(3, r.kind());
      run.setString(4, Json.MAPPER.writeValueAsString(new TreeMap<>(r.attributes())));
      if (run.executeUpdate() == 0) {
        conn.rollback();
        return false;
      }
      for (StoredMetric m : r.metrics()) {
        metric.setString(1, r.id());
        metric.setString(2, m.config());
        metric.setString(3, m.metric());
        metric.setBoolean(4, m.higherIsBetter());
        metric.setDouble(5, m.value());
        setNullable(metric, 6, m.low());
        setNullable(metric, 7, m.high());
        metric.addBatch();
      }
      metric.executeBatch();
      conn.commit();
      return true;
    }
  }

  private static void setNullable(PreparedStatement ps, int i, double v) throws SQLException {
    if (Double.isNaN(v)) {
      ps.setNull(i, Types.DOUBLE);
    } else {
      ps.setDouble(i, v);
    }
  }

  @Override
  public synchronized List<StoredRun> runs() throws IOException {
    try {
      Map<String, List<StoredMetric>> metrics = new LinkedHashMap<>();
      try (Statement st = conn.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT run_id, config, metric, higher_is_better, value, low, high FROM "
                      + SCHEMA
                      + ".metric ORDER BY run_id, config, metric")) {
        while (rs.next()) {
          metrics
              .computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
              .add(
                  new StoredMetric(
                      rs.getString(2),
                      rs.getString(3),
                      rs.getBoolean(4),
                      rs.getDouble(5),
                      nullable(rs, 6),
                      nullable(rs, 7)));
        }
      }
      List<StoredRun> out = new ArrayList<>();
      try (Statement st = conn.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT id, time, kind, attributes::text FROM "
                      + SCHEMA
                      + ".run ORDER BY time, id")) {
        while (rs.next()) {
          String id = rs.getString(1);
          Map<String, String> attrs =
              Json.MAPPER.readValue(rs.getString(4), new TypeReference<Map<String, String>>() {});
          out.add(
              new StoredRun(
                  id,
                  rs.getTimestamp(2).toInstant(),
                  rs.getString(3),
                  attrs,
                  metrics.getOrDefault(id, List.of())));
        }
      }
      conn.commit();
      // a run stored more than once by a wg1bench before ids were made from the run: read once
      return RunIds.once(out);
    } catch (SQLException e) {
      rollbackQuietly();
      throw new IOException("cannot read the runs: " + oneLine(e), e);
    }
  }

  private static double nullable(ResultSet rs, int i) throws SQLException {
    double v = rs.getDouble(i);
    return rs.wasNull() ? Double.NaN : v;
  }

  @Override
  public List<Series> series(String glob) throws IOException {
    return SeriesOf.of(runs(), glob);
  }

  @Override
  public String describe() {
    return TargetSpec.redact(url) + " (schema " + SCHEMA + ")";
  }

  @Override
  public synchronized void close() {
    closeQuietly(conn);
  }

  private void rollbackQuietly() {
    try {
      conn.rollback();
    } catch (SQLException ignored) {
      // the connection is gone: the transaction is rolled back with it
    }
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException ignored) {
      // closing a broken connection: nothing left to release
    }
  }

  /** An SQL error as one line, without the URL's password. */
  private static String oneLine(SQLException e) {
    String m = e.getMessage() == null ? e.toString() : e.getMessage();
    return TargetSpec.redact(m.lines().findFirst().orElse(""));
  }
}
