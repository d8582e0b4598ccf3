package dev.wg1bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.wg1bench.workload.ErrorSamples;
import dev.wg1bench.workload.FailureKind;
import dev.wg1bench.workload.OpCounts;
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
    ErrorSamples s = new ErrorSamples();
    OpRun run = new OpRun();
    run.begin(1_000, -1);
    run.counts.statements += 3;
    run.counts.retries++;
    run.counts.retries++;
    run.counts.statements += 3;
    run.counts.retriedOps++;
    run.success = true;
    run.end(s, 5_000, 3_000);
    OpCounts o = run.counts;
    assertEquals(1, o.ok);
    assertEquals(0, o.failed);
    assertEquals(6, o.statements);
    assertEquals(2, o.retries);
    assertEquals(1, o.retriedOps);
    assertEquals(1, o.retriedAll);
    assertEquals(4_000, o.latencyNanos, "from the intended start");
    assertEquals(1, o.late, "over the latency limit");
  }

  @Test
  void aFailureIsCountedOnceByItsKindAndTheNextOpStartsFromNothing() {
    ErrorSamples s = new ErrorSamples();
    OpRun run = new OpRun();
    run.begin(0, -1);
    run.counts.statements++;
    run.counts.retries++;
    s.failed(run.counts, FailureKind.of(new java.sql.SQLException("x", "40001")));
    run.end(s, 10, NO_LIMIT);
    assertEquals(0, run.counts.ok);
    assertEquals(1, run.counts.failed);
    assertEquals(Map.of("serialization", 1L), run.counts.failures);
    assertEquals(1, run.counts.retriedAll, "pgbench's retried transactions count failed ones too");
    assertEquals(0, run.counts.latencyNanos, "a failure's time is no latency");

    OpCounts window = new OpCounts().add(run.counts);
    run.begin(20, -1);
    run.counts.statements += 2;
    run.success = true;
    run.end(s, 30, NO_LIMIT);
    window.add(run.counts);
    assertEquals(1, window.ok);
    assertEquals(1, window.failed);
    assertEquals(3, window.statements);
    assertEquals(1, window.retries);
    assertEquals(0, window.late);
  }

  @Test
  void aPathThatFailsAnOpWithoutAKindChargesTheKindItLastFailedAs() {
    ErrorSamples s = new ErrorSamples();
    OpRun run = new OpRun();
    run.begin(0, -1);
    s.failed(run.counts, FailureKind.CONNECTION);
    run.end(s, 1, NO_LIMIT);
    run.begin(2, -1);
    run.end(s, 3, NO_LIMIT);
    assertEquals(Map.of("connection", 1L), run.counts.failures);
  }
}
