package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Deadlocks whose victim is chosen by time. Two clients update rows 1 and 2 in opposite orders, so
 * each round is a deadlock; the server fails the backend whose check, {@code deadlock_timeout}
 * after it began to wait, first finds the cycle. In odd rounds client b closes the cycle at once,
 * and a, which waited first, checks first: a is the victim (unless the machine held b past a's
 * check; the capture takes whichever victim the server chose). In even rounds b closes it only
 * after a's check has run (its "still waiting" line is in the log): b is the victim. A replay that
 * sends the statements as logged gets the first shape's victim right only by the server's timing
 * and the second's wrong (a waits first and checks first), and every outcome after a wrong victim
 * differs. The replay must fail each round's logged victim, leave the capture's balances (each
 * update multiplies, so their order shows), and let no wait go on a lock cycle, on a target with
 * the capture's deadlock_timeout and on one whose deadlock_timeout is 1 ms. Client b's closing
 * statement pauses before its lock wait, so a victim sent as soon as its partner is sent would
 * check before the cycle closes: the replay must see the partner waiting first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplayDeadlockTest {
  private static final int ROUNDS = 6;

  /**
   * Seconds client b's closing statement spends before its lock wait: above the replay's victims'
   * check (5 ms), below the other statements' (100 ms).
   */
  private static final String PARTNER_PAUSE = "0.02";

  /** The capture server's deadlock_timeout: far above the time between the clients' steps. */
  private static final String TIMEOUT = "300ms";

  @TempDir static Path dir;
  private EmbeddedPostgres pg;
  private Path live;
  private Path log;
  private List<Long> captured;

  @BeforeAll
  void capture() throws Exception {
    Path data = Files.createTempDirectory("wg1bench-deadlocks-");
    pg = CapturingServer.start(data, Map.of("deadlock_timeout", TIMEOUT, "log_lock_waits", "on"));
    run("postgres", "CREATE DATABASE app");
    run(
        "app",
        "CREATE TABLE acct (id int PRIMARY KEY, bal bigint NOT NULL)",
        "INSERT INTO acct VALUES (1, 1), (2, 1)");
    run(
        "postgres",
        "CREATE DATABASE app_max TEMPLATE app",
        "CREATE DATABASE app_1 TEMPLATE app",
        "CREATE DATABASE app_low TEMPLATE app");
    // a target whose own deadlock_timeout is shorter than the replay's victims' check
    run("postgres", "ALTER DATABASE app_low SET deadlock_timeout = '1ms'");
    live = CapturingServer.log(data);
    clients();
    captured = rows("app");
    // the logging collector writes asynchronously: the driver's first session, both clients'
    // and the watcher's (the tool's own are not read)
    ReplayCaptureTest.awaitLogged(live, 4);
    log = Files.copy(live, dir.resolve("deadlocks.csv"));
  }

  @AfterAll
  void stop() throws Exception {
    if (pg != null) {
      pg.close();
    }
  }

  private void clients() throws Exception {
    ExecutorService other = Executors.newFixedThreadPool(2);
    try (Connection a = connect("app", "client-a");
        Connection b = connect("app", "client-b");
        Connection watch = connect("postgres", "watcher");
        Statement sa = a.createStatement();
        Statement sb = b.createStatement()) {
      int aPid = pid(sa);
      for (int k = 1; k <= ROUNDS; k++) {
        sa.execute("BEGIN");
        sa.execute(update(1, k));
        sb.execute("BEGIN");
        sb.execute(update(2, k));
        // a statement whose end the order keeps (OrderedEvents): an UPDATE's inside a block orders
        // no other start, and the replay keeps the order starts are sent in, not the order they
        // reach the server in, so a's UPDATE of row 2, sent just after b's, could get there first
        sb.execute("SELECT txid_current()");
        String aSecond = update(2, k + 100);
        // b's closing statement reaches its lock wait only after a pause of its own: a victim
        // sent as soon as it is would check before the cycle closes, find none and not check
        // again, and b's own check would then end the cycle the other way
        String bSecond = update(1, k + 200) + " AND pg_sleep(" + PARTNER_PAUSE + ") IS NOT NULL";
        int checked = stillWaiting(aPid);
        Future<?> aWaits = other.submit(() -> sa.execute(aSecond));
        CapturingServer.awaitLockWait(watch, "client-a");
        if (k % 2 == 0) {
          awaitStillWaiting(aPid, checked + 1);
        }
        Future<?> bWaits = other.submit(() -> sb.execute(bSecond));
        // the server chose the victim: whichever it was, the log says so, and the replay must fail
        // the same one
        boolean aFailed = failedOnDeadlock(aWaits);
        boolean bFailed = failedOnDeadlock(bWaits);
        assertTrue(aFailed != bFailed, "one victim a round: a " + aFailed + ", b " + bFailed);
        (aFailed ? sa : sb).execute("ROLLBACK");
        (aFailed ? sb : sa).execute("COMMIT");
      }
    } finally {
      other.shutdownNow();
    }
  }

  /** An update whose result depends on the order updates of the row ran in. */
  private static String update(int id, int k) {
    return "UPDATE acct SET bal = (bal * 7 + " + k + ") % 1000003 WHERE id = " + id;
  }

  private static int pid(Statement st) throws SQLException {
    try (ResultSet r = st.executeQuery("SELECT pg_backend_pid()")) {
      r.next();
      return r.getInt(1);
    }
  }

  /** Whether the statement failed on a deadlock (40P01); false when it went through. */
  private static boolean failedOnDeadlock(Future<?> statement) throws Exception {
    try {
      statement.get(30, TimeUnit.SECONDS);
      return false;
    } catch (ExecutionException e) {
      assertEquals("40P01", ((SQLException) e.getCause()).getSQLState(), e.toString());
      return true;
    }
  }

  /** How many times the log shows client a's deadlock check finding no cycle ("still waiting"). */
  private int stillWaiting(int aPid) throws Exception {
    if (!Files.exists(live)) {
      return 0;
    }
    Matcher m =
        Pattern.compile("process " + aPid + " still waiting for ")
            .matcher(Files.readString(live, StandardCharsets.UTF_8));
    int seen = 0;
    while (m.find()) {
      seen++;
    }
    return seen;
  }

  /**
   * Until the log shows client a's deadlock check for the {@code n}-th time finding no cycle
   * (log_lock_waits), under a deadline: a will not check again while it waits.
   */
  private void awaitStillWaiting(int aPid, int n) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (stillWaiting(aPid) >= n) {
        return;
      }
      Thread.sleep(5);
    }
    throw new AssertionError("client a's deadlock check never logged");
  }

  private Connection connect(String db, String app) throws SQLException {
    return CapturingServer.connect(pg, db, app);
  }

  private void run(String db, String... sql) throws SQLException {
    CapturingServer.run(pg, db, sql);
  }

  /** The balances the clients leave. */
  private List<Long> rows(String db) throws SQLException {
    try (Connection c = connect(db, "wg1bench");
        Statement st = c.createStatement();
        ResultSet r = st.executeQuery("SELECT bal FROM acct ORDER BY id")) {
      r.next();
      long one = r.getLong(1);
      r.next();
      return List.of(one, r.getLong(1));
    }
  }

  @ParameterizedTest
  @CsvSource({"max, app_max", "1, app_1", "max, app_low"})
  void eachDeadlockFailsTheCapturesVictim(String speed, String db) throws Exception {
    Path out = dir.resolve("deadlocks-" + db + ".json");
    Cli r =
        Cli.run(
            "replay",
            log.toString(),
            "--database",
            "app",
            "--target",
            "jdbc:postgresql://localhost:" + pg.getPort() + "/" + db + "?user=postgres",
            "--speed",
            speed,
            "--progress",
            "1h",
            "-o",
            out.toString());
    JsonNode result = Json.MAPPER.readTree(out.toFile());
    JsonNode f = result.get("statementFidelity");
    JsonNode order = result.get("order");
    // under a target's 1 ms every session checks late, not only the cycles' other statements
    assertEquals(
        db.equals("app_low"), r.out.contains("every replayed session runs with 100 ms"), r.out);
    assertEquals(ROUNDS, countVictims(), "the log's victims");
    assertEquals(0, f.get("divergent").asLong(), f + " " + order);
    JsonNode d = order.get("deadlocks");
    assertEquals(ROUNDS, d.get("cycles").asLong(), order.toString());
    assertEquals(ROUNDS, d.get("victimsSteered").asLong(), order.toString());
    assertEquals(0, d.get("partnersUnseen").asLong(), "victims sent before b waited " + order);
    assertEquals(0, d.get("raced").asLong(), "six deadlocks, none after another: " + order);
    assertEquals(0, d.get("newcomers").asLong(), "two clients: no third takes a row " + order);
    assertEquals(0, order.get("lockCycles").asLong(), "waits let go on a lock cycle: " + order);
    assertTrue(order.get("broken").isEmpty(), order.toString());
    assertEquals(0, r.exit, r.toString());
    assertEquals(captured, rows(db), "final balances against the capture's");
  }

  /** The deadlock errors the capture logged: one a round. */
  private long countVictims() throws Exception {
    return Files.readAllLines(log, StandardCharsets.UTF_8).stream()
        .filter(l -> l.contains(",ERROR,40P01,"))
        .count();
  }
}
