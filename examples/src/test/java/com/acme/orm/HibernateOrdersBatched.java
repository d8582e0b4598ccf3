package com.acme.orm;

/**
 * {@link HibernateOrders} with {@code hibernate.jdbc.batch_size=50} and {@code
 * hibernate.order_inserts=true}: the 5 orders go in one JDBC batch and their 50 lines in another,
 * where the defaults send 55 INSERTs one by one (and batching alone, unordered, would alternate
 * batches of 1 order and 10 lines).
 */
public class HibernateOrdersBatched extends HibernateOrders {
  @Override
  protected int batchSize() {
    return 50;
  }

  @Override
  protected boolean orderInserts() {
    return true;
  }
}
