package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * An INSERT that waits for a key another session's open transaction deleted: a child row whose
 * parent is being deleted waits, then fails the foreign key (23503); a row whose key is being
 * deleted waits, then goes in. Neither INSERT can wait for a row lock in the text's sense (it has
 * no grant), and the DELETE it waited for ended inside its block, before the INSERT started: the
 * replay must hold the INSERT until that DELETE has ended, or at --speed max the INSERT may run
 * first and take the key (the child row goes in, the parent's DELETE then waits for it: a lock
 * cycle through the order, and two outcomes that are not the log's).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplayKeyLocksTest {
  private static final int PAIRS = 20;

  @TempDir static Path dir;
  private EmbeddedPostgres pg;
  private Path log;
  private List<Long> captured;

  @BeforeAll
  void capture() throws Exception {
    Path data = Files.createTempDirectory("wg1bench-key-locks-");
    pg = CapturingServer.start(data, Map.of());
    run("postgres", "CREATE DATABASE app");
    run(
        "app",
        "CREATE TABLE parent (id int PRIMARY KEY)",
        "CREATE TABLE child (id serial, pid int REFERENCES parent)",
        "INSERT INTO parent SELECT generate_series(1, 100)");
    run("postgres", "CREATE DATABASE app_max TEMPLATE app");
    clients();
    captured = rows("app");
    Path live = CapturingServer.log(data);
    // the logging collector writes asynchronously: the driver's first session, both clients'
    // and the watcher's (the tool's own are not read)
    ReplayCaptureTest.awaitLogged(live, 4);
    log = Files.copy(live, dir.resolve("key-locks.csv"));
  }

  @AfterAll
  void stop() throws Exception {
    if (pg != null) {
      pg.close();
    }
  }

  /**
   * Client a deletes key k inside its block; once that DELETE is back, client b inserts a child of
   * k (odd k) or the key k itself (even k) and waits for a's lock; once the server shows b waiting,
   * a commits.
   */
  private void clients() throws Exception {
    ExecutorService other = Executors.newSingleThreadExecutor();
    try (Connection a = connect("app", "client-a");
        Connection b = connect("app", "client-b");
        Connection watch = connect("postgres", "watcher");
        Statement sa = a.createStatement();
        Statement sb = b.createStatement()) {
      for (int k = 1; k <= PAIRS; k++) {
        sa.execute("BEGIN");
        sa.execute("DELETE FROM parent WHERE id = " + k);
        String insert =
            k % 2 == 1
                ? "INSERT INTO child (pid) VALUES (" + k + ")"
                : "INSERT INTO parent VALUES (" + k + ")";
        sb.execute("BEGIN");
        Future<?> waited = other.submit(() -> sb.execute(insert));
        CapturingServer.awaitLockWait(watch, "client-b");
        sa.execute("COMMIT");
        if (k % 2 == 1) {
          Exception e = assertThrows(Exception.class, () -> waited.get(30, TimeUnit.SECONDS));
          assertEquals("23503", ((SQLException) e.getCause()).getSQLState(), e.toString());
          sb.execute("ROLLBACK");
        } else {
          waited.get(30, TimeUnit.SECONDS);
          sb.execute("COMMIT");
        }
      }
    } finally {
      other.shutdownNow();
    }
  }

  private Connection connect(String db, String app) throws SQLException {
    return CapturingServer.connect(pg, db, app);
  }

  private void run(String db, String... sql) throws SQLException {
    CapturingServer.run(pg, db, sql);
  }

  /** What the clients leave: parent rows, their sum, child rows. */
  private List<Long> rows(String db) throws SQLException {
    try (Connection c = connect(db, "wg1bench");
        Statement st = c.createStatement();
        ResultSet r =
            st.executeQuery(
                "SELECT (SELECT count(*) FROM parent), (SELECT sum(id) FROM parent),"
                    + " (SELECT count(*) FROM child)")) {
      r.next();
      return List.of(r.getLong(1), r.getLong(2), r.getLong(3));
    }
  }

  @Test
  void theCaptureIsWhatTheClientsDid() {
    // odd keys deleted for good, even ones deleted and put back; no child went in
    long odd = (long) PAIRS * PAIRS / 4;
    assertEquals(List.of(100L - PAIRS / 2, 5050L - odd, 0L), captured);
  }

  @Test
  void atSpeedMaxEachInsertWaitsForTheDeleteItWaitedForInTheCapture() throws Exception {
    Path out = dir.resolve("key-locks.json");
    Cli r =
        Cli.run(
            "replay",
            log.toString(),
            "--database",
            "app",
            "--target",
            "jdbc:postgresql://localhost:" + pg.getPort() + "/app_max?user=postgres",
            "--speed",
            "max",
            "--progress",
            "1h",
            "-o",
            out.toString());
    JsonNode result = Json.MAPPER.readTree(out.toFile());
    JsonNode f = result.get("statementFidelity");
    JsonNode order = result.get("order");
    assertEquals(0, f.get("divergent").asLong(), f + " " + order);
    assertEquals(0, order.get("lockCycles").asLong(), "waits let go on a lock cycle: " + order);
    assertEquals(0, r.exit, r.toString());
    assertEquals(captured, rows("app_max"), "final rows against the capture's");
  }
}
