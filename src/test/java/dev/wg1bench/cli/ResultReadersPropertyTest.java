package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wg1bench.history.store.HistoryStore;
import dev.wg1bench.history.store.HistoryStores;
import dev.wg1bench.history.store.ResultRuns;
import dev.wg1bench.history.store.StoredMetric;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.HtmlReport;
import dev.wg1bench.report.ReportFixtures;
import dev.wg1bench.result.TrialResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The result and import readers fed arbitrary and mutated input (a valid file with a number turned
 * into a string, NaN, a huge or a fractional one, a field dropped, the text cut short, bytes put
 * in, or nothing but random bytes): each either accepts it with finite figures only, or refuses it
 * in one line naming the file, with the documented exit code (2, a usage error); no {@code
 * Throwable} escapes. The tries are few (tens per property), so the class runs in seconds.
 */
class ResultReadersPropertyTest {
  private static final Path DIR = dir();
  private static final String RESULT = result();
  private static final String OTAVA_CSV =
      "time,commit,tps,p99\n"
          + "2024.01.01 3:00:00 +0100,a0,1000,5.5\n"
          + "2024.01.02 3:00:00 +0100,a1,1010.25,5\n"
          + "2024.01.03 3:00:00 +0100,a2,990,6\n";
  private static final String OTAVA_JSON =
      "[{\"timestamp\": 1704070800, \"attributes\": {\"commit\": \"a0\"},"
          + " \"metrics\": [{\"name\": \"tps\", \"value\": 1000}, {\"name\": \"p99\", \"value\": 5.5}]},"
          + " {\"timestamp\": 1704157200, \"attributes\": {\"commit\": \"a1\"},"
          + " \"metrics\": [{\"name\": \"tps\", \"value\": 1010.25}, {\"name\": \"p99\", \"value\": 5}]}]";

  private static final Pattern NUMBER =
      Pattern.compile("(?<=[:\\[,]\\s{0,3})-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?");
  private static final Pattern FIELD = Pattern.compile("\"\\w+\"\\s*:\\s*[^,{}\\[\\]]+,?");
  private static final List<String> NOT_FIGURES =
      List.of(
          "\"NaN\"",
          "NaN",
          "\"Infinity\"",
          "-1e400",
          "1e400",
          "\"12\"",
          "12.5",
          "1e30",
          "null",
          "true",
          "{}",
          "[]",
          "\"\"",
          "99999999999999999999999");

  @Property(tries = 40)
  void historyAddStoresFiniteFiguresOrRefusesInOneLine(@ForAll("results") byte[] input)
      throws Exception {
    Path f = write(input, "result.json");
    Path home = Files.createTempDirectory(DIR, "home-");
    System.setProperty("wg1bench.home", home.toString());
    try {
      Cli c = Cli.run("history", "add", f.toString());
      acceptedOrOneLine(c, f);
      if (c.exit == 0) {
        allFinite(home);
      }
    } finally {
      System.clearProperty("wg1bench.home");
    }
  }

  @Property(tries = 50)
  void theResultReadersAgreeAndNeverThrow(@ForAll("results") byte[] input) throws Exception {
    Path f = write(input, "result.json");
    HtmlReport.Source read = null;
    try {
      read = HtmlReport.read(f);
      for (TrialResult t : read.run().trials()) {
        assertTrue(Double.isFinite(t.measurement().tps()), "tps read as a figure");
      }
    } catch (HtmlReport.BadInput e) {
      oneLineNaming(e.getMessage(), f);
    }
    try {
      StoredRun r = ResultRuns.read(f, Map.of());
      r.metrics().forEach(ResultReadersPropertyTest::finite);
    } catch (UsageException e) {
      oneLineNaming(e.getMessage(), f);
    }
    Cli diff = Cli.run("diff", f.toString(), f.toString());
    assertTrue(diff.exit != 1 && diff.exit != 4, "diff: no runtime failure: " + diff);
    if (read == null) {
      assertEquals(2, diff.exit, diff.toString());
      oneLineNaming(diff.err, f);
    }
  }

  @Property(tries = 40)
  void anOtavaCsvImportStoresFiniteFiguresOrRefusesInOneLine(@ForAll("csvs") byte[] input)
      throws Exception {
    imported(input, "o.csv", "otava-csv");
  }

  @Property(tries = 40)
  void anOtavaJsonImportStoresFiniteFiguresOrRefusesInOneLine(@ForAll("jsons") byte[] input)
      throws Exception {
    imported(input, "o.json", "otava-json");
  }

