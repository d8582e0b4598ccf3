package dev.wg1bench.server.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Forks' windows as one: sums, means and shares from the sums, an unknown part unknown. */
class ServerSidesTest {
  static ServerSide.StatementFigures st(String q, long calls, double exec, Double plan, Long wal) {
    return new ServerSide.StatementFigures(
        q,
        calls,
        exec,
        exec / calls,
        plan,
        plan == null ? null : plan / calls,
        calls,
        1,
        2,
        3,
        4,
        5,
        6,
        wal);
  }

  static ServerSide.DatabaseFigures db(long commits, Long walBytes) {
    return new ServerSide.DatabaseFigures(
        commits,
        1,
        0.0,
        10,
        20,
        1,
        2,
        3,
        4,
        5,
        0,
        0,
        0,
        0,
        walBytes == null ? null : 1L,
        walBytes == null ? null : 1L,
        walBytes,
        walBytes == null ? null : 0L,
        walBytes == null ? "pg_stat_wal is PostgreSQL 14's; this server is 13" : null,
        List.of(new ServerSide.IoFigures("client backend", "relation", "normal", 1, 2, 3, 4, 5, 6)),
        null);
  }

  static ServerSide side(
      double seconds,
      List<ServerSide.StatementFigures> statements,
      String why,
      List<ServerSide.WaitShare> waits,
      ServerSide.DatabaseFigures db) {
    return new ServerSide(
        seconds,
        statements,
        why,
        waits,
        null,
        10,
        100,
        null,
        "pg_wait_sampling is not installed in this database",
        db,
        null);
  }

  @Test
  void sequentialWindowsSumAndTakeMeansAndSharesAgain() {
    ServerSide a =
        side(
            10,
            List.of(st("SELECT 1", 100, 50.0, 5.0, 1000L), st("UPDATE t", 10, 100.0, 1.0, 500L)),
            null,
            List.of(
                new ServerSide.WaitShare("CPU", "CPU", 30, 0.75),
                new ServerSide.WaitShare("Client:ClientRead", "Client", 10, 0.25)),
            db(600, 100L));
    ServerSide b =
        side(
            20,
            List.of(st("SELECT 1", 300, 250.0, null, 3000L)),
            null,
            List.of(new ServerSide.WaitShare("Client:ClientRead", "Client", 40, 1.0)),
            db(1200, 200L));
    ServerSide m = ServerSides.sequential(List.of(a, b));
    assertEquals(30, m.seconds());
    assertEquals(200, m.samples());
    ServerSide.StatementFigures select = m.statements().get(0);
    assertEquals("SELECT 1", select.query());
    assertEquals(400, select.calls());
    assertEquals(300.0, select.totalExecMs());
    assertEquals(0.75, select.meanExecMs());
    assertNull(select.totalPlanMs(), "one fork did not track planning: unknown, not 5");
    assertEquals(4000L, select.walBytes());
    assertEquals(1, m.statements().stream().filter(s -> s.query().equals("UPDATE t")).count());
    assertEquals("Client:ClientRead", m.waits().get(0).name());
    assertEquals(50.0 / 80, m.waits().get(0).share(), 1e-12);
    assertEquals(30.0 / 80, m.waits().get(1).share(), 1e-12);
    assertEquals(1800, m.database().xactCommit());
    assertEquals((1800 + 2) / 0.5, m.database().transactionsPerMinute(), 1e-9);
    assertEquals(300L, m.database().walBytes());
    assertEquals(2, m.database().io().get(0).reads());
    assertNull(m.waitSampling());
    assertEquals("pg_wait_sampling is not installed in this database", m.waitSamplingWhy());
  }

  /**
   * The block travels as JSON (a fork's report, a result file) and comes back equal, its unknown
   * figures null: through the results' mapper, which refuses a non-finite number.
   */
  @Test
  void aServerSideSurvivesTheResultsJson() throws Exception {
    ServerSide a =
        side(
            10,
            List.of(st("SELECT 1", 100, 50.0, null, 1000L)),
            null,
            List.of(new ServerSide.WaitShare("CPU", "CPU", 30, 1.0)),
            db(600, null));
    String json = dev.wg1bench.json.Json.MAPPER.writeValueAsString(a);
    assertEquals(a, dev.wg1bench.json.Json.RESULTS.readValue(json, ServerSide.class));
    assertEquals(true, json.replace(" ", "").contains("\"totalPlanMs\":null"), json);
  }

  @Test
  void aPartThatCouldNotReadMakesTheFigureUnknown() {
    ServerSide a = side(10, List.of(st("SELECT 1", 1, 1.0, null, null)), null, null, db(1, null));
    ServerSide b =
        side(10, null, "pg_stat_statements cannot be read: permission denied", null, db(1, null));
    ServerSide m = ServerSides.sequential(List.of(a, b));
    assertNull(m.statements());
    assertEquals("pg_stat_statements cannot be read: permission denied", m.statementsWhy());
    assertNull(m.serverMsPerOp(10));
    assertNull(m.database().walBytes(), "the server has no pg_stat_wal: unknown, not 0");
    assertEquals("pg_stat_wal is PostgreSQL 14's; this server is 13", m.database().walWhy());
  }
}
