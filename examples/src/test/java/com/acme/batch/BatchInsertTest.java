package com.acme.batch;

import com.acme.Arms;
import dev.wg1bench.api.Comparison;
import dev.wg1bench.api.Verdicts;
import dev.wg1bench.api.Wg1bench;
import dev.wg1bench.plan.Knobs;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The same batch of 1000 INSERTs, as sent by pgjdbc without and with reWriteBatchedInserts: the
 * rewrite sends about ten multi-row INSERTs where the driver otherwise sends 1000 statements.
 *
 * <p>1000 rows, not 100: the saving is the server's work per statement, and an op also waits for
 * its round trips (the batch's and the commit's) the same in both arms. On a quiet machine those
 * waits are short and 100 rows showed the rewrite three to four times faster; on two cores shared
 * with other builds every round trip waits for a core, the waits took most of an op in both arms
 * and the ratio fell to about 1.5, inconclusive in five blocks. With 1000 rows per op the per-row
 * work outweighs the waits again. An op of 1000 rows is heavy (a few dozen a second without the
 * rewrite), so each trial warms up for 3 s, not 1: with 1 s the first block's first trial ran on a
 * cold JIT and its ratio (1.2) stood apart from the others' (2.8 to 4.5). (With commits waiting
 * for the disk the fsync dominates both arms and the interval widens: see Arms.)
 */
class BatchInsertTest {
  @Test
  void rewrittenBatchesAreFaster() {
    Comparison c =
        Arms.compare(
            Wg1bench.workload(BatchInsert.class).param("batch", "1000"),
            Wg1bench.workload("BatchInsert reWriteBatchedInserts", BatchInsert::new)
                .param("batch", "1000")
                .with(Knobs.REWRITE_BATCHED_INSERTS, true),
            Duration.ofSeconds(3));
    Verdicts.assertFaster(c);
  }
}
