package dev.wg1bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.wg1bench.workload.FailureKind;
import dev.wg1bench.workload.OpCounts;
import dev.wg1bench.workload.OpStats;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An op's outcome is recorded once, into the op's own counts: what its session counted as it ran
 * (statements, retries) and how it ended, which the op path then adds whole to each value that
 * holds it.
 */
class OpRunTest {
  private static final long NO_LIMIT = Long.MAX_VALUE;

  @Test
  void aSuccessAfterRetriesIsOneOpWithItsLatencyAndItsRetries() {
    OpStats s = new OpStats();
    OpRun run = new OpRun();
    run.begin(s, 1_000, -1);
    s.sent(3);
    s.retried();
    s.retried();
    s.sent(3);
    s.succeededAfterRetries();
    run.success = true;
    run.end(s, 5_000, 3_000);
    OpCounts o = s.op;
    assertEquals(1, o.ok);
    assertEquals(0, o.failed);
    assertEquals(6, o.statements);
    assertEquals(2, o.retries);
    assertEquals(1, o.retriedOps);
    assertEquals(1, o.retriedAll);
    assertEquals(4_000, o.latencyNanos, "from the intended start");
    assertEquals(1, o.late, "over the latency limit");
  }

  /** The think time an op asked for is its own: the next op starts from none. */
  @Test
  void anOpsThinkTimeIsForgottenAsTheNextBegins() {
    OpStats s = new OpStats();
    OpRun run = new OpRun();
    run.begin(s, 1_000, -1);
    s.thinkNanos = 2_500;
    run.success = true;
    run.end(s, 4_000, NO_LIMIT);
    assertEquals(3_000, s.op.latencyNanos, "a think time comes after the op, not in it");
    run.begin(s, 5_000, -1);
    assertEquals(0, s.thinkNanos);
  }

  @Test
  void aFailureIsCountedOnceByItsKindAndTheNextOpStartsFromNothing() {
    OpStats s = new OpStats();
    OpRun run = new OpRun();
    run.begin(s, 0, -1);
    s.sent(1);
    s.retried();
    s.failed(FailureKind.of(new java.sql.SQLException("x", "40001")));
    run.end(s, 10, NO_LIMIT);
    assertEquals(0, s.op.ok);
    assertEquals(1, s.op.failed);
    assertEquals(Map.of("serialization", 1L), s.op.failures);
    assertEquals(1, s.op.retriedAll, "pgbench's retried transactions count failed ones too");
    assertEquals(0, s.op.latencyNanos, "a failure's time is no latency");

    OpCounts window = new OpCounts().add(s.op);
    run.begin(s, 20, -1);
    s.sent(2);
    run.success = true;
    run.end(s, 30, NO_LIMIT);
    window.add(s.op);
    assertEquals(1, window.ok);
    assertEquals(1, window.failed);
    assertEquals(3, window.statements);
    assertEquals(1, window.retries);
    assertEquals(0, window.late);
  }

  @Test
  void aPathThatFailsAnOpWithoutAKindChargesTheKindItLastFailedAs() {
    OpStats s = new OpStats();
    OpRun run = new OpRun();
    run.begin(s, 0, -1);
    s.failed(FailureKind.CONNECTION);
    run.end(s, 1, NO_LIMIT);
    run.begin(s, 2, -1);
    run.end(s, 3, NO_LIMIT);
    assertEquals(Map.of("connection", 1L), s.op.failures);
  }
}
