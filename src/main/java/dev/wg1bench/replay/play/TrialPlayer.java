package dev.wg1bench.replay.play;

import com.zaxxer.hikari.HikariDataSource;
import dev.wg1bench.ProcessCpu;
import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.ThreadKind;
import dev.wg1bench.replay.capture.Capture;
import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.replay.capture.LoggedStatement;
import dev.wg1bench.replay.capture.PastedIds;
import dev.wg1bench.replay.capture.Transactions;
import dev.wg1bench.replay.result.ReplayResult;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Replays captured sessions through pgjdbc, as pgreplay does through libpq: each session on its own
 * thread and connection (or a pooled one), its statements in the log's order, each started when the
 * log says it started, scaled by the speed, so the server sees the same concurrency and think time.
 * A statement that starts late does not make later ones early: the lag is measured, not caught up
 * by skipping. Between sessions the {@link Schedule} holds at every speed: no session overtakes
 * what it followed in the log.
 */
public final class TrialPlayer {
  /**
   * @param speed 1 = the log's timing, N = N times faster, 0 = as fast as possible (no waits on the
   *     clock; the order between sessions still holds)
   * @param poolSize null: a connection per session; else sessions share a pool of this size per
   *     target database, as {@code poolMode} says
   * @param threads what each session runs on: a platform thread blocked in its socket read, or a
   *     virtual thread (--threads), as the application's own JDBC calls may
   * @param mapDatabase captured database to target database; unmapped ones go to the URL's
   * @param stop set to end the replay early (Ctrl-C): sessions stop before their next statement
   */
  public record Config(
      TargetSpec target,
      ClientSettings settings,
      double speed,
      Integer poolSize,
      ThreadKind threads,
      PoolMode poolMode,
      Map<String, String> mapDatabase,
      Duration progress,
      AtomicBoolean stop) {}

  final Config config;
  private final PrintStream out;
  final ReplayStats stats = new ReplayStats();
  private final Map<String, ConnectionFactory> factories = new ConcurrentHashMap<>();
  private final Map<String, HikariDataSource> pools = new ConcurrentHashMap<>();
  private final List<ReplayResult.Progress> progress = new ArrayList<>();
  private long t0;

  /** The threads that may sleep on the clock: woken when the replay is told to stop. */
  private final List<Thread> sleepers = new CopyOnWriteArrayList<>();

  /** How soon a stop is seen by a thread asleep on the clock ({@link #wakeIfStopped}). */
  static final long STOP_SEEN_MS = 100;

  /** Per session, per statement: its statement class's figures ({@link ReplayStats#of}). */
  ReplayStats.ClassStats[][] classes;

  /** Per session, per statement: how it goes to the server (null for a skipped one). */
  StatementSender.Route[][] routes;

  /**
   * Per session, per statement: the transactions it ends when sent, its session's statements sent
   * in the log's order ({@link Transactions.Counter}, skipped statements left out).
   */
  int[][] txEnds;

  /** Ends a row lock's grant proved over ({@link LockProofs}). */
  LockProofs proofs;

  private TableFacts facts;

  /** Keeps the capture's victim of each deadlock of the log. */
  DeadlockSteer deadlocks;

  /** The replay's own ids in place of those of the capture's it pasted ({@link ReplayIds}). */
  ReplayIds ids;

  private Instant logStart;

  public TrialPlayer(Config config, PrintStream out) {
    this.config = config;
    this.out = out;
  }

