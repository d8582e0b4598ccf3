package dev.wg1bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.Bench;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.Plans;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Contract test over every registered workload, in every query mode: a short run on a real server,
 * then a check of what the workload did to the data. A new workload without a data check here fails
 * {@link #everyWorkloadHasADataCheck()}.
 */
class WorkloadDataTest {
  /** What a workload must have done, given its measured result. */
  interface DataCheck {
    void verify(Measurement m) throws SQLException;
  }

  static final Map<String, DataCheck> CHECKS =
      Map.of(
          "tpcb", WorkloadDataTest::balancesAgree,
          "select_only", WorkloadDataTest::nothingWritten,
          "select_range", WorkloadDataTest::nothingWritten,
          "update1", m -> updatedRandomAccounts(m, 1),
          "write1", m -> updatedRandomAccounts(m, 10),
          "write10", m -> updatedRandomAccounts(m, 10),
          "rr_write10", m -> updatedRandomAccounts(m, 10),
          "insert8", WorkloadDataTest::insertedEightRowOps,
          "insert8_multirow", WorkloadDataTest::insertedEightRowOps);

  @TempDir Path tmp;

  @Test
  void everyWorkloadHasADataCheck() {
    for (Workload w : pgbenchFamily()) {
      assertNotNull(CHECKS.get(w.name()), "no data check for workload " + w.name());
    }
  }

  /** The SSB queries are read-only and checked by their result digests in SsbLoadTest. */
  static List<Workload> pgbenchFamily() {
    return WorkloadRegistry.all().stream().filter(w -> w.schema() != Workload.Schema.SSB).toList();
  }

  static Stream<Arguments> workloadsAndModes() {
    List<Arguments> out = new ArrayList<>();
    for (Workload w : pgbenchFamily()) {
      for (QueryMode m : QueryMode.values()) {
        out.add(Arguments.of(w.name(), m));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} -M {1}")
  @MethodSource("workloadsAndModes")
  void workloadDoesWhatItsDefinitionSays(String name, QueryMode mode) throws SQLException {
    PgbenchData.reset();
    int clients = name.equals("rr_write10") ? 8 : 4;
    BenchmarkRun run = run(name, clients, mode);
    Measurement m = run.trials().get(0).measurement();
    assertTrue(m.ops() > 0, name + " measured no successful op");
    assertEquals(0, m.totalFailedOps(), name + " had failed ops: " + run.trials().get(0).errors());
    assertEquals(0, m.retries(), name + " needed retries");
    assertTrue(
        m.latencyMs().p50() > 0 && m.latencyMs().p99() >= m.latencyMs().p50(),
        "latency percentiles");
    assertTrue(m.tps() > 0);
    assertEquals(mode.cliName(), run.trials().get(0).client().queryMode());
    CHECKS.get(name).verify(m);
  }

  private BenchmarkRun run(String name, int clients, QueryMode mode) {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
    return new Bench(quiet, false)
        .run(Plans.builtin(name, clients, mode, tmp.resolve(name + ".json")));
  }

  /** tpcb: every op moved the same delta through account, teller, branch and history. */
  static void balancesAgree(Measurement m) throws SQLException {
    long accounts = PgbenchData.scalar("SELECT coalesce(sum(abalance), 0) FROM pgbench_accounts");
    long tellers = PgbenchData.scalar("SELECT coalesce(sum(tbalance), 0) FROM pgbench_tellers");
    long branches = PgbenchData.scalar("SELECT coalesce(sum(bbalance), 0) FROM pgbench_branches");
    long history = PgbenchData.scalar("SELECT coalesce(sum(delta), 0) FROM pgbench_history");
    assertEquals(history, accounts, "sum(abalance) vs sum(history.delta)");
    assertEquals(history, tellers, "sum(tbalance) vs sum(history.delta)");
    assertEquals(history, branches, "sum(bbalance) vs sum(history.delta)");
    assertEquals(m.totalOps(), PgbenchData.historyRows(), "one history row per committed op");
  }

  static void nothingWritten(Measurement m) throws SQLException {
    assertEquals(0, PgbenchData.historyRows());
    assertEquals(0, PgbenchData.changedAccounts());
    assertEquals(0, PgbenchData.scalar("SELECT coalesce(sum(abalance), 0) FROM pgbench_accounts"));
  }

  /**
   * k UPDATEs of uniformly random accounts per op: the number of distinct rows changed is at most
   * ops * k and close to its expectation N(1 - (1 - 1/N)^(ops*k)), which a workload that skipped
   * updates or reused rows would miss.
   */
  static void updatedRandomAccounts(Measurement m, int updatesPerOp) throws SQLException {
    long n = 100_000;
    long updates = m.totalOps() * updatesPerOp;
    double expected = n * (1 - Math.pow(1 - 1.0 / n, updates));
    long changed = PgbenchData.changedAccounts();
    assertTrue(
        changed <= updates, "changed " + changed + " rows with only " + updates + " updates");
    assertTrue(
        changed >= expected * 0.97,
        "changed "
            + changed
            + " rows, expected about "
            + Math.round(expected)
            + " for "
            + updates
            + " updates");
    assertEquals(0, PgbenchData.historyRows());
  }

  /**
   * Inserts: 8 rows per committed op, each op's rows sharing tid/bid/aid/mtime with deltas d..d+7.
   */
  static void insertedEightRowOps(Measurement m) throws SQLException {
    assertEquals(m.totalOps() * 8, PgbenchData.historyRows(), "rows = committed ops x 8");
    long badGroups =
        PgbenchData.scalar(
            "SELECT count(*) FROM (SELECT count(*) AS n, max(delta) - min(delta) AS spread,"
                + " count(DISTINCT delta) AS d FROM pgbench_history GROUP BY tid, bid, aid, mtime) g"
                + " WHERE n <> 8 OR spread <> 7 OR d <> 8");
    assertEquals(0, badGroups, "every op inserted deltas d, d+1, ..., d+7 with the same keys");
  }
}
