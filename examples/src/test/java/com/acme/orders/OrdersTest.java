package com.acme.orders;

import com.acme.Arms;
import dev.wg1bench.api.Comparison;
import dev.wg1bench.api.Verdicts;
import dev.wg1bench.api.Wg1bench;
import org.junit.jupiter.api.Test;

/** A customer's 20 orders and their lines: 21 queries against one JOIN. */
class OrdersTest {
  @Test
  void oneJoinIsFasterThanNPlusOneQueries() {
    Comparison c =
        Arms.compare(Wg1bench.workload(OrdersNPlusOne.class), Wg1bench.workload(OrdersJoin.class));
    Verdicts.assertFaster(c);
  }
}
