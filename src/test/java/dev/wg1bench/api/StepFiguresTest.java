package dev.wg1bench.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.support.TestServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A workload class's steps reach a Java API user as figures by step (TPC-C's counts by transaction
 * type, for any workload): the windows' counts and latencies, and the whole trial's counts, which
 * are what the rows show whatever the warmup.
 */
class StepFiguresTest {
  /** Each op inserts a row in "write", rolled back by design one op in four, then reads. */
  public static class WriteThenRead implements JdbcWorkload {
    private long n;

    @Override
    public void op(Op op) throws Exception {
      Connection c = op.connection();
      c.setAutoCommit(false);
      op.step(
          "write",
          () -> {
            try (Statement st = c.createStatement()) {
              st.execute("INSERT INTO step_figures_rows VALUES (" + op.client() + ")");
            }
            if (++n % 4 == 0) {
              c.rollback();
              op.rolledBackByDesign();
            } else {
              c.commit();
            }
          });
      c.setAutoCommit(true);
      op.step(
          "read",
          () -> {
            try (Statement st = c.createStatement()) {
              st.execute("SELECT 1");
            }
          });
    }
  }

  @BeforeEach
  void table() throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS step_figures_rows");
      st.execute("CREATE TABLE step_figures_rows (client int)");
    }
  }

  private static long rows() throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM step_figures_rows")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void eachStepHasItsCountsAndTheWholeTrialsAreTheRows() throws Exception {
    TargetSpec t = TestServer.target();
    Trial trial =
        Wg1bench.workload(WriteThenRead.class)
            .clients(2)
            .warmup(Duration.ofMillis(300))
            .duration(Duration.ofMillis(500))
            .iterations(1)
            .against(t.jdbcUrl(), t.user(), t.password() == null ? null : t.password().reveal())
            .run()
            .trials()
            .get(0);
    assertEquals(List.of("write", "read"), trial.steps().stream().map(StepFigures::name).toList());
    StepFigures write = trial.step("write");
    StepFigures read = trial.step("read");
    assertNull(trial.step("no such step"));
    // the windows': every successful op wrote and read once (a quarter of the writes rolled back:
    // the rows below are the writes less those, whatever their number)
    assertEquals(trial.ops(), write.count(), write.toString());
    assertEquals(trial.ops(), read.count(), read.toString());
    assertEquals(write.count() - write.rolledBack(), write.committed());
    assertNotNull(write.p50Ms(), write.toString());
    assertNotNull(read.p99Ms(), read.toString());
    // the whole trial's: warmup included, and what the table holds
    assertTrue(write.wholeTrial().count() >= write.count(), write.toString());
    // committed means one figure: the ops less those rolled back by design, as the step's
    assertEquals(trial.committedOps(), write.wholeTrial().committed(), write.toString());
    assertEquals(rows(), write.wholeTrial().committed(), write.toString());
    assertEquals(0, write.wholeTrial().failures() + read.wholeTrial().failures());
  }
}
