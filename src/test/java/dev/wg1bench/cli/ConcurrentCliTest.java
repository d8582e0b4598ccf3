package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import dev.wg1bench.support.TestServer;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two command lines at once in one JVM print each to its own writers: a run held in its workload's
 * set-up while {@code list} runs beside it and finishes, each capturing only its own lines. A
 * capture that swapped the process's System.out would mix them, and one behind a lock would keep
 * {@code list} waiting on the held run until its set-up gave up.
 */
class ConcurrentCliTest {
  @TempDir Path tmp;

  private static final CountDownLatch IN_SET_UP = new CountDownLatch(1);
  private static final CountDownLatch LISTED = new CountDownLatch(1);

  /** Holds the run in its set-up until the test has listed; fails the run if it never does. */
  public static class Held implements JdbcWorkload {
    @Override
    public void setUp(DataSource ds) throws InterruptedException {
      IN_SET_UP.countDown();
      if (!LISTED.await(1, TimeUnit.MINUTES)) {
        throw new IllegalStateException("list did not finish while this run was held");
      }
    }

    @Override
    public void op(Op op) throws Exception {
      try (Statement st = op.connection().createStatement()) {
        st.execute("SELECT 1");
      }
    }
  }

  @Test
  void twoCommandLinesAtOnceEachCaptureTheirOwnOutput() throws Exception {
    String listAlone = Cli.run("list").out;
    ExecutorService other = Executors.newSingleThreadExecutor();
    try {
      Future<Cli> held =
          other.submit(
              () ->
                  Cli.run(
                      "--workload-class",
                      Held.class.getName(),
                      "-c",
                      "1",
                      "-t",
                      "5",
                      "--forks",
                      "0",
                      "--target",
                      TestServer.url(),
                      "-o",
                      tmp.resolve("held.json").toString()));
      assertTrue(IN_SET_UP.await(3, TimeUnit.MINUTES), "the held run never reached its set-up");
      Cli list = Cli.run("list");
      LISTED.countDown();
      Cli run = held.get(3, TimeUnit.MINUTES);

      assertEquals(0, list.exit, list.toString());
      assertEquals(listAlone, list.out, "list printed more or less than when alone");
      assertEquals("", list.err, list.toString());
      assertEquals(0, run.exit, run.toString());
      assertTrue(run.out.contains("tps"), run.toString());
      assertTrue(run.out.contains("result written to " + tmp.resolve("held.json")), run.toString());
      assertFalse(run.out.contains(listAlone.lines().findFirst().orElseThrow()), run.toString());
    } finally {
      other.shutdownNow();
    }
  }
}
