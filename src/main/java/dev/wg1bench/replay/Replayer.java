package dev.wg1bench.replay;

import com.zaxxer.hikari.HikariDataSource;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Replays captured sessions through pgjdbc, as pgreplay does through libpq: each session on its own
 * thread and connection (or sharing a pool of {@code poolSize}), each statement started when the
 * log says it started, scaled by the speed, so the server sees the same concurrency and think time.
 * A statement that starts late does not make later ones early: the lag is measured, not caught up
 * by skipping.
 */
public final class Replayer {
  /**
   * @param speed 1 = the log's timing, N = N times faster, 0 = as fast as possible (no waits; each
   *     session still runs its statements in order)
   * @param poolSize null: a connection per session; else sessions borrow from a pool of this size
   *     per target database, for a statement outside a transaction block or for a whole block
   * @param mapDatabase captured database to target database; unmapped ones go to the URL's
   * @param stop set to end the replay early (Ctrl-C): sessions stop before their next statement
   */
  public record Config(
      TargetSpec target,
      ClientSettings settings,
      double speed,
      Integer poolSize,
      Map<String, String> mapDatabase,
      Duration progress,
      AtomicBoolean stop) {}

  private final Config config;
  private final PrintStream out;
  private final ReplayStats stats = new ReplayStats();
  private final Map<String, ConnectionFactory> factories = new ConcurrentHashMap<>();
  private final Map<String, HikariDataSource> pools = new ConcurrentHashMap<>();
  private final List<ReplayResult.Progress> progress = new ArrayList<>();
  private long t0;

  public Replayer(Config config, PrintStream out) {
    this.config = config;
    this.out = out;
  }