  /** Replays the capture; returns what happened (partial when stopped). */
  public Outcome run(Capture capture) throws InterruptedException {
    logStart = capture.start();
    classes = classes(capture);
    ids = new ReplayIds(PastedIds.of(capture.sessions()));
    stats.outcomes.pastedIds(ids);
    Schedule schedule = schedule(capture);
    OrderGate order = new OrderGate(schedule, config.poolSize() == null);
    proofs = new LockProofs(capture.sessions(), schedule, order, facts, stats.endsProven);
    Sessions live = new Sessions(capture.sessions().size());
    Watchdog watchdog = new Watchdog(order, live, this::factory, capture.sessions());
    ScheduledExecutorService ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "wg1bench-replay-progress");
              t.setDaemon(true);
              return t;
            });
    List<Thread> threads = new ArrayList<>();
    // without a pool each session opens its connection ahead of its time (ConnectLead), the first
    // ones too: the log's zero is a connect's time away
    boolean ahead = config.poolSize() == null;
    if (!ahead) {
      fillPools(capture.sessions());
    }
    awaitJit();
    t0 = System.nanoTime() + (ahead ? connectLead.next() : 0);
    long cpu0 = ProcessCpu.nanos();
    long[] last = {t0, 0, 0, 0};
    long every = config.progress().toNanos();
    ticker.scheduleAtFixedRate(() -> tick(last), every, every, TimeUnit.NANOSECONDS);
    sleepers.add(Thread.currentThread());
    ticker.scheduleAtFixedRate(
        this::wakeIfStopped, STOP_SEEN_MS, STOP_SEEN_MS, TimeUnit.MILLISECONDS);
    Thread watching = new Thread(watchdog::watch, "wg1bench-replay-watchdog");
    watching.setDaemon(true);
    watching.start();
    try {
      start(capture.sessions(), schedule, order, live, ahead, threads);
      for (Thread t : threads) {
        t.join();
      }
    } finally {
      ticker.shutdownNow();
      ticker.awaitTermination(5, TimeUnit.SECONDS);
      watchdog.stop(watching);
      watching.join(5_000);
      watchdog.close();
      pools.values().forEach(HikariDataSource::close);
    }
    long end = System.nanoTime();
    long cpu = ProcessCpu.nanos() - cpu0;
    stats.handOffs = order.handOffs();
    tick(last);
    return new Outcome(
        stats,
        List.copyOf(progress),
        (end - t0) / 1e9,
        cpu0 > 0 ? cpu : -1,
        config.stop().get(),
        watchdog,
        ahead ? connectLead.longestUsed() : -1);
  }

  /** Whether the replay runs its sessions SERIALIZABLE, by its isolation or a session setting. */
  private boolean serializable() {
    ClientSettings s = config.settings();
    return s.isolation() == Isolation.SERIALIZABLE
        || s.sessionSettings().values().stream()
            .anyMatch(v -> v != null && v.toLowerCase(Locale.ROOT).contains("serializable"));
  }

  /**
   * The order between the capture's sessions, with what the target's catalog says of its tables.
   */
  private Schedule schedule(Capture capture) {
    facts =
        TableFacts.read(
            capture.sessions(),
            config.mapDatabase(),
            db -> factory(db).openOwn(),
            note -> out.println("note: " + note));
    Deadlocks cycles = Deadlocks.of(capture.sessions(), capture.deadlocks());
    deadlocks =
        DeadlockSteer.of(
            capture.sessions(),
            cycles,
            facts,
            db -> factory(db).openOwn(),
            stats,
            note -> out.println("note: " + note));
    Schedule schedule = new Schedule(capture.sessions(), facts, cycles, serializable());
    stats.plainInserts = schedule.plainInserts;
    stats.rowOrdered = schedule.narrowed[0] + schedule.narrowed[1] + schedule.narrowed[2];
    return schedule;
  }

  /**
   * The compiles the set-up queued run before the clock and the CPU count start, not in the trial;
   * where they outlast {@link JitQuiet#MAX_MS} the trial says it starts beside them.
   */
  private void awaitJit() throws InterruptedException {
    if (!JitQuiet.await(config.stop()::get)) {
      out.printf(
          Locale.ROOT,
          "note: the JIT still had compiles queued after %d ms; the trial starts beside them, and"
              + " its client CPU counts them%n",
          JitQuiet.MAX_MS);
    }
  }

  /**
   * Starts the sessions' threads in order of their connection, into {@code threads}: without a pool
   * each a lead before its time ({@link ConnectLead}) once a slot ahead is free, and it takes its
   * place in the order once connected; with one, when the log and the order let it. No thread waits
   * long before its time. Returns early when the replay is told to stop.
   */
  private void start(
      List<LoggedSession> sessions,
      Schedule schedule,
      OrderGate order,
      Sessions live,
      boolean ahead,
      List<Thread> threads)
      throws InterruptedException {
    for (int i = 0; i < sessions.size(); i++) {
      SessionThread s = new SessionThread(this, sessions.get(i), i, schedule, order, live);
      long due = due(sessions.get(i).connected());
      if (ahead
          ? !waitUntil(due - connectLead.next()) || !takeSlotAhead()
          : !waitUntil(due) || !s.awaitConnect()) {
        return;
      }
      s.startedAt = System.nanoTime();
      Thread t = config.threads().newThread(s::run, "wg1bench-replay-" + sessions.get(i).id());
      threads.add(t);
      sleepers.add(t);
      t.start();
    }
  }

  /**
   * Each statement's class, found once before the clock starts (with the log's figures recorded in
   * it), and what its text says (how it is sent, transactions ended): the replay's threads then
   * record into it without reading the text again.
   */
  private ReplayStats.ClassStats[][] classes(Capture capture) {
    int n = capture.sessions().size();
    ReplayStats.ClassStats[][] out = new ReplayStats.ClassStats[n][];
    routes = new StatementSender.Route[n][];
    boolean simple = config.settings().queryMode() == QueryMode.SIMPLE;
    boolean prepared =
        config.settings().driver().prepareThreshold() == null
            && config.settings().queryMode() == QueryMode.PREPARED;
    txEnds = new int[n][];
    for (int i = 0; i < out.length; i++) {
      List<LoggedStatement> st = capture.sessions().get(i).statements();
      out[i] = new ReplayStats.ClassStats[st.size()];
      routes[i] = new StatementSender.Route[st.size()];
      txEnds[i] = new int[st.size()];
      Transactions.Counter tx = new Transactions.Counter();
      Map<String, Integer> sends = prepared ? StatementSender.Route.sends(st) : Map.of();
      for (int j = 0; j < st.size(); j++) {
        LoggedStatement x = st.get(j);
        out[i][j] = stats.of(x.sql());
        out[i][j].logged(x);
        if (x.skip() == null) {
          StatementSender.Route r = StatementSender.Route.of(x, simple);
          routes[i][j] = prepared ? r.prepared(sends.get(x.sent())) : r;
          txEnds[i][j] = tx.add(x.sql());
        }
      }
    }
    return out;
  }

  /**
   * What {@link #run} measured; turned into a {@link ReplayResult} by the report.
   *
   * @param cpuNanos this JVM's CPU time over the wall time (all threads), -1 where not known
   * @param connectLeadNanos the longest a connection was opened ahead of its time ({@link
   *     ConnectLead}), -1 with a pool (none is)
   */
  public record Outcome(
      ReplayStats stats,
      List<ReplayResult.Progress> progress,
      double wallSeconds,
      long cpuNanos,
      boolean stopped,
      Watchdog watchdog,
      long connectLeadNanos) {}

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
        "progress: %.1f s, %.1f stmt/s, %.1f tx/s, %d errors, %d sessions active, lag p99 %s,"
            + " %d diverged%n",
        p.seconds(),
        p.statementsPerSecond(),
        p.transactionsPerSecond(),
        p.errors(),
        p.activeSessions(),
        config.speed() == 0 ? "-" : ms(lag.getValueAtPercentile(99)) + " ms",
        stats.outcomes.divergent());
  }

  private static String ms(long micros) {
    return String.format(Locale.ROOT, "%.1f", micros / 1000.0);
  }

  public static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  /** nanoTime at which the log's {@code t} falls in the replay; t0 itself at --speed max. */
  long due(Instant t) {
    if (config.speed() == 0) {
      return t0;
    }
    long logNanos = Duration.between(logStart, t).toNanos();
    return t0 + (long) (logNanos / config.speed());
  }

  /**
   * Connections opened ahead whose sessions have not yet taken their place in the order: at most
   * this many, so a replay that lags its clock opens no more than these beyond the log's.
   */
  public static final int MAX_AHEAD = 16;

  final Semaphore slotsAhead = new Semaphore(MAX_AHEAD);

  /** How long before its time a connection is opened, learned from this replay's connects. */
  final ConnectLead connectLead = new ConnectLead();

  /** Waits for a slot to open a connection ahead of its place in the order; false if stopped. */
  private boolean takeSlotAhead() throws InterruptedException {
    while (!config.stop().get()) {
      // a stop is seen within this bound
      if (slotsAhead.tryAcquire(100, TimeUnit.MILLISECONDS)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Parks until {@code due}, false when told to stop first. A stop is seen through {@link
   * #wakeIfStopped}'s unpark, so the park is not cut short to look for one: at 100 ms bounds each
   * of a paced 64-client log's sessions (a transaction every 320 ms) woke three times more between
   * its transactions, 0.37 wake-ups a statement (4,300 of 23,000 context switches in an 8 s replay;
   * bench/results/2026-12-06-replay-warmup-pace.md).
   */
  boolean waitUntil(long due) {
    while (!config.stop().get()) {
      long left = due - System.nanoTime();
      if (left <= 0) {
        return true;
      }
      // bounded only as a guard: the unpark on a stop is what ends it early
      LockSupport.parkNanos(Math.min(left, 1_000_000_000L));
    }
    return false;
  }

  /**
   * On the ticker: once the replay is told to stop, unparks every thread that may sleep on the
   * clock (the starting thread and the sessions' threads), so each sees the stop within {@link
   * #STOP_SEEN_MS}, as when each looked on its own every 100 ms.
   */
  private void wakeIfStopped() {
    if (config.stop().get()) {
      sleepers.forEach(LockSupport::unpark);
    }
  }

  ConnectionFactory factory(String database) {
    String key = database == null ? "" : database;
    return factories.computeIfAbsent(
        key, k -> new ConnectionFactory(config.target().inDatabase(database), config.settings()));
  }

  /**
   * The factory of a replayed session's own connection: it carries the session's captured
   * application_name (unless --jdbc-property ApplicationName says otherwise), so the server's view
   * of the replay (pg_stat_activity, its log) names the application as the capture did; the tool's
   * own connections stay "wg1bench", and a capture of a replay leaves only those out.
   */
  ConnectionFactory factory(String database, String application) {
    Map<String, String> props = config.settings().driver().properties();
    String app = props.containsKey("ApplicationName") ? null : application;
    ClientSettings s = config.settings();
    // the deadlocks' steering first: a setting the user gives (--set) is theirs
    Map<String, String> settings = new LinkedHashMap<>(deadlocks.sessionSettings());
    settings.putAll(s.sessionSettings());
    if (app == null && settings.equals(s.sessionSettings())) {
      return factory(database);
    }
    String key = (database == null ? "" : database) + "\0" + app;
    return factories.computeIfAbsent(
        key,
        k -> {
          Map<String, String> named = new LinkedHashMap<>(props);
          if (app != null) {
            named.put("ApplicationName", app);
          }
          var driver = s.driver().withProperties(named);
          return new ConnectionFactory(
              config.target().inDatabase(database),
              new ClientSettings(s.queryMode(), s.isolation(), settings, driver));
        });
  }

  /**
   * Opens each pool the sessions will take their connections from and waits, a minute at most,
   * until it holds its size, before the log's clock starts: HikariCP adds connections one at a time
   * in the background, and a pool opened at the first session's connect kept the sessions of a
   * paced 64-client log waiting up to 2 s for it (lag p99 1.8 s, 36-50 waits broken as every
   * session waited), a cost of the tool, not of the log. A pool that cannot connect is left to the
   * sessions, which meet and count its failure.
   */
  private void fillPools(List<LoggedSession> sessions) throws InterruptedException {
    Set<String> databases = new LinkedHashSet<>();
    for (LoggedSession s : sessions) {
      databases.add(config.mapDatabase().get(s.database()));
    }
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    try {
      for (String database : databases) {
        HikariDataSource p = pool(database);
        while (p.getHikariPoolMXBean().getTotalConnections() < config.poolSize()
            && System.nanoTime() < deadline) {
          Thread.sleep(5);
        }
      }
    } catch (RuntimeException e) {
      // the sessions meet it at their connect, and count it
    }
  }

  HikariDataSource pool(String database) {
    String key = database == null ? "" : database;
    return pools.computeIfAbsent(
        key,
        k ->
            factory(database, null)
                .pool(
                    config.poolSize(),
                    hc -> hc.setExceptionOverrideClassName(ReplayEvictions.class.getName())));
  }
}
