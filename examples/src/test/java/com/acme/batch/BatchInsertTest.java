package com.acme.batch;

import com.acme.Arms;
import dev.wg1bench.api.Comparison;
import dev.wg1bench.api.Verdicts;
import dev.wg1bench.api.Wg1bench;
import dev.wg1bench.plan.Knobs;
import org.junit.jupiter.api.Test;

/**
 * The same batch of 100 INSERTs, as sent by pgjdbc without and with reWriteBatchedInserts. The
 * rewrite is usually two to four times faster here, but on a small shared machine five short
 * blocks vary enough that the low end of the interval can come near 1: the test asserts only that
 * the rewrite is not slower, and prints the interval.
 */
class BatchInsertTest {
  @Test
  void rewrittenBatchesAreNotSlower() {
    Comparison c =
        Arms.compare(
            Wg1bench.workload(BatchInsert.class).param("batch", "100"),
            Wg1bench.workload("BatchInsert reWriteBatchedInserts", BatchInsert::new)
                .param("batch", "100")
                .with(Knobs.REWRITE_BATCHED_INSERTS, true));
    Verdicts.assertNotSlower(c);
  }
}
