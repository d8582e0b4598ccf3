package dev.wg1bench.replay.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.wg1bench.plan.UsageException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * The server log readers fed arbitrary bytes and mutated csvlog and stderr logs (issue 56): a log
 * is read, with what could not be read reported as one-line problems, or refused as a whole in one
 * line (a {@link UsageException}, exit 2); no other Throwable escapes.
 */
class LogReaderPropertiesTest {
  private static final String SESSION =
      LogInputTest.csv(
              26, "1.a", "00.000", "00000", "connection authorized: user=alice database=app")
          + LogInputTest.csv(26, "1.a", "00.100", "00000", "statement: SELECT 1,\n 2")
          + LogInputTest.csv(26, "1.a", "00.200", "22012", "division by zero")
          + LogInputTest.csv(
              26, "1.a", "01.000", "00000", "disconnection: session time: 0:00:01.000");

  private static final String STDERR =
      "2024-05-01 12:00:00.000 UTC|alice|app|1.a|00000|LOG:  connection authorized: user=alice\n"
          + "2024-05-01 12:00:00.100 UTC|alice|app|1.a|00000|LOG:  statement: SELECT 1,\n"
          + "\t 2\n"
          + "2024-05-01 12:00:00.200 UTC|alice|app|1.a|22012|ERROR:  division by zero\n"
          + "2024-05-01 12:00:01.000 UTC|alice|app|1.a|00000|LOG:  disconnection: session\n";

  /** Reads the bytes as a log of each kind; asserts the outcome is one of the documented ones. */
  private static void readsOrRefusesInOneLine(byte[] bytes, String name) throws Exception {
    Path dir = Files.createTempDirectory("wg1bench-logprop-");
    Path f = dir.resolve(name);
    try {
      Files.write(f, bytes);
      for (LogFormat forced : new LogFormat[] {null, LogFormat.CSVLOG, LogFormat.STDERR}) {
        Problems problems = new Problems();
        List<LogRecord> records = new ArrayList<>();
        try {
          new LogReader(problems, forced, null).read(f, records::add);
        } catch (UsageException e) {
          assertEquals(1, e.getMessage().strip().lines().count(), e.getMessage());
        }
        for (String m : problems.messages()) {
          assertFalse(m.contains("\n"), "a problem is one line: " + m);
        }
      }
    } finally {
      Files.deleteIfExists(f);
      Files.deleteIfExists(dir);
    }
  }

  @Property(tries = 150)
  void arbitraryBytes(@ForAll @Size(max = 400) byte[] bytes) throws Exception {
    readsOrRefusesInOneLine(bytes, "arbitrary.log");
  }

  @Property(tries = 150)
  void mutatedCsvlog(@ForAll("csvMutations") String log) throws Exception {
    readsOrRefusesInOneLine(log.getBytes(StandardCharsets.UTF_8), "postgresql.csv");
  }

  @Property(tries = 150)
  void mutatedStderrLog(@ForAll("stderrMutations") String log) throws Exception {
    readsOrRefusesInOneLine(log.getBytes(StandardCharsets.UTF_8), "postgresql.log");
  }

  /** A gzip header on garbage: a compressed log that is corrupt. */
  @Property(tries = 50)
  void corruptCompressedLogs(@ForAll @Size(max = 200) byte[] rest) throws Exception {
    byte[] b = new byte[rest.length + 2];
    b[0] = (byte) 0x1f;
    b[1] = (byte) 0x8b;
    System.arraycopy(rest, 0, b, 2, rest.length);
    readsOrRefusesInOneLine(b, "postgresql.csv.gz");
  }

  @Provide
  Arbitrary<String> csvMutations() {
    return mutations(SESSION);
  }

  @Provide
  Arbitrary<String> stderrMutations() {
    return mutations(STDERR);
  }

  /**
   * A valid log with characters deleted, replaced or inserted (quotes, commas, NULs, breaks...).
   */
  private static Arbitrary<String> mutations(String valid) {
    Arbitrary<Character> nasty =
        Arbitraries.of('"', ',', '|', '\n', '\r', '\0', '\\', ':', '9', 'x', '\u00e9', '\ufeff');
    Arbitrary<int[]> edit =
        Combinators.combine(
                Arbitraries.integers().between(0, valid.length()),
                Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, 11))
            .as((at, kind, ch) -> new int[] {at, kind, ch});
    return Combinators.combine(edit.list().ofMaxSize(12), nasty.list().ofSize(12))
        .as(
            (edits, chars) -> {
              StringBuilder b = new StringBuilder(valid);
              for (int[] e : edits) {
                int at = Math.min(e[0], b.length());
                char c = chars.get(e[2]);
                if (e[1] == 0 && at < b.length()) {
                  b.deleteCharAt(at);
                } else if (e[1] == 1 && at < b.length()) {
                  b.setCharAt(at, c);
                } else {
                  b.insert(at, c);
                }
              }
              return b.toString();
            });
  }
}
