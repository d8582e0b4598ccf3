package com.acme.orm;

import com.acme.Arms;
import dev.wg1bench.api.Comparison;
import dev.wg1bench.api.Verdicts;
import dev.wg1bench.api.Wg1bench;
import org.junit.jupiter.api.Test;

/**
 * Saving 5 orders of 10 lines each through Hibernate: no JDBC batching (55 INSERTs, one round trip
 * each) against {@code hibernate.jdbc.batch_size=50} with {@code hibernate.order_inserts=true} (the
 * orders in one batch, the lines in another). Batching is usually faster, but Hibernate's own work
 * per entity is a large share of an op in the same JVM, and five short blocks on a small shared
 * machine do not always show it: the test asserts only that batching is not slower, and prints the
 * interval.
 */
class HibernateBatchTest {
  @Test
  void batchedOrderedInsertsAreNotSlower() {
    Comparison c =
        Arms.compare(
            Wg1bench.workload(HibernateOrders.class),
            Wg1bench.workload(HibernateOrdersBatched.class));
    Verdicts.assertNotSlower(c);
  }
}
