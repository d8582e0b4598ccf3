package com.acme.batch;

import com.acme.Arms;
import dev.wg1bench.api.Comparison;
import dev.wg1bench.api.Verdicts;
import dev.wg1bench.api.Wg1bench;
import dev.wg1bench.plan.Knobs;
import org.junit.jupiter.api.Test;

/**
 * The same batch of 100 INSERTs, as sent by pgjdbc without and with reWriteBatchedInserts: the
 * rewrite sends a few multi-row INSERTs where the driver otherwise sends 100 statements, and is
 * about three to four times faster here, the interval's low end well above 1 even on two busy
 * cores. (With commits waiting for the disk the fsync dominates both arms and the interval widens:
 * see Arms.)
 */
class BatchInsertTest {
  @Test
  void rewrittenBatchesAreFaster() {
    Comparison c =
        Arms.compare(
            Wg1bench.workload(BatchInsert.class).param("batch", "100"),
            Wg1bench.workload("BatchInsert reWriteBatchedInserts", BatchInsert::new)
                .param("batch", "100")
                .with(Knobs.REWRITE_BATCHED_INSERTS, true));
    Verdicts.assertFaster(c);
  }
}