  private static void imported(byte[] input, String name, String format) throws Exception {
    Path f = write(input, name);
    Path home = Files.createTempDirectory(DIR, "home-");
    System.setProperty("wg1bench.home", home.toString());
    try {
      Cli c = Cli.run("history", "import", f.toString(), "--format", format, "--series", "o");
      acceptedOrOneLine(c, f);
      if (c.exit == 0) {
        allFinite(home);
      }
    } finally {
      System.clearProperty("wg1bench.home");
    }
  }

  @Provide
  Arbitrary<byte[]> results() {
    return mutants(RESULT);
  }

  @Provide
  Arbitrary<byte[]> csvs() {
    return mutants(OTAVA_CSV);
  }

  @Provide
  Arbitrary<byte[]> jsons() {
    return mutants(OTAVA_JSON);
  }

  /** The valid text, mutated in one of seven ways, or random bytes. */
  private static Arbitrary<byte[]> mutants(String valid) {
    Arbitrary<Integer> at = Arbitraries.integers().between(0, 1_000_000);
    Arbitrary<String> figure = Arbitraries.of(NOT_FIGURES);
    Arbitrary<byte[]> junk = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(12);
    Arbitrary<byte[]> mutated =
        Combinators.combine(Arbitraries.integers().between(0, 5), at, figure, junk)
            .as((kind, n, fig, bytes) -> mutate(valid, kind, n, fig, bytes));
    Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(200);
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(8, mutated),
        net.jqwik.api.Tuple.of(1, random),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(valid.getBytes(StandardCharsets.UTF_8))));
  }

  static byte[] mutate(String valid, int kind, int n, String figure, byte[] junk) {
    String out =
        switch (kind) {
          case 0, 1 -> replaceNth(valid, NUMBER, n, figure);
          case 2 -> replaceNth(valid, FIELD, n, "");
          case 3 -> valid.substring(0, n % valid.length());
          case 4 -> {
            int i = n % valid.length();
            yield valid.substring(0, i)
                + new String(junk, StandardCharsets.ISO_8859_1)
                + valid.substring(i);
          }
          default -> replaceNth(valid, NUMBER, n, "\"" + n + "\"");
        };
    return out.getBytes(StandardCharsets.UTF_8);
  }

  private static String replaceNth(String s, Pattern p, int n, String with) {
    Matcher m = p.matcher(s);
    int count = 0;
    while (m.find()) {
      count++;
    }
    if (count == 0) {
      return s;
    }
    m.reset();
    for (int i = 0; i <= n % count; i++) {
      m.find();
    }
    return s.substring(0, m.start()) + with + s.substring(m.end());
  }

  private static void acceptedOrOneLine(Cli c, Path f) {
    assertTrue(c.exit == 0 || c.exit == 2, "exit 0 or 2 (usage): " + c);
    if (c.exit == 2) {
      oneLineNaming(c.err, f);
    }
  }

  private static void oneLineNaming(String message, Path f) {
    assertEquals(1, message.strip().lines().count(), "one line: " + message);
    assertTrue(message.contains(f.getFileName().toString()), "names the file: " + message);
  }

  private static void allFinite(Path home) throws Exception {
    try (HistoryStore h = HistoryStores.open("", home)) {
      for (StoredRun r : h.runs()) {
        r.metrics().forEach(ResultReadersPropertyTest::finite);
      }
    }
  }

  private static void finite(StoredMetric m) {
    assertTrue(Double.isFinite(m.value()), m + ": a stored value is a number");
    assertTrue(Double.isNaN(m.low()) || Double.isFinite(m.low()), m.toString());
    assertTrue(Double.isNaN(m.high()) || Double.isFinite(m.high()), m.toString());
  }

  private static Path write(byte[] input, String name) throws Exception {
    Path f = Files.createTempDirectory(DIR, "in-").resolve(name);
    Files.write(f, input);
    return f;
  }

  private static Path dir() {
    try {
      Path d = Path.of("target", "property-inputs");
      Files.createDirectories(d);
      return Files.createTempDirectory(d, "run-");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A small valid result: the fixture's first two trials and summary, without progress series. */
  private static String result() {
    ObjectNode tree = Json.MAPPER.valueToTree(ReportFixtures.run());
    ArrayNode trials = (ArrayNode) tree.get("trials");
    while (trials.size() > 2) {
      trials.remove(2);
    }
    trials.forEach(t -> ((ObjectNode) t).remove(List.of("progress", "serverSamples")));
    ArrayNode summary = (ArrayNode) tree.get("summary");
    while (summary != null && summary.size() > 1) {
      summary.remove(1);
    }
    return Json.text(tree);
  }
}
