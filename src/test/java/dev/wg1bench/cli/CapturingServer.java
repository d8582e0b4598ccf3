package dev.wg1bench.cli;

import dev.wg1bench.load.PgbenchLoader;
import dev.wg1bench.server.EmbeddedServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An embedded server with PostgreSQL's own defaults that logs what a replay reads: every statement
 * with its duration, connections and disconnections, in csvlog to {@code log/capture.csv} under its
 * data directory.
 */
final class CapturingServer {
  private CapturingServer() {}

  /** Starts one in {@code data} (emptied first), with {@code more} settings over the capture's. */
  static EmbeddedPostgres start(Path data, Map<String, String> more) throws IOException {
    Map<String, String> settings = new LinkedHashMap<>(EmbeddedServer.STOCK_SETTINGS);
    settings.putAll(
        Map.of(
            "logging_collector", "on",
            "log_destination", "csvlog",
            "log_directory", "log",
            "log_filename", "capture.log",
            "log_statement", "all",
            "log_min_duration_statement", "0",
            "log_connections", "on",
            "log_disconnections", "on"));
    settings.putAll(more);
    EmbeddedPostgres.Builder b = EmbeddedPostgres.builder();
    settings.forEach(b::setServerConfig);
    b.setDataDirectory(data).setCleanDataDirectory(true);
    b.setPGStartupWait(Duration.ofSeconds(60));
    return b.start();
  }

  /**
   * A client of the server as an application's: simple query mode (literals in the log, as
   * pgbench's -M simple writes them), named {@code app}; "wg1bench" names the tool's own, which a
   * capture leaves out.
   */
  static Connection connect(EmbeddedPostgres pg, String db, String app) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("ApplicationName", app);
    p.setProperty("preferQueryMode", "simple");
    return DriverManager.getConnection("jdbc:postgresql://localhost:" + pg.getPort() + "/" + db, p);
  }

  /** Runs each statement in {@code db} as the tool's own session. */
  static void run(EmbeddedPostgres pg, String db, String... sql) throws SQLException {
    try (Connection c = connect(pg, db, "wg1bench");
        Statement st = c.createStatement()) {
      for (String s : sql) {
        st.execute(s);
      }
    }
  }

  /**
   * Creates database app with pgbench's tables at scale 1, and a copy of it as it is now, app_NAME,
   * for each name: the replays' targets as the capture began.
   */
  static void pgbenchApp(EmbeddedPostgres pg, String... copies) throws SQLException {
    run(pg, "postgres", "CREATE DATABASE app");
    try (Connection c = connect(pg, "app", "wg1bench")) {
      PgbenchLoader.init(c, 1, 100, true, null);
    }
    for (String name : copies) {
      run(pg, "postgres", "CREATE DATABASE app_" + name + " TEMPLATE app");
    }
  }

  /** One transaction of a client, run on its own statement with its own seeded random. */
  interface Transaction {
    void run(Statement st, Random random) throws Exception;
  }

  /**
   * Runs {@code clients} clients at once in {@code db}, each an application's session seeded by its
   * number running {@code transactions} transactions back to back; returns the errors they met
   * (none expected).
   */
  static List<Throwable> clients(
      EmbeddedPostgres pg, String db, int clients, int transactions, Transaction body)
      throws InterruptedException {
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failed = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      Random random = new Random(i);
      Thread t =
          new Thread(
              () -> {
                try (Connection c = connect(pg, db, "test-client");
                    Statement st = c.createStatement()) {
                  go.await();
                  for (int n = 0; n < transactions; n++) {
                    body.run(st, random);
                  }
                } catch (Exception e) {
                  synchronized (failed) {
                    failed.add(e);
                  }
                }
              });
      t.start();
      threads.add(t);
    }
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    return failed;
  }

  /** The csvlog file such a server writes. */
  static Path log(Path data) {
    return data.resolve("log").resolve("capture.csv");
  }

  /** Until the server shows the client named {@code app} waiting for a lock, under a deadline. */
  static void awaitLockWait(Connection watch, String app) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    try (Statement st = watch.createStatement()) {
      while (System.nanoTime() < deadline) {
        try (ResultSet r =
            st.executeQuery(
                "SELECT count(*) FROM pg_stat_activity"
                    + " WHERE application_name = '"
                    + app
                    + "' AND wait_event_type = 'Lock'")) {
          r.next();
          if (r.getLong(1) == 1) {
            return;
          }
        }
        Thread.onSpinWait();
      }
    }
    throw new AssertionError(app + " never waited for a lock");
  }
}
