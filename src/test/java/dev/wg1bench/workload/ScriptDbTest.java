package dev.wg1bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.run.RunStage;
import dev.wg1bench.server.Targets;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.Plans;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The script engine on a real server: pgbench's built-in scripts and every script printed in the
 * seeds run through {@code --script}, then their effect on the data is checked.
 */
class ScriptDbTest {
  @TempDir Path tmp;

  static ScriptSource resource(String path, int weight) {
    try (InputStream in = ScriptDbTest.class.getResourceAsStream("/" + path)) {
      String name = path.substring(path.lastIndexOf('/') + 1);
      return new ScriptSource(name, new String(in.readAllBytes(), StandardCharsets.UTF_8), weight);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private Measurement run(List<ScriptSource> scripts, int clients, QueryMode mode) {
    return run(scripts, clients, mode, null, 1, Map.of());
  }

  private Measurement run(
      List<ScriptSource> scripts,
      int clients,
      QueryMode mode,
      Isolation iso,
      int tries,
      Map<String, String> defines) {
    RunPlan p =
        Plans.plan("custom", scripts, clients, mode, iso, tries, defines, tmp.resolve("r.json"));
    BenchmarkRun r = new RunStage(new PrintStream(new ByteArrayOutputStream()), false).run(p);
    Measurement m = r.trials().get(0).measurement();
    assertTrue(m.ops() > 0, "no successful op: " + r.trials().get(0).errors());
    // -t: every client ran its ops, whatever the machine's load
    assertEquals(clients * Plans.OPS_PER_CLIENT, m.totalOps() + m.totalFailedOps(), m.toString());
    return m;
  }

  @ParameterizedTest
  @EnumSource(QueryMode.class)
  void pgbenchTpcbLikeKeepsBalances(QueryMode mode) throws SQLException {
    PgbenchData.reset();
    Measurement m = run(List.of(resource("pgbench/tpcb-like.sql", 1)), 4, mode);
    assertEquals(0, m.totalFailedOps());
    WorkloadDataTest.balancesAgree(m);
  }

  @Test
  void pgbenchSimpleUpdateAndSelectOnly() throws SQLException {
    PgbenchData.reset();
    Measurement m = run(List.of(resource("pgbench/simple-update.sql", 1)), 4, QueryMode.PREPARED);
    assertEquals(m.totalOps(), PgbenchData.historyRows());
    assertEquals(
        PgbenchData.scalar("SELECT sum(delta) FROM pgbench_history"),
        PgbenchData.scalar("SELECT sum(abalance) FROM pgbench_accounts"));
    PgbenchData.reset();
    WorkloadDataTest.nothingWritten(
        run(List.of(resource("pgbench/select-only.sql", 1)), 4, QueryMode.SIMPLE));
  }

  @ParameterizedTest
  @EnumSource(QueryMode.class)
  void seedWrite1AndWrite10AsPrinted(QueryMode mode) throws SQLException {
    PgbenchData.reset();
    WorkloadDataTest.updatedRandomAccounts(
        run(List.of(resource("seeds/write1.sql", 1)), 4, mode), 10);
    PgbenchData.reset();
    WorkloadDataTest.updatedRandomAccounts(
        run(List.of(resource("seeds/write10.sql", 1)), 4, mode), 10);
  }

  @ParameterizedTest
  @EnumSource(QueryMode.class)
  void seedReadAndUpdateTests(QueryMode mode) throws SQLException {
    PgbenchData.reset();
    for (String read : List.of("seeds/read_2015.sql", "seeds/read_2020.sql")) {
      if (mode == QueryMode.SIMPLE) {
        WorkloadDataTest.nothingWritten(run(List.of(resource(read, 1)), 2, mode));
      } else {
        failsAsInPgbench(read, mode, "operator is not unique: unknown + unknown");
      }
    }
    WorkloadDataTest.updatedRandomAccounts(
        run(List.of(resource("seeds/update_2020.sql", 1)), 2, mode), 1);
  }

  /**
   * Every op of the script fails with the error pgbench -M extended/prepared gets: variables are
   * sent as untyped text, so ":aid + :row_count" is unknown + unknown, which the server cannot
   * resolve.
   */
  private void failsAsInPgbench(String script, QueryMode mode, String error) {
    RunPlan p =
        Plans.plan(
            "custom",
            List.of(resource(script, 1)),
            2,
            mode,
            null,
            1,
            Map.of(),
            tmp.resolve("r.json"));
    BenchmarkRun r = new RunStage(new PrintStream(new ByteArrayOutputStream()), false).run(p);
    assertEquals(0, r.trials().get(0).measurement().ops());
    String errors = r.trials().get(0).errors().toString();
    assertTrue(errors.contains(error), errors);
  }

  @ParameterizedTest
  @EnumSource(QueryMode.class)
  void seedBlogInserts(QueryMode mode) throws SQLException {
    PgbenchData.reset();
    WorkloadDataTest.insertedEightRowOps(
        run(List.of(resource("seeds/blog_insert8.sql", 1)), 4, mode));
    PgbenchData.reset();
    WorkloadDataTest.insertedEightRowOps(
        run(List.of(resource("seeds/blog_insert8_multirow.sql", 1)), 4, mode));
  }

  /** The seed's literal rr_write10 uses an undefined :ccounts: rejected before any connection. */
  @Test
  void seedRrWrite10IsRejectedWithFileAndLine() {
    TargetSpec nowhere = Targets.parse("jdbc:postgresql://127.0.0.1:1/nowhere", Map.of(), null);
    RunPlan p =
        Plans.plan(
            "custom",
            List.of(resource("seeds/rr_write10_literal.sql", 1)),
            List.of(nowhere),
            4,
            QueryMode.SIMPLE,
            null,
            1,
            Map.of("num_clients", "4"),
            tmp.resolve("r.json"));
    UsageException e =
        assertThrows(
            UsageException.class,
            () -> new RunStage(new PrintStream(new ByteArrayOutputStream()), false).run(p));
    assertEquals("rr_write10_literal.sql:3: undefined variable \"ccounts\"", e.getMessage());
    RunPlan noDefine =
        Plans.plan(
            "custom",
            List.of(resource("seeds/rr_write10_literal.sql", 1)),
            List.of(nowhere),
            4,
            QueryMode.SIMPLE,
            null,
            1,
            Map.of(),
            tmp.resolve("r.json"));
    UsageException e2 =
        assertThrows(
            UsageException.class,
            () -> new RunStage(new PrintStream(new ByteArrayOutputStream()), false).run(noDefine));
    assertTrue(
        e2.getMessage().startsWith("rr_write10_literal.sql:2: undefined variable \"num_clients\""),
        e2.getMessage());
  }

  /**
   * pgbench -f a@1 -f b@3: ops split about 1:3; -D values reach the script; \sleep and \gset work.
   */
  @Test
  void weightedMixDefinesSleepAndGset() throws SQLException {
    PgbenchData.reset();
    ScriptSource a =
        new ScriptSource(
            "a.sql",
            "SELECT :marker AS m \\gset got_\n"
                + "\\sleep 1 ms\n"
                + "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, 1, :got_m, now());\n",
            1);
    ScriptSource b =
        new ScriptSource(
            "b.sql",
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (2, 1, 1, 2, now());\n",
            3);
    Measurement m = run(List.of(a, b), 2, QueryMode.EXTENDED, null, 1, Map.of("marker", "1"));
    long ones =
        PgbenchData.scalar("SELECT count(*) FROM pgbench_history WHERE delta = 1 AND tid = 1");
    long twos =
        PgbenchData.scalar("SELECT count(*) FROM pgbench_history WHERE delta = 2 AND tid = 2");
    assertEquals(m.totalOps(), ones + twos);
    double share = (double) ones / (ones + twos);
    assertTrue(
        share > 0.15 && share < 0.35, "script a ran " + ones + " of " + (ones + twos) + " ops");
  }

  /**
   * tpcb under REPEATABLE READ at 8 clients on one branch row: serialization failures are certain;
   * with --max-tries every op eventually commits and no update is lost.
   */
  @Test
  void retriesCureSerializationFailuresWithoutLosingUpdates() throws SQLException {
    PgbenchData.reset();
    Measurement m =
        run(
            List.of(resource("pgbench/tpcb-like.sql", 1)),
            8,
            QueryMode.PREPARED,
            Isolation.REPEATABLE_READ,
            1000,
            Map.of());
    assertTrue(m.retries() > 0, "expected serialization failures to be retried");
    assertEquals(0, m.totalFailedOps());
    WorkloadDataTest.balancesAgree(m);
  }
}
