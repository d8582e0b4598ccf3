package dev.wg1bench.server.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.wg1bench.support.TestServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * The server's side of a window on a real server: planted sleeps and locks show where they belong,
 * statements' calls reconcile with what ran, and a source the server lacks is one line and null
 * figures.
 */
class ServerWindowTest {
  static final Duration EVERY = Duration.ofMillis(10);
  static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);

  static Connection connect(String url) throws SQLException {
    return DriverManager.getConnection(url);
  }

  static int pid(Connection c) throws SQLException {
    return c.unwrap(PGConnection.class).getBackendPID();
  }

  /**
   * Whether the test server has pg_stat_statements in its database: the embedded server must (it
   * preloads and creates it), another server may not, and its tests are then skipped.
   */
  static boolean hasStatements() {
    boolean has = readsStatements();
    String url = System.getenv("WG1BENCH_TEST_URL");
    if (url == null || url.isBlank()) {
      assertTrue(has, "the embedded server preloads pg_stat_statements and creates it");
    }
    return has;
  }

  private static boolean readsStatements() {
    try (Connection c = connect(TestServer.url());
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT count(*) FROM pg_stat_statements WHERE queryid IS NOT NULL")) {
      return rs.next();
    } catch (SQLException e) {
      return false;
    }
  }

  /** Runs {@code op} until the window has seen a client in {@code state} 3 times. */
  static int until(ServerWindow w, String state, SqlOp op) throws Exception {
    long deadline = System.nanoTime() + DEADLINE_NANOS;
    int runs = 0;
    while (w.seen(state) < 3) {
      assertTrue(System.nanoTime() < deadline, "no sample saw " + state + " within 60 s");
      op.run();
      runs++;
    }
    return runs;
  }

  interface SqlOp {
    void run() throws Exception;
  }

  static ServerSide.StatementFigures statement(ServerSide s, String text) {
    return s.statements().stream().filter(f -> f.query().contains(text)).findFirst().orElse(null);
  }

  @Test
  void aPlantedSleepIsServerTimeAndTimeoutPgSleep() throws Exception {
    assumeTrue(hasStatements(), "the test server has pg_stat_statements (the embedded one does)");
    try (Connection client = connect(TestServer.url());
        PreparedStatement sleep = client.prepareStatement("SELECT pg_sleep(0.05)")) {
      ServerWindow w =
          ServerWindow.start(() -> connect(TestServer.url()), Set.of(pid(client)), EVERY);
      int runs = until(w, "Timeout:PgSleep", () -> sleep.executeQuery().close());
      ServerSide s = w.finish();
      assertNull(s.statementsWhy(), s.statementsWhy());
      ServerSide.StatementFigures f = statement(s, "pg_sleep");
      assertNotNull(f, "the sleep is a statement of the window: " + s.statements());
      assertEquals(runs, f.calls(), "calls reconcile with what ran");
      assertTrue(f.totalExecMs() >= 50.0 * runs, "each call slept 50 ms: " + f.totalExecMs());
      assertTrue(s.serverMsPerOp(runs) >= 50.0);
      ServerSide.WaitShare sleepShare = share(s.waits(), "Timeout:PgSleep");
      assertNotNull(sleepShare, "waits: " + s.waits());
      assertEquals("Timeout", sleepShare.kind());
      assertTrue(s.samples() > 0);
      double total = s.waits().stream().mapToDouble(ServerSide.WaitShare::share).sum();
      assertEquals(1.0, total, 1e-9, "shares of the clients' session time");
      assertTrue(
          s.statements().stream().noneMatch(x -> x.query().contains(ServerWindow.MARKER_TEXT)),
          "the window's own statements are kept out");
    }
  }

  /**
   * The window's own connections say who they are as pgjdbc does, with a {@code SET
   * application_name} after start-up (as the tool's connections do): the sampler's is opened and
   * its transaction begun before the start's snapshot, so neither that nor its BEGIN is a statement
   * of the window's, and the only ones left are the client's (a run's console once listed the
   * tool's {@code SET application_name = 'wg1bench'} among the top statements, one call per
   * window).
   */
  @Test
  void theWindowsOwnSessionStatementsAreNotTheWindows() throws Exception {
    assumeTrue(hasStatements(), "the test server has pg_stat_statements (the embedded one does)");
    java.util.Properties named = new java.util.Properties();
    named.setProperty("ApplicationName", "wg1bench-window-own");
    try (Connection client = connect(TestServer.url());
        PreparedStatement q =
            client.prepareStatement("SELECT md5(current_user) AS window_own_client")) {
      ServerWindow w =
          ServerWindow.start(
              () -> DriverManager.getConnection(TestServer.url(), named),
              Set.of(pid(client)),
              EVERY);
      long deadline = System.nanoTime() + DEADLINE_NANOS;
      int runs = 0;
      while (w.samples() < 3) {
        assertTrue(System.nanoTime() < deadline, "the sampler took no 3 samples within 60 s");
        q.executeQuery().close();
        runs++;
      }
      q.executeQuery().close();
      ServerSide s = w.finish();
      assertNull(s.statementsWhy(), s.statementsWhy());
      assertNotNull(s.waits(), s.waitsWhy());
      List<String> texts = s.statements().stream().map(ServerSide.StatementFigures::query).toList();
      assertTrue(
          texts.stream().noneMatch(t -> t.contains("application_name")),
          "the window's own start-up is not a statement of it: " + texts);
      assertEquals(1, texts.size(), "only the client's statement: " + texts);
      assertEquals(runs + 1, s.statements().get(0).calls(), "the client's calls: " + texts);
    }
  }

  static ServerSide.WaitShare share(List<ServerSide.WaitShare> waits, String name) {
    return waits.stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
  }

  @Test
  void aPlantedRowLockIsALockWaitAndItsHolderIdleInTransaction() throws Exception {
    try (Connection holder = connect(TestServer.url());
        Connection waiter = connect(TestServer.url());
        Statement st = holder.createStatement()) {
      st.execute("DROP TABLE IF EXISTS window_lock");
      st.execute("CREATE TABLE window_lock (id int PRIMARY KEY, n int)");
      st.execute("INSERT INTO window_lock VALUES (1, 0)");
      ServerWindow w =
          ServerWindow.start(
              () -> connect(TestServer.url()), Set.of(pid(holder), pid(waiter)), EVERY);
      holder.setAutoCommit(false);
      st.executeQuery("SELECT * FROM window_lock WHERE id = 1 FOR UPDATE").close();
      CompletableFuture<Integer> update =
          CompletableFuture.supplyAsync(
              () -> {
                try (Statement u = waiter.createStatement()) {
                  return u.executeUpdate("UPDATE window_lock SET n = n + 1 WHERE id = 1");
                } catch (SQLException e) {
                  throw new IllegalStateException(e);
                }
              });
      until(w, "Lock:transactionid", () -> Thread.sleep(10));
      holder.commit();
      assertEquals(1, update.get(60, TimeUnit.SECONDS));
      ServerSide s = w.finish();
      assertEquals("Lock", share(s.waits(), "Lock:transactionid").kind(), "waits: " + s.waits());
      assertNotNull(share(s.waits(), "idle in transaction"), "the holder: " + s.waits());
      holder.setAutoCommit(true);
      st.execute("DROP TABLE window_lock");
    }
  }

  @Test
  void statementsCallsReconcileWithWhatRan() throws Exception {
    assumeTrue(hasStatements(), "the test server has pg_stat_statements (the embedded one does)");
    try (Connection client = connect(TestServer.url());
        Statement st = client.createStatement()) {
      st.execute("DROP TABLE IF EXISTS window_calls");
      st.execute("CREATE TABLE window_calls (id int PRIMARY KEY, v text)");
      st.execute("INSERT INTO window_calls SELECT g, 'v' || g FROM generate_series(1, 100) g");
      ServerWindow w =
          ServerWindow.start(() -> connect(TestServer.url()), Set.of(pid(client)), EVERY);
      try (PreparedStatement ps =
          client.prepareStatement("SELECT v FROM window_calls WHERE id = ?")) {
        for (int i = 1; i <= 25; i++) {
          ps.setInt(1, i);
          ps.executeQuery().close();
        }
      }
      st.executeUpdate("UPDATE window_calls SET v = v || 'x' WHERE id <= 7");
      ServerSide s = w.finish();
      ServerSide.StatementFigures lookup = statement(s, "FROM window_calls WHERE id =");
      assertEquals(25, lookup.calls());
      assertEquals(25, lookup.rows());
      ServerSide.StatementFigures update = statement(s, "UPDATE window_calls");
      assertEquals(1, update.calls());
      assertEquals(7, update.rows());
      assertNull(statement(s, "CREATE TABLE window_calls"), "before the window: not in it");
      assertNotNull(s.database(), s.databaseWhy());
      st.execute("DROP TABLE window_calls");
    }
  }

  /**
   * What the socket counted (server.wire: CommandComplete messages and their row counts) and what
   * the server counted (pg_stat_statements' calls and rows) agree over a window: 10 lookups, a
   * 100-row batch and an UPDATE of 7 rows.
   */
  @Test
  void statementsCountedAtTheSocketReconcileWithTheServersCalls() throws Exception {
    assumeTrue(hasStatements(), "the test server has pg_stat_statements (the embedded one does)");
    java.util.Properties p = new java.util.Properties();
    dev.wg1bench.server.wire.WireSocketFactory.install(p, TestServer.url());
    try (Connection client = new org.postgresql.Driver().connect(TestServer.url(), p);
        Statement st = client.createStatement()) {
      st.execute("DROP TABLE IF EXISTS window_reconcile");
      st.execute("CREATE TABLE window_reconcile (id int PRIMARY KEY, v int)");
      st.execute("INSERT INTO window_reconcile SELECT g, 0 FROM generate_series(1, 10) g");
      dev.wg1bench.server.wire.WireMark m = new dev.wg1bench.server.wire.WireMark();
      m.take(dev.wg1bench.server.wire.Wire.of(client));
      ServerWindow w =
          ServerWindow.start(() -> connect(TestServer.url()), Set.of(pid(client)), EVERY);
      try (PreparedStatement ps =
          client.prepareStatement("SELECT v FROM window_reconcile WHERE id = ?")) {
        for (int i = 1; i <= 10; i++) {
          ps.setInt(1, i);
          ps.executeQuery().close();
        }
      }
      try (PreparedStatement ps =
          client.prepareStatement("INSERT INTO window_reconcile VALUES (?, 1)")) {
        for (int i = 11; i <= 110; i++) {
          ps.setInt(1, i);
          ps.addBatch();
        }
        ps.executeBatch();
      }
      st.executeUpdate("UPDATE window_reconcile SET v = v + 1 WHERE id <= 7");
      ServerSide s = w.finish();
      List<ServerSide.StatementFigures> ours =
          s.statements().stream().filter(f -> f.query().contains("window_reconcile")).toList();
      assertEquals(111, m.statements(), "counted at the socket");
      assertEquals(
          m.statements(), ours.stream().mapToLong(ServerSide.StatementFigures::calls).sum());
      assertEquals(10 + 100 + 7, m.commandRows());
      assertEquals(
          m.commandRows(), ours.stream().mapToLong(ServerSide.StatementFigures::rows).sum());
      st.execute("DROP TABLE window_reconcile");
    }
  }

  @Test
  void aDatabaseWithoutPgStatStatementsIsOneLineAndNoFigures() throws Exception {
    try (Connection admin = connect(TestServer.url());
        Statement st = admin.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS window_nostatements");
      st.execute("CREATE DATABASE window_nostatements TEMPLATE template0");
      try {
        String url = TestServer.url().replaceFirst("/postgres(\\?|$)", "/window_nostatements$1");
        ServerWindow w = ServerWindow.start(() -> connect(url), Set.of(pid(admin)), EVERY);
        ServerSide s = w.finish();
        assertNull(s.statements());
        assertTrue(
            s.statementsWhy().startsWith("pg_stat_statements is not installed"), s.statementsWhy());
        assertTrue(!s.statementsWhy().contains("\n"));
        assertNull(s.serverMsPerOp(10), "unknown, not zero");
        assertNull(s.waitSampling());
        assertTrue(s.waitSamplingWhy().startsWith("pg_wait_sampling is not installed"));
        assertNotNull(s.database(), "the database's counters hold without the extension");
      } finally {
        st.execute("DROP DATABASE IF EXISTS window_nostatements WITH (FORCE)");
      }
    }
  }

  @Test
  void pidsThatAreNotTheServersAreOneLineAndNoWaits() throws Exception {
    ServerWindow w =
        ServerWindow.start(() -> connect(TestServer.url()), Set.of(2_000_000_000), EVERY);
    long deadline = System.nanoTime() + DEADLINE_NANOS;
    while (w.samples() < 3) {
      assertTrue(System.nanoTime() < deadline, "no sample within 60 s");
      Thread.sleep(10);
    }
    ServerSide s = w.finish();
    assertNull(s.waits());
    assertTrue(s.waitsWhy().startsWith("none of the clients' backend pids"), s.waitsWhy());
  }

  /**
   * Behind a session-mode pooler the pids given are the clients' server sessions (read through the
   * pooler): sampled on the direct opener's connection, the window's own on the other; a client's
   * sleep is seen, and the waits' line is where the pids came from.
   */
  @Test
  void behindASessionPoolerTheServerSessionsAreSampledDirectly() throws Exception {
    java.util.concurrent.atomic.AtomicInteger direct =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger pooled =
        new java.util.concurrent.atomic.AtomicInteger();
    try (Connection client = connect(TestServer.url());
        Statement st = client.createStatement()) {
      ServerWindow w =
          ServerWindow.throughSessionPooler(
              () -> {
                pooled.incrementAndGet();
                return connect(TestServer.url());
              },
              () -> {
                direct.incrementAndGet();
                return connect(TestServer.url());
              },
              Set.of(pid(client)),
              "where the pids came from",
              EVERY);
      until(w, "Timeout:PgSleep", () -> st.execute("SELECT pg_sleep(0.05)"));
      ServerSide s = w.finish();
      assertNotNull(s.waits(), s.waitsWhy());
      assertEquals("where the pids came from", s.waitsWhy());
      assertEquals(1, direct.get());
      assertEquals(1, pooled.get());
    }
  }

  /**
   * Behind a pooler no pid is sampled and the mode's line says why, while the statements are still
   * read (here the window's connections go straight to the server, as a session-mode pooler's would
   * reach it): the clients' statement, its calls all counted.
   */
  @Test
  void throughAPoolerTheWaitsAreTheModesLineAndTheStatementsStay() throws Exception {
    assumeTrue(hasStatements(), "the test server has pg_stat_statements (the embedded one does)");
    try (Connection client = connect(TestServer.url());
        // a statement of its own shape: pg_stat_statements keys by the normalised tree, not the
        // alias, and keeps the first text it saw, so ServerWindowRightsTest's "SELECT md5('x') AS
        // window_plain_other" run first in the same JVM named this one's entry (a CI run)
        PreparedStatement q =
            client.prepareStatement("SELECT md5('p') || 'pooled' AS window_pooled")) {
      ServerWindow w =
          ServerWindow.throughPooler(
              () -> connect(TestServer.url()),
              "pgbouncer:transaction,max_prepared_statements=0",
              EVERY);
      for (int i = 0; i < 7; i++) {
        q.executeQuery().close();
      }
      ServerSide s = w.finish();
      assertNull(s.waits());
      assertEquals(0, s.samples());
      assertEquals(
          "through pgbouncer in transaction mode the clients' backends are the pooler's (a client's"
              + " transactions run on whichever server connection is free)",
          s.waitsWhy());
      assertEquals(s.waitsWhy(), s.waitSamplingWhy());
      assertEquals(7, statement(s, "window_pooled").calls(), "statements: " + s.statements());
    }
    assertEquals(
        "through pgbouncer in session mode the backend pid a client is told is PgBouncer's, not its"
            + " server connection's",
        ServerWindow.poolerWhy("pgbouncer:session"));
  }

  @Test
  void anUnreachableServerFailsNothing() {
    ServerWindow w =
        ServerWindow.start(
            () -> {
              throw new SQLException("connection refused");
            },
            Set.of(1),
            EVERY);
    ServerSide s = w.finish();
    assertNull(s.statements());
    assertNull(s.waits());
    assertNull(s.database());
    assertEquals("the server's side was not read: connection refused", s.databaseWhy());
  }

  @Test
  void aSessionsRowIsNamedByItsStateAndWait() {
    assertEquals("CPU", WaitSampler.name("active", null, null));
    assertEquals("Client:ClientRead", WaitSampler.name("idle", "Client", "ClientRead"));
    assertEquals(
        "idle in transaction", WaitSampler.name("idle in transaction", "Client", "ClientRead"));
    assertEquals(
        "idle in transaction",
        WaitSampler.name("idle in transaction (aborted)", "Client", "ClientRead"));
    assertEquals("Lock:tuple", WaitSampler.name("active", "Lock", "tuple"));
    assertEquals("idle", WaitSampler.name("idle", null, null));
    assertEquals("unknown", WaitSampler.name(null, null, null));
    assertEquals("LWLock", WaitSampler.kind("LWLock:WALWrite"));
    assertEquals("CPU", WaitSampler.kind("CPU"));
  }
}