  /** Replays the capture; returns what happened (partial when stopped). */
  public Outcome run(Capture capture) throws InterruptedException {
    Instant logStart = capture.start();
    for (LoggedSession s : capture.sessions()) {
      for (LoggedStatement st : s.statements()) {
        stats.of(st.sql()).logged(st);
      }
    }
    ScheduledExecutorService ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "wg1bench-replay-progress");
              t.setDaemon(true);
              return t;
            });
    List<Thread> threads = new ArrayList<>();
    t0 = System.nanoTime();
    long[] last = {t0, 0, 0, 0};
    long every = config.progress().toNanos();
    ticker.scheduleAtFixedRate(() -> tick(last), every, every, TimeUnit.NANOSECONDS);
    try {
      for (LoggedSession s : capture.sessions()) {
        // sessions are started in order of their connection: no thread waits long before its time
        if (!waitUntil(due(logStart, s.connected()))) {
          break;
        }
        Thread t = new Thread(() -> session(s, logStart), "wg1bench-replay-" + s.id());
        t.setDaemon(true);
        threads.add(t);
        t.start();
      }
      for (Thread t : threads) {
        t.join();
      }
    } finally {
      ticker.shutdownNow();
      pools.values().forEach(HikariDataSource::close);
    }
    long end = System.nanoTime();
    tick(last);
    return new Outcome(stats, List.copyOf(progress), (end - t0) / 1e9, config.stop().get());
  }

  /** What {@link #run} measured; turned into a {@link ReplayResult} by {@link ReplayReport}. */
  public record Outcome(
      ReplayStats stats,
      List<ReplayResult.Progress> progress,
      double wallSeconds,
      boolean stopped) {}

  private synchronized void tick(long[] last) {
    long now = System.nanoTime();
    long st = stats.statements.get();
    long tx = stats.transactions.get();
    long err = stats.errorCount();
    double interval = (now - last[0]) / 1e9;
    if (interval <= 0 || (st == last[1] && !progress.isEmpty() && stats.active.get() == 0)) {
      return;
    }
    ReplayResult.Progress p =
        new ReplayResult.Progress(
            round((now - t0) / 1e9),
            round(interval),
            st - last[1],
            tx - last[2],
            err - last[3],
            round((st - last[1]) / interval),
            round((tx - last[2]) / interval),
            stats.active.get());
    progress.add(p);
    last[0] = now;
    last[1] = st;
    last[2] = tx;
    last[3] = err;
    var lag = stats.lagCopy();
    out.printf(
        Locale.ROOT,
        "progress: %.1f s, %.1f stmt/s, %.1f tx/s, %d errors, %d sessions active, lag p99 %s%n",
        p.seconds(),
        p.statementsPerSecond(),
        p.transactionsPerSecond(),
        p.errors(),
        p.activeSessions(),
        config.speed() == 0 ? "-" : ms(lag.getValueAtPercentile(99)) + " ms");
  }

  private static String ms(long micros) {
    return String.format(Locale.ROOT, "%.1f", micros / 1000.0);
  }

  static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  /** nanoTime at which the log's {@code t} falls in the replay; t0 itself at --speed max. */
  private long due(Instant logStart, Instant t) {
    if (config.speed() == 0) {
      return t0;
    }
    long logNanos = Duration.between(logStart, t).toNanos();
    return t0 + (long) (logNanos / config.speed());
  }

  /** Parks until {@code due}, false when told to stop first. */
  private boolean waitUntil(long due) {
    while (!config.stop().get()) {
      long left = due - System.nanoTime();
      if (left <= 0) {
        return true;
      }
      // wakes at least every 100 ms to see a stop
      LockSupport.parkNanos(Math.min(left, 100_000_000L));
    }
    return false;
  }

  private void session(LoggedSession s, Instant logStart) {
    stats.sessionsStarted.incrementAndGet();
    stats.active.incrementAndGet();
    Transactions.Counter tx = new Transactions.Counter();
    Connection c = null;
    String db = config.mapDatabase().get(s.database());
    boolean pooled = config.poolSize() != null;
    try {
      if (!pooled) {
        try {
          c = factory(db).openBenchmarkClient();
        } catch (SQLException e) {
          stats.sessionsFailed.incrementAndGet();
          stats.error(state(e));
          return;
        }
      }
      for (LoggedStatement st : s.statements()) {
        long due = due(logStart, st.time());
        if (!waitUntil(due)) {
          return;
        }
        long start = System.nanoTime();
        if (c == null) {
          try {
            c = pool(db).getConnection();
          } catch (SQLException e) {
            stats.sessionsFailed.incrementAndGet();
            stats.error(state(e));
            return;
          }
          stats.poolWait((System.nanoTime() - start) / 1000);
        }
        if (config.speed() != 0) {
          stats.lag((System.nanoTime() - due) / 1000);
        }
        long begin = System.nanoTime();
        long[] rows = {0, 0};
        String sqlState = null;
        try {
          execute(c, st, rows);
        } catch (SQLException e) {
          sqlState = state(e);
          stats.error(sqlState);
        }
        long finish = System.nanoTime();
        stats.window(begin, finish);
        stats.of(st.sql()).ran((finish - begin) / 1000, rows[0], rows[1], sqlState);
        stats.statements.incrementAndGet();
        if (tx.add(st.sql())) {
          stats.transactions.incrementAndGet();
        }
        if (sqlState != null && sqlState.startsWith("08")) {
          // the connection is gone: the rest of the session cannot run on it
          stats.sessionsFailed.incrementAndGet();
          return;
        }
        if (pooled && !tx.inBlock()) {
          c.close();
          c = null;
        }
      }
      if (!pooled && s.disconnected() != null) {
        // the session stays connected until it disconnected in the log, as pgreplay keeps it
        if (!waitUntil(due(logStart, s.disconnected()))) {
          return;
        }
      }
      stats.sessionsCompleted.incrementAndGet();
    } catch (SQLException e) {
      stats.error(state(e));
    } finally {
      stats.active.decrementAndGet();
      if (c != null) {
        try {
          c.close();
        } catch (SQLException e) {
          // closing a broken connection: nothing more to learn from it
        }
      }
    }
  }

  private static String state(SQLException e) {
    return e.getSQLState() == null ? "?????" : e.getSQLState();
  }

  /** Runs one statement the way it was sent: a simple Query, or Parse/Bind/Execute with values. */
  static void execute(Connection c, LoggedStatement st, long[] rows) throws SQLException {
    if (st.parameters() == null) {
      try (Statement s = c.createStatement()) {
        // the text is the server's, not JDBC's: no {fn ...} escapes to rewrite
        s.setEscapeProcessing(false);
        drain(s, s.execute(st.sql()), rows);
      }
      return;
    }
    SqlText.Jdbc j = SqlText.forJdbc(st.sql());
    try (PreparedStatement ps = c.prepareStatement(j.sql())) {
      for (int i = 0; i < j.order().length; i++) {
        String v = st.parameters().get(j.order()[i] - 1);
        // untyped, as the log shows them: the server infers each type as it did for the client
        if (v == null) {
          ps.setNull(i + 1, Types.OTHER);
        } else {
          ps.setObject(i + 1, v, Types.OTHER);
        }
      }
      drain(ps, ps.execute(), rows);
    }
  }

  /** Reads every result the statement produced, as a client would: rows[0] affected, [1] read. */
  private static void drain(Statement s, boolean isResultSet, long[] rows) throws SQLException {
    boolean rs = isResultSet;
    while (true) {
      if (rs) {
        try (ResultSet r = s.getResultSet()) {
          while (r.next()) {
            rows[1]++;
          }
        }
      } else {
        int n = s.getUpdateCount();
        if (n == -1) {
          return;
        }
        rows[0] += n;
      }
      rs = s.getMoreResults();
    }
  }

  private ConnectionFactory factory(String database) {
    String key = database == null ? "" : database;
    return factories.computeIfAbsent(
        key,
        k -> new ConnectionFactory(withDatabase(config.target(), database), config.settings()));
  }

  private HikariDataSource pool(String database) {
    String key = database == null ? "" : database;
    return pools.computeIfAbsent(key, k -> factory(database).pool(config.poolSize()));
  }

  /** The target with another database in its URL; the same target when {@code db} is null. */
  public static TargetSpec withDatabase(TargetSpec t, String db) {
    if (db == null) {
      return t;
    }
    String url = t.jdbcUrl();
    int q = url.indexOf('?');
    String base = q < 0 ? url : url.substring(0, q);
    String rest = q < 0 ? "" : url.substring(q);
    int slash = base.indexOf('/', "jdbc:postgresql://".length());
    String withDb = (slash < 0 ? base : base.substring(0, slash)) + "/" + db + rest;
    return new TargetSpec(
        t.name(), t.kind(), withDb, t.user(), t.embeddedVersion(), t.password(), t.provision());
  }

  static Map<String, String> describe(Config c) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("speed", c.speed() == 0 ? "max" : String.valueOf(c.speed()));
    m.put("poolSize", c.poolSize() == null ? "per session" : c.poolSize().toString());
    m.put("queryMode", c.settings().queryMode().cliName());
    m.put(
        "isolation",
        c.settings().isolation() == null ? "default" : c.settings().isolation().cliName());
    c.settings().sessionSettings().forEach((k, v) -> m.put("set." + k, v));
    c.settings().driver().properties().forEach((k, v) -> m.put("jdbc." + k, v));
    c.mapDatabase().forEach((k, v) -> m.put("mapDatabase." + k, v));
    return m;
  }
}
