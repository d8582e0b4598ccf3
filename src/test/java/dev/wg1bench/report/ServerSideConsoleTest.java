package dev.wg1bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.server.window.ServerSide;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The server's side on the console: figures where read, the one line why where not. */
class ServerSideConsoleTest {
  static String print(ServerSide s, long ops) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    ServerSideConsole.print(s, ops, new PrintStream(b, true, StandardCharsets.UTF_8));
    return b.toString(StandardCharsets.UTF_8);
  }

  @Test
  void figuresAreShownWithWhatTheyAreOver() {
    ServerSide s =
        new ServerSide(
            10,
            List.of(
                new ServerSide.StatementFigures(
                    "SELECT v\n  FROM t WHERE id = $1",
                    1000,
                    190.0,
                    0.19,
                    null,
                    null,
                    1000,
                    3000,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0L)),
            null,
            List.of(
                new ServerSide.WaitShare("Client:ClientRead", "Client", 710, 0.71),
                new ServerSide.WaitShare("CPU", "CPU", 290, 0.29)),
            null,
            10,
            1000,
            null,
            "pg_wait_sampling is not installed in this database",
            new ServerSide.DatabaseFigures(
                100, 0, 600.0, 0, 3000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0L, 0L, 0L, 0L, null, List.of(),
                null),
            null);
    String out = print(s, 100);
    assertTrue(out.contains("server time per op: 1.900 ms (execution; planning not tracked"), out);
    assertTrue(out.contains("SELECT v FROM t WHERE id = $1"), out);
    assertTrue(out.contains("every 10 ms, 1000 samples): Client:ClientRead 71.0%, CPU 29.0%"), out);
    assertTrue(out.contains("100 commits, 0 rollbacks (TPM 600)"), out);
  }

  @Test
  void anUnavailableSourceIsItsOneLineNeverAZero() {
    String why = "pg_stat_statements is not installed in this database";
    ServerSide s =
        new ServerSide(
            5,
            null,
            why,
            null,
            "none of the clients' backend pids was a session of this server",
            10,
            500,
            null,
            "x",
            null,
            "the database's counters cannot be read: denied");
    String out = print(s, 100);
    assertTrue(out.contains("statements: unavailable (" + why + ")"), out);
    assertTrue(out.contains("waits: unavailable (none of the clients' backend pids"), out);
    assertTrue(out.contains("database: unavailable (the database's counters cannot be read"), out);
    assertTrue(!out.contains(" 0.000 ms"), out);
    assertEquals(4, out.lines().count(), out);
  }
}
