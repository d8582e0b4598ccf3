package dev.wg1bench.support;

import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.EmbeddedServer;
import dev.wg1bench.server.EmbeddedTarget;
import dev.wg1bench.server.ExternalTarget;
import dev.wg1bench.server.Targets;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The real PostgreSQL the tests talk to, started once per test JVM: {@code WG1BENCH_TEST_URL} when
 * set, else the embedded server. Never a mock and never another engine. Not Testcontainers even
 * where Docker answers: the ordinary tests must prove the newcomer's path (the embedded server) in
 * CI too; containers are for the container test classes only.
 */
public final class TestServer {
  private static TargetSpec target;
  private static String description;

  private TestServer() {}

  public static synchronized TargetSpec target() {
    if (target == null) {
      start();
    }
    return target;
  }

  public static synchronized String description() {
    target();
    return description;
  }

  private static void start() {
    String url = System.getenv("WG1BENCH_TEST_URL");
    if (url != null && !url.isBlank()) {
      target = Targets.parse("test=" + url, System.getenv(), null);
      description = "external server " + target.jdbcUrl();
    } else {
      EmbeddedServer e = EmbeddedServer.start(EmbeddedTarget.spec(null), 60);
      Runtime.getRuntime().addShutdownHook(new Thread(e::close));
      TargetSpec t = e.target();
      // seen by the code under test as an external server: it must not start another one
      target = new TargetSpec("test", ExternalTarget.EXTERNAL, t.jdbcUrl(), t.user(), null, null);
      description = "embedded PostgreSQL " + t.jdbcUrl();
    }
    System.err.println("tests run against " + description);
  }

  /** The server as a --target URL, credentials included, with extra query parameters appended. */
  public static String url(String... params) {
    TargetSpec t = target();
    StringBuilder b = new StringBuilder(t.jdbcUrl());
    char sep = t.jdbcUrl().contains("?") ? '&' : '?';
    if (t.user() != null) {
      b.append(sep).append("user=").append(t.user());
      sep = '&';
    }
    if (t.password() != null) {
      b.append(sep).append("password=").append(t.password().reveal());
      sep = '&';
    }
    for (String p : params) {
      b.append(sep).append(p);
      sep = '&';
    }
    return b.toString();
  }

  public static Connection connect() throws SQLException {
    return new ConnectionFactory(target(), ClientSettings.defaults()).openPlain();
  }

  /** Runs each statement on one connection to the test server, in order. */
  public static void execute(String... statements) throws SQLException {
    try (Connection c = connect();
        java.sql.Statement s = c.createStatement()) {
      for (String x : statements) {
        s.execute(x);
      }
    }
  }

  /** A query's rows on the test server, each its columns' text joined by a space. */
  public static java.util.List<String> rows(String query) throws SQLException {
    java.util.List<String> out = new java.util.ArrayList<>();
    try (Connection c = connect();
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery(query)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          b.append(i == 1 ? "" : " ").append(rs.getString(i));
        }
        out.add(b.toString());
      }
    }
    return out;
  }

  /** An application's own HikariCP pool on the test server, as the Java API's users pass one. */
  public static com.zaxxer.hikari.HikariDataSource applicationPool(int size) {
    com.zaxxer.hikari.HikariConfig hc = new com.zaxxer.hikari.HikariConfig();
    hc.setJdbcUrl(target().jdbcUrl());
    hc.setUsername(target().user());
    if (target().password() != null) {
      hc.setPassword(target().password().reveal());
    }
    hc.setMaximumPoolSize(size);
    return new com.zaxxer.hikari.HikariDataSource(hc);
  }
}
