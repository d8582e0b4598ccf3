package dev.wg1bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.wg1bench.api.EngineRecords;
import dev.wg1bench.api.Wg1bench;
import dev.wg1bench.result.ErrorRecord;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.support.TestServer;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A trial whose every client fails in its set-up, in-process (forks 0, as tests and the Java API
 * run it): JMH 1.37's embedded runner, given no result, failed with an IndexOutOfBoundsException of
 * its own, and the next in-process run in the same JVM inherited JMH's dead state. Now the trial
 * ends with the reason in one line, the errors counted by kind in phase setup, and the next run in
 * the same JVM measures normally.
 */
class SetupFailureTest {
  /**
   * The application's pool, refusing the benchmark's clients (JMH's worker threads) as a server at
   * its connection limit does, while the tool's own set-up on the caller's thread gets through.
   */
  static final class RefusesClients implements DataSource {
    private final DataSource pool;

    RefusesClients(DataSource pool) {
      this.pool = pool;
    }

    @Override
    public Connection getConnection() throws SQLException {
      if (Thread.currentThread().getName().contains("jmh-worker")) {
        throw new SQLException("FATAL: too many connections for role \"app\"", "53300");
      }
      return pool.getConnection();
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
      return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
      pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
      pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
      return pool.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() {
      return Logger.getGlobal();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
      return pool.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
      return pool.isWrapperFor(iface);
    }
  }

  private static Wg1bench scenario() {
    return Wg1bench.workload("select_only")
        .clients(3)
        .duration(Duration.ofSeconds(30))
        .warmup(Duration.ZERO)
        .iterations(1);
  }

  @Test
  void everyClientFailingInSetUpEndsTheTrialWithTheReasonAndTheNextRunMeasures() {
    try (HikariDataSource app = TestServer.applicationPool(4)) {
      Wg1bench.Result r = scenario().initPgbench(1).against(new RefusesClients(app)).run();
      TrialResult t = EngineRecords.of(r).trials().get(0);
      Measurement m = t.measurement();
      assertEquals(3, m.clientsStopped(), m.toString());
      assertEquals(0, m.totalOps(), m.toString());
      // ended by the clients' stop, not by the 30 s asked for
      assertTrue(m.measuredSeconds() < 30, m.toString());
      assertTrue(
          m.stoppedBy().startsWith("all 3 clients stopped on an error that won't heal")
              && m.stoppedBy().contains("could not connect (53300): FATAL: too many connections"),
          m.stoppedBy());
      long refused =
          t.errors().stream()
              .filter(e -> e.phase().equals("setup") && "53300".equals(e.sqlState()))
              .mapToLong(ErrorRecord::count)
              .sum();
      assertEquals(3, refused, t.errors().toString());

      // the same JVM runs the next trial as if nothing had happened
      Wg1bench.Result next = scenario().duration(Duration.ofMillis(600)).against(app).run();
      Measurement n = EngineRecords.of(next).trials().get(0).measurement();
      assertTrue(n.ops() > 0, n.toString());
      assertEquals(0, n.clientsStopped(), n.toString());
    }
  }
}
