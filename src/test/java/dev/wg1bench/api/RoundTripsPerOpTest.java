package dev.wg1bench.api;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.window.ServerWindow;
import dev.wg1bench.support.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
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

  private static Wg1bench.Result run(Class<? extends JdbcWorkload> w, PrintStream console) {
    TargetSpec t = TestServer.target();
    return Wg1bench.workload(w)
        .clients(CLIENTS)
        .warmup(Duration.ofMillis(100))
        .duration(Duration.ofMillis(400))
        .iterations(1)
        .console(console)
        .against(t.jdbcUrl(), t.user(), t.password() == null ? null : t.password().reveal())
        .run();
  }

  private static Trial trial(Class<? extends JdbcWorkload> w) {
    return run(w, new PrintStream(OutputStream.nullOutputStream())).trials().get(0);
  }

  private static final int CLIENTS = 2;

  /**
   * The server's side of the measured window: the lookups' statement in pg_stat_statements at least
   * as often as the window's ops sent it (less what ops in flight at its start had sent before),
   * the tool's own statements kept out, a server time per op, and the console's sections.
   */
  @Test
  void theServerSideSeesTheLookupsAndNotTheToolsOwnQueries() throws Exception {
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    Wg1bench.Result r = run(TenLookups.class, new PrintStream(console, true, UTF_8));
    Trial t = r.trials().get(0);
    JsonNode m = new ObjectMapper().readTree(r.json()).get("trials").get(0).get("measurement");
    JsonNode side = m.get("serverSide");
    assertTrue(side != null && side.get("statements").isArray(), m.toString());
    long lookups = 0;
    for (JsonNode st : side.get("statements")) {
      String q = st.get("query").asText();
      assertFalse(q.contains(ServerWindow.MARKER_TEXT), q);
      assertFalse(q.contains("application_name"), "the tool's own session start-up: " + q);
      if (q.contains("generate_series") && !q.contains("ANY")) {
        lookups += st.get("calls").asLong();
      }
    }
    long ops = t.ops() + t.failedOps();
    assertTrue(lookups >= 10 * ops - 9 * CLIENTS, lookups + " calls for " + ops + " ops: " + side);
    assertNotNull(t.serverMsPerOp());
    assertTrue(t.serverMsPerOp() > 0, "server ms per op " + t.serverMsPerOp());
    assertEquals(t.serverMsPerOp(), m.get("perOp").get("serverMs").asDouble(), 0.0);
    // at loopback no wire time was set: at 2 ms only the ten round trips' 20 ms are added
    JsonNode at2 = m.get("prediction").get(2);
    assertEquals(2.0, at2.get("rttMs").asDouble(), 0.0);
    assertEquals(
        m.get("latencyMs").get("mean").asDouble() + 20.0,
        at2.get("latencyMeanMs").asDouble(),
        1e-9);
    String out = console.toString(UTF_8);
    assertTrue(out.contains("predicted at other round-trip times"), out);
    assertTrue(out.contains("per op: 10.00 round trips, 10.00 statements (completed)"), out);
    assertTrue(out.contains("server side, over the measured window"), out);
  }

  /**
   * A comparison of the N+1 against one query says why under its verdict: the mechanism line names
   * the round trips per op, exact counts whatever the timing, in the table, the JSON and {@link
   * Comparison#mechanism()}; both arms per op side by side.
   */
  @Test
  void aComparisonOfTheNPlusOneNamesItsRoundTrips() throws Exception {
    TargetSpec t = TestServer.target();
    String password = t.password() == null ? null : t.password().reveal();
    Comparison c =
        Wg1bench.compare(
                Wg1bench.workload(TenLookups.class)
                    .clients(CLIENTS)
                    .warmup(Duration.ofMillis(100))
                    .duration(Duration.ofMillis(300))
                    .iterations(1)
                    .against(t.jdbcUrl(), t.user(), password),
                Wg1bench.workload(OneQuery.class)
                    .clients(CLIENTS)
                    .warmup(Duration.ofMillis(100))
                    .duration(Duration.ofMillis(300))
                    .iterations(1))
            .blocks(2)
            .run();
    String why = c.mechanism();
    assertNotNull(why, c.table());
    assertTrue(why.startsWith("why: "), why);
    assertTrue(why.contains("round trips per op 10.0 -> 1.0"), why);
    assertTrue(c.table().contains(why), c.table());
    assertTrue(c.table().matches("(?s).*round trips\\s+10\\.0\\s+1\\.0.*"), c.table());
    JsonNode advice = new ObjectMapper().readTree(c.json()).get("advice").get(0);
    assertEquals(why, advice.get("mechanism").asText());
    assertEquals(10.0, advice.get("baselinePerOp").get("roundTrips").asDouble(), 0.0);
    assertEquals(1.0, advice.get("treatmentPerOp").get("roundTrips").asDouble(), 0.0);
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
