package dev.wg1bench.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.support.TestServer;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Round trips and statements per op, counted at the client connection's socket, as the protocol
 * requires them: ten single-row lookups make ten, one {@code = ANY} query one, whatever the
 * machine's speed; and the gate on them fails the N+1 every time with the figures in its message.
 */
class RoundTripsPerOpTest {
  private static final String LOOKUP = "SELECT x FROM generate_series(1, 100) x WHERE x = ?";

  /** Ten lookups of one row each: the N+1 shape. */
  public static class TenLookups implements JdbcWorkload {
    @Override
    public void op(Op op) throws Exception {
      try (PreparedStatement ps = op.connection().prepareStatement(LOOKUP)) {
        for (int i = 1; i <= 10; i++) {
          ps.setInt(1, i);
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
          }
        }
      }
    }
  }

  /** The same ten rows in one query. */
  public static class OneQuery implements JdbcWorkload {
    @Override
    public void op(Op op) throws Exception {
      try (PreparedStatement ps =
          op.connection()
              .prepareStatement("SELECT x FROM generate_series(1, 100) x WHERE x = ANY (?)")) {
        ps.setArray(
            1,
            op.connection().createArrayOf("int4", new Integer[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {}
        }
      }
    }
  }

  private static Trial trial(Class<? extends JdbcWorkload> w) {
    TargetSpec t = TestServer.target();
    return Wg1bench.workload(w)
        .clients(2)
        .warmup(Duration.ofMillis(100))
        .duration(Duration.ofMillis(400))
        .iterations(1)
        .against(t.jdbcUrl(), t.user(), t.password() == null ? null : t.password().reveal())
        .run()
        .trials()
        .get(0);
  }

  @Test
  void tenLookupsMakeTenRoundTripsAndOneQueryOne() {
    Trial nPlusOne = trial(TenLookups.class);
    Trial one = trial(OneQuery.class);
    assertTrue(nPlusOne.ops() > 0 && one.ops() > 0, "both ran ops");
    assertEquals(10.0, nPlusOne.roundTripsPerOp(), 0.0);
    assertEquals(1.0, one.roundTripsPerOp(), 0.0);
    // a workload class's statements: the server's completions, as the socket read them
    assertEquals(10.0, nPlusOne.statementsPerOp(), 0.0);
    assertEquals(1.0, one.statementsPerOp(), 0.0);

    Verdicts.assertRoundTripsPerOpAtMost(one, 1.0);
    AssertionError e =
        assertThrows(
            AssertionError.class, () -> Verdicts.assertRoundTripsPerOpAtMost(nPlusOne, 1.0));
    assertTrue(e.getMessage().contains("10.00 round trips per op, more than 1.00"), e.getMessage());
  }
}
