package dev.wg1bench.replay.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.UsageException;
import dev.wg1bench.replay.capture.CaptureSettings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorOutputStream;
import org.apache.commons.compress.compressors.zstandard.ZstdCompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logs as users have them: compressed, on stdin, with a BOM, empty, from every csvlog version, in
 * stderr with or without SQLSTATE; and one message, not one per record, for a file that is no log.
 */
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
    f[13] = q(message);
    if (columns > 22) {
      f[22] = "psql";
    }
    if (columns > 23) {
      f[23] = q("client backend");
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

  private interface Compressor {
    OutputStream wrap(OutputStream out) throws IOException;
  }

  private static byte[] compress(Compressor c, byte[] data) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (OutputStream out = c.wrap(b)) {
      out.write(data);
    }
    return b.toByteArray();
  }

  private Path write(String name, byte[] content) throws IOException {
    return Files.write(dir.resolve(name), content);
  }

  private LogFormat read(Path file) throws IOException {
    return new LogReader(problems, null, null).read(file, records::add);
  }

  private void assertSession(String name) {
    assertEquals(4, records.size(), records.toString());
    assertEquals(name + ":2", records.get(1).where());
    assertEquals("statement: SELECT 1,\n 2", records.get(1).message());
    assertEquals("22012", records.get(2).sqlState());
    assertEquals(name + ":5", records.get(3).where(), "the multi-line record counts two lines");
    assertEquals(0, problems.count(), problems.messages().toString());
  }

  @Test
  void compressedLogsAreReadByTheirMagicBytesWhateverTheirName() throws IOException {
    Compressor[] each = {
      GZIPOutputStream::new,
      BZip2CompressorOutputStream::new,
      XZCompressorOutputStream::new,
      ZstdCompressorOutputStream::new
    };
    for (Compressor c : each) {
      records.clear();
      // no .gz, .bz2, .xz or .zst: a rotated log renamed keeps its compression, not its suffix
      Path f = write("postgresql.csv", compress(c, utf8(SESSION)));
      assertEquals(LogFormat.CSVLOG, read(f));
      assertSession("postgresql.csv");
    }
  }

  @Test
  void concatenatedGzipMembersAreOneLog() throws IOException {
    int half = SESSION.indexOf("2024", 10);
    byte[] a = compress(GZIPOutputStream::new, utf8(SESSION.substring(0, half)));
    byte[] b = compress(GZIPOutputStream::new, utf8(SESSION.substring(half)));
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    read(write("a.csv.gz", both));
    assertSession("a.csv.gz");
  }

  @Test
  void dashReadsStandardInputCompressedOrNot() throws IOException {
    InputStream saved = System.in;
    try {
      System.setIn(
          new ByteArrayInputStream(compress(XZCompressorOutputStream::new, utf8(SESSION))));
      assertEquals(LogFormat.CSVLOG, read(Path.of("-")));
      assertSession("stdin");
      records.clear();
      System.setIn(new ByteArrayInputStream(utf8(SESSION)));
      read(Path.of("-"));
      assertSession("stdin");
    } finally {
      System.setIn(saved);
    }
  }

  @Test
  void aByteOrderMarkIsSkipped() throws IOException {
    byte[] bom = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};
    byte[] text = utf8(SESSION);
    byte[] withBom = Arrays.copyOf(bom, bom.length + text.length);
    System.arraycopy(text, 0, withBom, bom.length, text.length);
    read(write("bom.csv", withBom));
    assertSession("bom.csv");
    records.clear();
    read(write("bom.csv.gz", compress(GZIPOutputStream::new, withBom)));
    assertSession("bom.csv.gz");
  }

  @Test
  void emptyLogsGiveNoRecords() throws IOException {
    read(write("empty.csv", new byte[0]));
    read(write("empty.csv.gz", compress(GZIPOutputStream::new, new byte[0])));
    read(write("bom-only.log", new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf}));
    read(write("blank.log", utf8("\n\n")));
    assertEquals(List.of(), records);
    assertEquals(0, problems.count());
  }

  @Test
  void aMissingFileIsStillNoSuchFile() {
    assertThrows(NoSuchFileException.class, () -> read(dir.resolve("none.csv.gz")));
  }

  @Test
  void aCutOffCompressedLogIsOneUsageErrorNamingTheFile() throws IOException {
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      many.append(csv(26, "1.a", "00.000", "00000", "statement: SELECT " + i + " -- " + i * 7919));
    }
    byte[] gz = compress(GZIPOutputStream::new, utf8(many.toString()));
    Path cut = write("cut.csv.gz", Arrays.copyOf(gz, gz.length / 2));
    UsageException e = assertThrows(UsageException.class, () -> read(cut));
    assertTrue(
        e.getMessage().matches("cut\\.csv\\.gz: gzip data corrupt or cut off after line \\d+ .*"),
        e.getMessage());
    assertPrintable(e.getMessage());
    assertFalse(records.isEmpty(), "the records before the cut were read");

    byte[] bad = compress(GZIPOutputStream::new, utf8(SESSION));
    bad[3] = (byte) 0xff; // reserved header flags set: not gzip after all
    UsageException h = assertThrows(UsageException.class, () -> read(write("bad.gz", bad)));
    assertTrue(
        h.getMessage().startsWith("bad.gz: gzip data corrupt or cut off before its first line ("),
        h.getMessage());
    assertPrintable(h.getMessage());
  }

  @Test
  void aDirectoryIsAnIoFailureNotAUsageError() {
    IOException e = assertThrows(IOException.class, () -> read(dir));
    assertFalse(e instanceof NoSuchFileException);
  }

  @Test
  void binaryDataIsNamedNotPrinted() throws IOException {
    byte[] zip = {'P', 'K', 3, 4, 20, 0, 0, 0, 8, 0, (byte) 0xe9, (byte) 0x9c, 'x', '\n'};
    UsageException e = assertThrows(UsageException.class, () -> read(write("logs.zip", zip)));
    assertEquals(
        "logs.zip:1: not a csvlog, jsonlog or stderr log: binary data (compressed other than by"
            + " gzip, bzip2, xz or zstd? UTF-16 text?)",
        e.getMessage());

    byte[] latin1 = "Journal du serveur: d\u00e9marr\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
    UsageException l = assertThrows(UsageException.class, () -> read(write("fr.log", latin1)));
    assertTrue(l.getMessage().endsWith("line starts: Journal du serveur: d?marr?"), l.getMessage());
  }

  private static void assertPrintable(String message) {
    assertTrue(message.chars().allMatch(c -> c >= ' ' && c < 0x7f), message);
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
                "a.csv:1: not a stderr log with log_line_prefix '%m|%u|%d|%c|%e|' or"
                    + " '%m|%u|%d|%c|' (use --log-line-prefix)"),
        s.getMessage());
    assertEquals(0, problems.count());
  }

  private static final String STDERR_CLASSIC =
      "2024-05-01 12:00:00.100 UTC|alice|app|6630a1b2.1f3c|LOG:  statement: SELECT 1/0\n"
          + "2024-05-01 12:00:00.101 UTC|alice|app|6630a1b2.1f3c|ERROR:  division by zero\n"
          + "2024-05-01 12:00:00.101 UTC|alice|app|6630a1b2.1f3c|STATEMENT:  SELECT 1/0\n";

  @Test
  void stderrWithTheRecommendedPrefixCarriesSqlState() throws IOException {
    assertEquals("%m|%u|%d|%c|%e|", LogReader.DEFAULT_PREFIX);
    assertTrue(CaptureSettings.text().contains("log_line_prefix = '%m|%u|%d|%c|%e|'"));
    String text =
        "2024-05-01 12:00:00.100 UTC|alice|app|6630a1b2.1f3c|00000|LOG:  statement: SELECT 1/0\n"
            + "2024-05-01 12:00:00.101 UTC|alice|app|6630a1b2.1f3c|22012|ERROR:  division by zero\n"
            + "2024-05-01 12:00:00.101 UTC|alice|app|6630a1b2.1f3c|22012|STATEMENT:  SELECT 1/0\n";
    assertEquals(LogFormat.STDERR, read(write("postgresql.log", utf8(text))));
    assertEquals(2, records.size(), problems.messages().toString());
    assertEquals("00000", records.get(0).sqlState());
    LogRecord error = records.get(1);
    assertEquals("22012", error.sqlState());
    assertEquals("division by zero", error.message());
    assertEquals("SELECT 1/0", error.query());
    assertEquals("alice", error.user());
  }

  /** Each format's transaction id (csvlog transaction_id, jsonlog txid, stderr %x), 0 for none. */
  @Test
  void everyFormatCarriesTheTransactionId() throws IOException {
    String[] f = csv(26, "1.a", "00.100", "00000", "statement: COMMIT").split(",", -1);
    f[10] = "724";
    read(write("x.csv", utf8(String.join(",", f) + csv(26, "1.a", "00.200", "00000", "x"))));
    assertEquals(724, records.get(0).transactionId());
    assertEquals(0, records.get(1).transactionId());

    records.clear();
    String json =
        "{\"timestamp\":\"2024-05-01 12:00:00.100 UTC\",\"session_id\":\"1.a\",\"txid\":725,"
            + "\"error_severity\":\"LOG\",\"message\":\"statement: COMMIT\"}\n"
            + "{\"timestamp\":\"2024-05-01 12:00:00.200 UTC\",\"session_id\":\"1.a\","
            + "\"error_severity\":\"LOG\",\"message\":\"statement: SELECT 1\"}\n";
    read(write("x.json", utf8(json)));
    assertEquals(725, records.get(0).transactionId());
    assertEquals(0, records.get(1).transactionId());

    records.clear();
    String stderr =
        "2024-05-01 12:00:00.100 UTC|alice|app|6630a1b2.1f3c|00000|726|LOG:  statement: COMMIT\n"
            + "2024-05-01 12:00:00.200 UTC|alice|app|6630a1b2.1f3c|00000|0|LOG:  statement: SELECT"
            + " 1\n";
    new LogReader(problems, null, "%m|%u|%d|%c|%e|%x|")
        .read(write("x.log", utf8(stderr)), records::add);
    assertEquals(2, records.size(), problems.messages().toString());
    assertEquals(726, records.get(0).transactionId());
    assertEquals(0, records.get(1).transactionId());
    assertEquals("statement: COMMIT", records.get(0).message());
  }

  @Test
  void stderrWithPgreplaysPrefixIsReadWithoutSqlState() throws IOException {
    assertEquals(LogFormat.STDERR, read(write("pgreplay.log", utf8(STDERR_CLASSIC))));
    assertEquals(2, records.size(), problems.messages().toString());
    assertEquals("ERROR", records.get(1).severity());
    assertNull(records.get(1).sqlState());
    assertEquals("SELECT 1/0", records.get(1).query());
    assertEquals(0, problems.count());

    // given explicitly, the classic prefix reads the same
    records.clear();
    new LogReader(problems, null, LogReader.CLASSIC_PREFIX)
        .read(dir.resolve("pgreplay.log"), records::add);
    assertEquals(2, records.size());
  }

  @Test
  void aMemoryDumpInAStderrLogIsOneProblemPerRunOfItsLines() throws IOException {
    String dump =
        "TopMemoryContext: 101672 total in 12 blocks; 5232 free (18 chunks); 96440 used\n"
            + "  TopTransactionContext: 8192 total in 1 blocks; 7840 free (1 chunks); 352 used\n"
            + "    ExecutorState: 336608 total in 15 blocks; 121648 free (6 chunks); 214960 used\n";
    String rest = "        TupleSort: 24600 total in 2 blocks; 7520 free (0 chunks); 17080 used\n";
    String text = STDERR_CLASSIC.substring(0, STDERR_CLASSIC.indexOf('\n') + 1);
    // another session's line comes in the middle of the dump, as on a real server's stderr
    read(write("oom.log", utf8(text + dump + text + rest + "not a log line\n" + text)));
    assertEquals(3, records.size());
    assertEquals(
        List.of(
            "oom.log:2: a memory context dump (the server ran out of memory), 3 lines; left out",
            "oom.log:6: a memory context dump (the server ran out of memory), 1 line; left out",
            "oom.log:7: no log_line_prefix '%m|%u|%d|%c|' and level, 1 line; left out"),
        problems.messages());
    assertEquals(5, problems.skippedLines());
  }

  /** A csvlog field, quoted. */
  private static String q(String s) {
    return "\"" + s.replace("\"", "\"\"") + "\"";
  }
}
