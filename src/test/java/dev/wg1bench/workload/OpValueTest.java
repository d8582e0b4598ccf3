package dev.wg1bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.support.TestServer;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The op in progress is one count value: its session records its steps' figures as parts of it, and
 * the one {@link OpCounts#add} merges it whole into a window (which keeps the steps' latencies in
 * histograms) and a whole trial (which keeps none), as the op path does after every op.
 */
class OpValueTest {
  private static final String CLASS = "ThreeSteps";

  /**
   * Three steps an op: "read" (one select), "conflict" (a serialization failure on every op's first
   * try, then a select), "finish" (a select, reported rolled back by design on even ops, which ask
   * for a think time of 7 ms).
   */
  public static class ThreeSteps implements JdbcWorkload {
    private long ops;

    @Override
    public void op(Op op) throws Exception {
      Connection c = op.connection();
      long n = op.attempt() == 1 ? ++ops : ops;
      op.step("read", () -> select(c));
      op.step(
          "conflict",
          () -> {
            if (op.attempt() == 1) {
              throw new SQLException("could not serialize access (simulated)", "40001");
            }
            select(c);
          });
      op.step(
          "finish",
          () -> {
            select(c);
            if (n % 2 == 0) {
              op.rolledBackByDesign();
              op.thinkTime(Duration.ofMillis(7));
            }
          });
    }

    private static void select(Connection c) throws SQLException {
      try (Statement st = c.createStatement()) {
        st.execute("SELECT 1");
      }
    }
  }

  @Test
  void anOpsStepsArePartsOfItsValueAndAddUpInTheWindowAndTheWholeTrial() throws SQLException {
    Workload w = JavaClassWorkload.users("three", CLASS, ThreeSteps::new, Map.of());
    ConnectionFactory cf =
        new ConnectionFactory(
            TestServer.target(),
            new ClientSettings(QueryMode.PREPARED, null, Map.of(), DriverKnobs.defaults()));
    OpCounts window = new OpCounts();
    window.histogram = new Histogram(3);
    OpCounts whole = new OpCounts();
    ErrorSamples errors = new ErrorSamples();
    OpCounts op = new OpCounts();
    int ops = 6;
    try (Connection c = cf.openClient();
        ClientSession s = w.open(new ClientContext(0, 1, 1, 42L, 2, false, Map.of(), 8, false))) {
      assertEquals(ClientSession.OpParts.STEPS, s.opParts());
      for (int i = 1; i <= ops; i++) {
        op.clear();
        assertTrue(s.runOp(c, op, errors), () -> errors.samples().toString());
        OpCounts steps = op.partOrEmpty(CLASS);
        assertEquals(List.of("read", "conflict", "finish"), List.copyOf(steps.parts.keySet()));
        // the first try ran "read" and failed in "conflict": both count, the retry on its step
        assertEquals(2, steps.part("read").ok, "op " + i);
        assertEquals(1, steps.part("conflict").ok);
        assertEquals(1, steps.part("conflict").retries);
        assertEquals(0, steps.part("read").retries);
        assertEquals(1, op.retries);
        assertEquals(1, op.retriedOps);
        assertEquals(i % 2 == 0 ? 1 : 0, steps.part("finish").rolledBack);
        assertEquals(i % 2 == 0 ? 1 : 0, op.rolledBack);
        assertEquals(i % 2 == 0 ? 7_000_000L : 0, s.thinkNanos(), "each op's own think time");
        // what the socket saw during each step: one round trip per select, a query's statement,
        // every execution of the step counted (the conflict's first try sent nothing)
        assertEquals(2, steps.part("read").roundTrips, "op " + i);
        assertEquals(2, steps.part("read").wireOps);
        assertEquals(2, steps.part("read").statements);
        assertEquals(2, steps.part("read").rows, "SELECT 1 returns a row");
        assertEquals(1, steps.part("conflict").roundTrips);
        assertEquals(2, steps.part("conflict").wireOps);
        assertEquals(1, steps.part("finish").roundTrips);
        assertTrue(steps.part("finish").bytesSent > 0 && steps.part("finish").bytesReceived > 0);
        // the op path's merge: the whole trial always, the window for ops counted in it
        whole.add(op);
        if (i > 2) {
          window.add(op);
        }
      }
    }
    OpCounts wr = window.partOrEmpty(CLASS).partOrEmpty("read");
    assertEquals(2L * (ops - 2), wr.ok);
    assertNotNull(wr.histogram, "a window keeps its steps' latencies");
    assertEquals(wr.ok, wr.histogram.getTotalCount());
    assertEquals(wr.latencyNanos / 1000.0 / wr.ok, wr.histogram.getMean(), wr.ok * 2.0);
    OpCounts hr = whole.partOrEmpty(CLASS).partOrEmpty("read");
    assertEquals(2L * ops, hr.ok);
    assertNull(hr.histogram, "the whole trial keeps none");
    assertEquals(ops, whole.partOrEmpty(CLASS).partOrEmpty("conflict").retries);
    assertEquals(ops / 2, whole.partOrEmpty(CLASS).partOrEmpty("finish").rolledBack);
    assertEquals(
        List.of("read", "conflict", "finish"),
        List.copyOf(window.partOrEmpty(CLASS).parts.keySet()));
    assertFalse(errors.samples().isEmpty(), "the retried error is sampled");
    assertEquals(2L * ops, whole.partOrEmpty(CLASS).partOrEmpty("read").roundTrips);
    assertEquals(ops, whole.partOrEmpty(CLASS).partOrEmpty("finish").roundTrips);
    assertEquals(ops - 2, window.partOrEmpty(CLASS).partOrEmpty("conflict").roundTrips);
  }

  /**
   * The op path's bookkeeping on a success allocates nothing once the parts are made: clearing the
   * op's value, recording into its parts, and adding it to a window and a whole trial (the
   * interpreter's count, escape analysis or not: HotSpot counts a thread's allocated bytes
   * exactly).
   */
  @Test
  void anOpsValueAllocatesNothingOnceItsPartsAreMade() {
    OpCounts op = new OpCounts();
    OpCounts script = op.part("s.sql");
    OpCounts[] commands = {script.part("0"), script.part("1")};
    OpCounts step = op.part(CLASS).keptPart("step");
    OpCounts window = new OpCounts();
    window.histogram = new Histogram(3);
    OpCounts whole = new OpCounts();
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = 0;
    for (int i = 0; i < 20_000; i++) {
      if (i == 10_000) {
        before = mx.getCurrentThreadAllocatedBytes();
      }
      op.clear();
      op.statements += 2;
      commands[0].completed(1_000 + i);
      commands[1].completed(2_000 + i);
      step.completedKept(3_000 + i % 1_000);
      step.completedKept(4_000 + i % 1_000);
      op.completed(10_000 + i);
      script.addCounts(op);
      whole.add(op);
      window.add(op);
    }
    long allocated = mx.getCurrentThreadAllocatedBytes() - before;
    assertEquals(0, allocated, "bytes allocated by 10,000 ops' bookkeeping");
    assertEquals(20_000, window.ok);
    assertEquals(20_000, window.partOrEmpty("s.sql").ok);
    assertEquals(40_000, window.partOrEmpty(CLASS).partOrEmpty("step").histogram.getTotalCount());
  }
}
