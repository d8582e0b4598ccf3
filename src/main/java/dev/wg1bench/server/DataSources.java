package dev.wg1bench.server;

import dev.wg1bench.plan.UsageException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * Application DataSources handed to an in-process run (the Java API's {@code against(DataSource)}):
 * the plan only names them by id, so it stays serializable and free of secrets.
 */
public final class DataSources {
  private static final Map<String, DataSource> BY_ID = new ConcurrentHashMap<>();
  private static final AtomicLong NEXT = new AtomicLong();

  private DataSources() {}

  public static String register(DataSource ds) {
    String id = "ds" + NEXT.incrementAndGet();
    BY_ID.put(id, ds);
    return id;
  }

  public static void unregister(String id) {
    BY_ID.remove(id);
  }

  static DataSource get(String id) {
    DataSource ds = BY_ID.get(id);
    if (ds == null) {
      throw new UsageException(
          "DataSource "
              + id
              + " is not registered in this JVM (runs against a DataSource need --forks 0)");
    }
    return ds;
  }
}
