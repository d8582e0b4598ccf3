package com.acme.orm;

import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.Configuration;

/**
 * The application's save path through Hibernate ORM: one op saves {@code -D orders=N} orders
 * (default 5) of {@code -D lines=N} lines each (default 10) in one transaction, with Hibernate's
 * defaults: no JDBC batching, one round trip per INSERT. {@link HibernateOrdersBatched} is the same
 * code with {@code hibernate.jdbc.batch_size} and {@code hibernate.order_inserts}.
 *
 * <p>The session runs on the op's own connection ({@code withOptions().connection(...)}): the
 * SessionFactory is built once per setting in this JVM, without a connection of its own, so what
 * is measured is the save path on the connection the run gives it, under the run's driver knobs.
 * It is built when a client's instance is made, before the trial's first op (in every JVM that runs
 * clients, forks too), so no op and no warmup pays for the seconds Hibernate takes to start.
 */
public class HibernateOrders implements JdbcWorkload {
  private static final Map<Class<?>, SessionFactory> FACTORIES = new ConcurrentHashMap<>();

  private final SessionFactory factory;

  public HibernateOrders() {
    // one factory per class and JVM, shared by its clients (both arms of a comparison run in
    // one JVM, each with its own)
    factory = FACTORIES.computeIfAbsent(getClass(), k -> build(batchSize(), orderInserts()));
  }

  /** hibernate.jdbc.batch_size, 0 for none (Hibernate's default). */
  protected int batchSize() {
    return 0;
  }

  /** hibernate.order_inserts (off by default). */
  protected boolean orderInserts() {
    return false;
  }


  @Override
  public void setUp(DataSource ds) throws Exception {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      // the pooled id generators (allocationSize 50) expect sequences that step by 50
      st.execute("CREATE SEQUENCE IF NOT EXISTS orm_orders_seq INCREMENT BY 50");
      st.execute("CREATE SEQUENCE IF NOT EXISTS orm_order_lines_seq INCREMENT BY 50");
      st.execute(
          "CREATE TABLE IF NOT EXISTS orm_orders (id bigint PRIMARY KEY, customerId int NOT NULL,"
              + " status text)");
      st.execute(
          "CREATE TABLE IF NOT EXISTS orm_order_lines (id bigint PRIMARY KEY,"
              + " order_id bigint NOT NULL REFERENCES orm_orders, lineNo int NOT NULL,"
              + " product text, qty int NOT NULL, price numeric(10,2))");
      // every trial starts from empty tables, so both settings save into the same state
      st.execute("TRUNCATE orm_order_lines, orm_orders");
    }
  }

  static SessionFactory build(int batchSize, boolean orderInserts) {
    Configuration cfg =
        new Configuration()
            .addAnnotatedClass(PurchaseOrder.class)
            .addAnnotatedClass(OrderLine.class)
            .setProperty("hibernate.dialect", "org.hibernate.dialect.PostgreSQLDialect")
            // no connection at boot: the sessions are given the op's connection
            .setProperty("hibernate.boot.allow_jdbc_metadata_access", "false")
            .setProperty("hibernate.hbm2ddl.auto", "none")
            .setProperty("hibernate.order_inserts", Boolean.toString(orderInserts));
    if (batchSize > 0) {
      cfg.setProperty("hibernate.jdbc.batch_size", Integer.toString(batchSize));
    }
    return cfg.buildSessionFactory();
  }

  @Override
  public void op(Op op) {
    int orders = op.intParam("orders", 5);
    int lines = op.intParam("lines", 10);
    try (Session s = factory.withOptions().connection(op.connection()).openSession()) {
      Transaction tx = s.beginTransaction();
      try {
        for (int o = 0; o < orders; o++) {
          PurchaseOrder order = new PurchaseOrder(1 + op.random().nextInt(1000), "new");
          for (int l = 1; l <= lines; l++) {
            order.addLine(
                l, "product " + op.random().nextInt(997), 1 + l % 4, BigDecimal.valueOf(l * 250, 2));
          }
          s.persist(order);
        }
        tx.commit();
      } catch (RuntimeException e) {
        if (tx.isActive()) {
          tx.rollback();
        }
        throw e;
      }
    }
  }
}
