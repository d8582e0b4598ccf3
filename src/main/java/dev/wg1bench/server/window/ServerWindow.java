package dev.wg1bench.server.window;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The server's side of a measured window: {@link #start} at the window's start (after warm-up and
 * set-up), {@link #finish} at its end, and what the server did in between comes back as a {@link
 * ServerSide}: pg_stat_statements' statements, the clients' sessions' waits sampled from
 * pg_stat_activity every {@link #DEFAULT_SAMPLE_INTERVAL} (and pg_wait_sampling's profile where
 * that extension is loaded), and the database's, WAL's and I/O's counters.
 *
 * <p>Nothing here can fail a run: a source the server does not have, or this role may not read,
 * comes back as null figures and the one line why; an error on the way is such a line too. The
 * window's own statements carry {@link #MARKER} and are kept out of the statements, and where the
 * role may (a superuser) its sessions are not tracked by pg_stat_statements at all.
 *
 * <p>Two connections of its own (the ends' snapshots, and the sampler), from {@code opener}: an
 * application's own pool lends them for the window.
 */
public final class ServerWindow implements AutoCloseable {
  /** In every statement the window sends, so pg_stat_statements' entries of them are known. */
  public static final String MARKER_TEXT = "wg1bench:server-window";

  public static final String MARKER = "/* " + MARKER_TEXT + " */";

  /**
   * pg_stat_activity sampled every 10 ms: 100 samples a second of each client's state, so a state
   * that takes 1% of the clients' time is seen a few times a second; its cost on the server is in
   * bench/results/2026-12-05-server-window-cost.md.
   */
  public static final Duration DEFAULT_SAMPLE_INTERVAL = Duration.ofMillis(10);

  private final Callable<Connection> opener;
  private final Callable<Connection> samplerOpener;
  private final int[] pids;
  private final Duration every;

  /** Whether the window's connection goes through a pooler (no SET sent on it). */
  private final boolean pooled;

  /** Why the clients' sessions cannot be told apart behind the pooler in front, or null. */
  private final String poolerWhy;

  /** Where the sampled pids came from, where that is not the clients' own connections, or null. */
  private final String pidsNote;

  private Connection c;
  private String connectionWhy;
  private StatementStats statements;
  private String statementsWhy;
  private StatementStats.Snapshot statementsAtStart;
  private DatabaseStats database;
  private DatabaseStats.Snapshot databaseAtStart;
  private String databaseWhy;
  private Map<String, Long> waitSamplingAtStart;
  private String waitSamplingWhy;
  private WaitSampler sampler;
  private long startNanos;

  private ServerWindow(
      Callable<Connection> opener,
      Callable<Connection> samplerOpener,
      Collection<Integer> pids,
      Duration every,
      boolean pooled,
      String poolerWhy,
      String pidsNote) {
    this.opener = opener;
    this.samplerOpener = samplerOpener;
    this.pids = pids.stream().mapToInt(Integer::intValue).toArray();
    this.every = every;
    this.pooled = pooled;
    this.poolerWhy = poolerWhy;
    this.pidsNote = pidsNote;
  }

  /**
   * Takes the window's start: the clients' backend pids ({@code PGConnection.getBackendPID()} of
   * each, or {@code server.wire.Wire.openPids()}), sampled every {@code every}.
   */
  public static ServerWindow start(
      Callable<Connection> opener, Collection<Integer> clientPids, Duration every) {
    ServerWindow w = new ServerWindow(opener, opener, clientPids, every, false, null, null);
    w.begin();
    return w;
  }

  /**
   * Takes the window's start behind a pooler ({@code --via pgbouncer:MODE}, {@code via} as given),
   * whose connections {@code opener} opens: the statements and the database's counters are the
   * server's, read through the pooler as any statement is, but no wait is sampled and {@link
   * #poolerWhy} says why. The backend pid a client is told is PgBouncer's own cancel key, not a
   * server session's (in session mode, where each client's server session could be read through the
   * pooler, {@link #throughSessionPooler} samples those instead; this is for when none could be);
   * in transaction and statement modes a client's transactions run on whichever server connection
   * is free, so no set of backends is the clients' and none of their states is a share of the
   * clients' time; and a sampler holding a transaction open for the window would hold one of the
   * pool's server connections the clients wait for.
   */
  public static ServerWindow throughPooler(
      Callable<Connection> opener, String via, Duration every) {
    ServerWindow w = new ServerWindow(opener, opener, List.of(), every, true, poolerWhy(via), null);
    w.begin();
    return w;
  }

  /**
   * Takes the window's start behind a pooler in session mode, where each client keeps one server
   * session for its whole session: as {@link #throughPooler}, but the waits of {@code serverPids}
   * (those sessions, read through the pooler as each client connected) are sampled on connections
   * {@code direct} opens to the server itself, which take none of the pool's server connections;
   * {@code note}, where the pids came from, is the waits' line.
   */
  public static ServerWindow throughSessionPooler(
      Callable<Connection> opener,
      Callable<Connection> direct,
      Collection<Integer> serverPids,
      String note,
      Duration every) {
    ServerWindow w = new ServerWindow(opener, direct, serverPids, every, true, null, note);
    w.begin();
    return w;
  }

  /** The one line why the waits are unavailable through the pooler {@code via}. */
  static String poolerWhy(String via) {
    String mode = via.replaceFirst("^pgbouncer:", "").replaceFirst(",.*$", "");
    String pooler = "through pgbouncer in " + mode + " mode ";
    return mode.equals("session")
        ? pooler + "the backend pid a client is told is PgBouncer's, not its server connection's"
        : pooler
            + "the clients' backends are the pooler's (a client's transactions run on whichever"
            + " server connection is free)";
  }

  private void begin() {
    int major;
    try {
      c = opener.call();
      if (!pooled) {
        // through a pooler in transaction mode the SET would stay on a server connection the
        // clients are then given, and their statements would go untracked: the marker does it
        untracked(c);
      }
      major = c.getMetaData().getDatabaseMajorVersion();
    } catch (Exception e) {
      connectionWhy = "the server's side was not read: " + oneLine(e);
      return;
    }
    if (pids.length > 0) {
      // opened before the start's snapshot: the connection's own start-up is not the window's
      sampler = new WaitSampler(samplerOpener, pids, every.toNanos());
    }
    Object s = StatementStats.open(c);
    if (s instanceof StatementStats ss) {
      statements = ss;
    } else {
      statementsWhy = (String) s;
    }
    if (sampler != null) {
      sampler.awaitReady(SAMPLER_READY_MS);
    }
    startNanos = System.nanoTime();
    if (statements != null) {
      try {
        statementsAtStart = statements.snapshot(c);
      } catch (SQLException e) {
        statementsWhy = "pg_stat_statements cannot be read: " + oneLine(e);
      }
    }
    database = new DatabaseStats(major);
    try {
      databaseAtStart = database.snapshot(c);
    } catch (SQLException e) {
      databaseWhy = "the database's counters cannot be read: " + oneLine(e);
    }
    waitSamplingAtStart = waitSampling();
  }

  /** How long the start waits for the sampler's connection: as long as one of its reads may. */
  static final long SAMPLER_READY_MS = 5_000;

  /** The window's end: the figures over it. Never throws; closes the window's connections. */
  public ServerSide finish() {
    if (connectionWhy != null) {
      close();
      return new ServerSide(
          0,
          null,
          connectionWhy,
          null,
          connectionWhy,
          ms(),
          0,
          null,
          connectionWhy,
          null,
          connectionWhy);
    }
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    List<ServerSide.StatementFigures> st = statementsOver();
    ServerSide.DatabaseFigures db = null;
    if (databaseAtStart != null) {
      try {
        db = database.delta(databaseAtStart, database.snapshot(c), seconds);
      } catch (SQLException e) {
        databaseWhy = "the database's counters cannot be read: " + oneLine(e);
      }
    }
    List<ServerSide.WaitShare> profile = waitSamplingDelta();
    if (sampler != null) {
      sampler.close();
    }
    close();
    return new ServerSide(
        seconds,
        st,
        statementsWhy,
        sampler == null ? null : sampler.shares(),
        sampler == null ? noPids() : waitsLine(),
        ms(),
        sampler == null ? 0 : sampler.samples(),
        profile,
        waitSamplingWhy,
        db,
        databaseWhy);
  }

  /**
   * pg_stat_statements' deltas over the window, null where it was not read at the start or cannot
   * be read now; {@link #statementsWhy} says what the figures miss (evicted entries, other roles'
   * statements) or why there are none.
   */
  private List<ServerSide.StatementFigures> statementsOver() {
    if (statementsAtStart == null) {
      return null;
    }
    try {
      StatementStats.Snapshot end = statements.snapshot(c);
      List<ServerSide.StatementFigures> st = statements.delta(statementsAtStart, end);
      long evicted = end.deallocations() - statementsAtStart.deallocations();
      if (evicted > 0) {
        statementsWhy =
            "pg_stat_statements evicted entries "
                + evicted
                + " times in the window (pg_stat_statements.max): statements may be missing";
      }
      long hidden = end.hiddenCalls() - statementsAtStart.hiddenCalls();
      if (hidden > 0 && statementsWhy == null) {
        statementsWhy =
            hidden
                + " calls of other roles' statements ran in the window, which this role may not"
                + " read (a member of pg_read_all_stats may): not in the figures";
      }
      return st;
    } catch (SQLException e) {
      statementsWhy = "pg_stat_statements cannot be read: " + oneLine(e);
      return null;
    }
  }

  /** Samples taken so far. */
  long samples() {
    return sampler == null ? 0 : sampler.samples();
  }

  /** Samples that found a client in state {@code name} so far (for tests to wait on). */
  long seen(String name) {
    return sampler == null ? 0 : sampler.seen(name);
  }

  /** The sampler's why; where it has none, where the pids came from (null for the clients' own). */
  private String waitsLine() {
    String why = sampler.why();
    return why != null ? why : pidsNote;
  }

  private String noPids() {
    return poolerWhy != null ? poolerWhy : "no client's backend pid was given";
  }

  private double ms() {
    return every.toNanos() / 1e6;
  }

  /** pg_wait_sampling's profile of the clients' pids now, or null with {@link #waitSamplingWhy}. */
  private Map<String, Long> waitSampling() {
    if (pids.length == 0) {
      waitSamplingWhy = noPids();
      return null;
    }
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                MARKER + " SELECT 1 FROM pg_extension WHERE extname = 'pg_wait_sampling'")) {
      if (!rs.next()) {
        waitSamplingWhy = "pg_wait_sampling is not installed in this database";
        return null;
      }
    } catch (SQLException e) {
      waitSamplingWhy = "pg_wait_sampling cannot be read: " + oneLine(e);
      return null;
    }
    Map<String, Long> m = new HashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            MARKER
                + " SELECT event_type, event, sum(count) FROM pg_wait_sampling_profile"
                + " WHERE pid = ANY(?) GROUP BY 1, 2")) {
      Integer[] boxed = new Integer[pids.length];
      for (int i = 0; i < pids.length; i++) {
        boxed[i] = pids[i];
      }
      Array a = c.createArrayOf("int4", boxed);
      ps.setArray(1, a);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String type = rs.getString(1);
          m.merge(type == null ? "CPU" : type + ":" + rs.getString(2), rs.getLong(3), Long::sum);
        }
      }
      return m;
    } catch (SQLException e) {
      waitSamplingWhy = "pg_wait_sampling cannot be read: " + oneLine(e);
      return null;
    }
  }

  private List<ServerSide.WaitShare> waitSamplingDelta() {
    if (waitSamplingAtStart == null) {
      return null;
    }
    Map<String, Long> end = waitSampling();
    if (end == null) {
      return null;
    }
    Map<String, long[]> d = new HashMap<>();
    long total = 0;
    for (Map.Entry<String, Long> e : end.entrySet()) {
      long n = e.getValue() - waitSamplingAtStart.getOrDefault(e.getKey(), 0L);
      if (n > 0) {
        d.put(e.getKey(), new long[] {n});
        total += n;
      }
    }
    if (total == 0) {
      waitSamplingWhy = "pg_wait_sampling took no sample of the clients' pids in the window";
      return null;
    }
    return WaitSampler.shares(d, total);
  }

  /**
   * The window's own statements kept out of pg_stat_statements where this role may set that (a
   * superuser); elsewhere the {@link #MARKER} keeps them out of the figures.
   */
  static void untracked(Connection c) {
    try (Statement st = c.createStatement()) {
      st.execute(MARKER + " SET pg_stat_statements.track = 'none'");
    } catch (SQLException e) {
      // not a superuser: the marker does it
    }
  }

  static String oneLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  @Override
  public void close() {
    if (sampler != null) {
      sampler.close();
    }
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        // the window's figures are taken; nothing depends on the close
      }
      c = null;
    }
  }
}
