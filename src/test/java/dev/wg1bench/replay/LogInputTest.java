package dev.wg1bench.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.UsageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Logs from every csvlog version, and one message, not one per record, for a file of no format. */
class LogInputTest {
  @TempDir Path dir;

  private final Problems problems = new Problems();
  private final List<LogRecord> records = new ArrayList<>();

  /** A csvlog record of {@code columns} columns (22 for 8.4, 23 for 9.0-12, 24, 26). */
  static String csv(int columns, String sid, String time, String state, String message) {
    String[] f = new String[columns];
    Arrays.fill(f, "");
    f[0] = "2024-05-01 12:00:" + time + " UTC";
    f[1] = "alice";
    f[2] = "app";
    f[5] = sid;
    f[11] = state.equals("00000") ? "LOG" : "ERROR";
    f[12] = state;
    f[13] = LogParseTest.q(message);
    if (columns > 22) {
      f[22] = "psql";
    }
    if (columns > 23) {
      f[23] = LogParseTest.q("client backend");
    }
    return String.join(",", f) + "\n";
  }

  private static final String SESSION =
      csv(26, "1.a", "00.000", "00000", "connection authorized: user=alice database=app")
          + csv(26, "1.a", "00.100", "00000", "statement: SELECT 1,\n 2")
          + csv(26, "1.a", "00.200", "22012", "division by zero")
          + csv(26, "1.a", "01.000", "00000", "disconnection: session time: 0:00:01.000");

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private Path write(String name, byte[] content) throws IOException {
    return Files.write(dir.resolve(name), content);
  }

  private LogFormat read(Path file) throws IOException {
    return new LogReader(problems, null, null).read(file, records::add);
  }

  @Test
  void everyCsvlogVersionIsReadByColumnName() throws IOException {
    int[] counts = {22, 23, 24, 26};
    for (int n : counts) {
      records.clear();
      read(
          write(
              n + ".csv", utf8(csv(n, "1.a", "00.400", "42P01", "relation \"x\" does not exist"))));
      LogRecord r = records.get(0);
      assertEquals("alice", r.user());
      assertEquals("app", r.database());
      assertEquals("1.a", r.sessionId());
      assertEquals("ERROR", r.severity());
      assertEquals("42P01", r.sqlState());
      assertEquals("relation \"x\" does not exist", r.message());
      assertEquals(n == 22 ? null : "psql", r.applicationName(), n + " columns");
      assertEquals(n < 24 ? null : "client backend", r.backendType(), n + " columns");
    }
    assertEquals(0, problems.count(), problems.messages().toString());
  }

  @Test
  void aLogOfNoReadableFormatIsOneMessageNotOnePerRecord() throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 53; i++) {
      text.append(csv(21, "1.a", "00.000", "00000", "statement: SELECT " + i));
    }
    UsageException e =
        assertThrows(UsageException.class, () -> read(write("21.csv", utf8(text.toString()))));
    assertEquals(
        "21.csv:1: not a csvlog record (21 columns; csvlog has 22 (PostgreSQL 8.3-8.4), 23"
            + " (9.0-12), 24 (13) or 26 (14 and later)) (use --format for another format; see"
            + " --capture-settings)",
        e.getMessage());
    assertEquals(0, problems.count());

    // pgreplay-go's own replay file: JSON lines, but not the server's jsonlog
    String replay = "{\"type\":\"Connect\",\"item\":{\"session_id\":\"1.a\"}}\n".repeat(10);
    UsageException j =
        assertThrows(UsageException.class, () -> read(write("replay.json", utf8(replay))));
    assertTrue(j.getMessage().startsWith("replay.json:1: not a jsonlog record"), j.getMessage());
    assertEquals(0, problems.count());
  }

  @Test
  void aForcedFormatTheFileIsNotInIsOneMessage() throws IOException {
    Path f = write("a.csv", utf8(SESSION));
    UsageException e =
        assertThrows(
            UsageException.class,
            () -> new LogReader(problems, LogFormat.JSONLOG, null).read(f, records::add));
    assertTrue(e.getMessage().startsWith("a.csv:1: not a jsonlog record"), e.getMessage());
    UsageException s =
        assertThrows(
            UsageException.class,
            () -> new LogReader(problems, LogFormat.STDERR, null).read(f, records::add));
    assertTrue(
        s.getMessage()
            .startsWith(
                "a.csv:1: not a stderr log with log_line_prefix '%m|%u|%d|%c|' (use"
                    + " --log-line-prefix)"),
        s.getMessage());
    assertEquals(0, problems.count());
  }
}
