package dev.wg1bench.history.store;

import dev.wg1bench.support.TestServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/** A database of its own on the test server, for one test, dropped after it. */
public final class FreshDatabase implements AutoCloseable {
  public final String name;
  public final String url;

  public FreshDatabase() throws Exception {
    name = "wg1b_hist_" + Long.toHexString(System.nanoTime()) + (int) (Math.random() * 1000);
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + name);
    }
    String base = TestServer.url();
    int q = base.indexOf('?');
    String path = q < 0 ? base : base.substring(0, q);
    int slash = path.indexOf('/', "jdbc:postgresql://".length());
    url = path.substring(0, slash) + "/" + name + (q < 0 ? "" : base.substring(q));
  }

  public Connection connect() throws Exception {
    return DriverManager.getConnection(url);
  }

  @Override
  public void close() throws Exception {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }
}
