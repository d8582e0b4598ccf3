package dev.wg1bench.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.wg1bench.result.CommandStats;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * How an application's tests use wg1bench: run a workload against a server and assert on
 * throughput, latency and failures. The same scenario runs on the embedded server, on the
 * application's own pool (a DataSource), and on a Testcontainers PostgreSQL where Docker exists
 * ({@link ContainerScenarioTest}).
 */
class ApiExampleTest {
  /** The scenario every target must pass: tpcb at 4 clients, prepared, no failed op. */
  static Wg1bench scenario() {
    return Wg1bench.workload("tpcb")
        .clients(4)
        .queryMode(QueryMode.PREPARED)
        .duration(Duration.ofMillis(1500))
        .warmup(Duration.ofMillis(300))
        .iterations(3);
  }

  /**
   * What the tool guarantees of a healthy run, whatever the machine: ops measured, a latency
   * recorded, none failed. An application's own test would add its service levels here (a tps
   * floor, a p99 ceiling), on the machine those levels were set for.
   */
  static void assertHealthy(Wg1bench.Result r) {
    var m = EngineRecords.of(r).trials().get(0).measurement();
    assertTrue(m.ops() > 0, "ops measured: " + m.ops());
    // tps is the measured ops over the measured time, and the whole trial holds the window's ops
    assertEquals(m.ops() / m.measuredSeconds(), r.tps(), 1e-9 * r.tps());
    assertTrue(r.committedOps() >= m.ops(), r.committedOps() + " < " + m.ops());
    assertTrue(r.p99Ms() > 0, "p99 " + r.p99Ms());
    assertEquals(0, r.failedOps());
  }

  @Test
  void onTheEmbeddedServer() {
    Wg1bench.Result r = scenario().againstEmbedded().run();
    assertHealthy(r);
    assertEquals("embedded", EngineRecords.of(r).trials().get(0).targetKind());
  }

  @Test
  void onTheApplicationsOwnPool() throws Exception {
    try (HikariDataSource app = TestServer.applicationPool(4)) {
      Wg1bench.Result r = scenario().initPgbench(1).reportPerCommand(true).against(app).run();
      assertHealthy(r);
      // -r through the API, pooled: each of tpcb's commands completed once per measured op
      Measurement m = EngineRecords.of(r).trials().get(0).measurement();
      for (CommandStats c : m.scripts().get(0).commands()) {
        assertEquals(m.ops(), c.count(), c.text());
      }
      // and the books balance: what the workload did to the data
      assertEquals(r.committedOps(), PgbenchData.historyRows());
      assertEquals(
          PgbenchData.scalar("SELECT sum(delta) FROM pgbench_history"),
          PgbenchData.scalar("SELECT sum(abalance) FROM pgbench_accounts"));
    }
  }
}
