package dev.wg1bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.run.RunStage;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.Plans;
import dev.wg1bench.support.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
      Map.ofEntries(
          Map.entry("tpcb", WorkloadDataTest::balancesAgree),
          Map.entry("select_only", WorkloadDataTest::nothingWritten),
          Map.entry("select_range", WorkloadDataTest::nothingWritten),
          Map.entry("simple_update", WorkloadDataTest::accountsAgreeWithHistory),
          Map.entry("update1", m -> updatedRandomAccounts(m, 1)),
          Map.entry("write1", m -> updatedRandomAccounts(m, 10)),
          Map.entry("write10", m -> updatedRandomAccounts(m, 10)),
          Map.entry("rr_write10", m -> updatedRandomAccounts(m, 10)),
          Map.entry("insert8", WorkloadDataTest::insertedEightRowOps),
          Map.entry("insert8_multirow", WorkloadDataTest::insertedEightRowOps),
          Map.entry("insert_batch", WorkloadDataTest::insertedEightRowOps),
          Map.entry("insert_multirow", WorkloadDataTest::insertedEightRowOps),
          Map.entry("insert_copy", WorkloadDataTest::insertedEightRowOps));

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
    return new RunStage(quiet, false)
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

  /** simple_update: the tpcb rule for accounts and history; tellers and branches untouched. */
  static void accountsAgreeWithHistory(Measurement m) throws SQLException {
    long accounts = PgbenchData.scalar("SELECT coalesce(sum(abalance), 0) FROM pgbench_accounts");
    long history = PgbenchData.scalar("SELECT coalesce(sum(delta), 0) FROM pgbench_history");
    assertEquals(history, accounts, "sum(abalance) vs sum(history.delta)");
    assertEquals(0, PgbenchData.scalar("SELECT coalesce(sum(tbalance), 0) FROM pgbench_tellers"));
    assertEquals(0, PgbenchData.scalar("SELECT coalesce(sum(bbalance), 0) FROM pgbench_branches"));
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
   * Inserts: 8 rows per committed op, each op's rows sharing tid, bid, aid and mtime (the
   * transaction's start) with deltas d, d+1, ..., d+7. Two ops may share all four keys (two
   * transactions can start in the same microsecond), so each group must split into whole runs of 8
   * consecutive deltas; a partial op cannot.
   */
  static void insertedEightRowOps(Measurement m) throws SQLException {
    assertEquals(m.totalOps() * 8, PgbenchData.historyRows(), "rows = committed ops x 8");
    List<String> bad = new ArrayList<>();
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT tid, bid, aid, mtime, array_agg(delta ORDER BY delta) FROM pgbench_history"
                    + " GROUP BY tid, bid, aid, mtime")) {
      while (rs.next()) {
        Integer[] deltas = (Integer[]) rs.getArray(5).getArray();
        if (!wholeRunsOfEight(deltas)) {
          bad.add(rs.getString(3) + "@" + rs.getString(4) + ": " + Arrays.toString(deltas));
        }
      }
    }
    assertTrue(bad.isEmpty(), "groups that are not whole ops: " + bad);
  }

  /** Whether sorted deltas split into runs x, x+1, ..., x+7 (greedy from the smallest). */
  static boolean wholeRunsOfEight(Integer[] sorted) {
    TreeMap<Integer, Integer> left = new TreeMap<>();
    for (Integer d : sorted) {
      left.merge(d, 1, Integer::sum);
    }
    while (!left.isEmpty()) {
      int x = left.firstKey();
      for (int k = 0; k < 8; k++) {
        Integer n = left.get(x + k);
        if (n == null) {
          return false;
        }
        if (n == 1) {
          left.remove(x + k);
        } else {
          left.put(x + k, n - 1);
        }
      }
    }
    return true;
  }
}
