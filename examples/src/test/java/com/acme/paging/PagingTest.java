package com.acme.paging;

import com.acme.Arms;
import dev.wg1bench.api.Comparison;
import dev.wg1bench.api.Verdicts;
import dev.wg1bench.api.Wg1bench;
import org.junit.jupiter.api.Test;

/** A deep page (the last half of 200,000 rows) by OFFSET against keyset pagination. */
class PagingTest {
  @Test
  void keysetIsFasterThanOffsetOnADeepPage() {
    Comparison c =
        Arms.compare(Wg1bench.workload(OffsetPage.class), Wg1bench.workload(KeysetPage.class));
    Verdicts.assertFaster(c);
  }
}
