package dev.wg1bench.history.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.analysis.SeriesPoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default history: a folder under the home, one file per run, appended and never rewritten. */
class FolderStoreTest {
  @TempDir Path home;

  @Test
  void concurrentWritersInThreadsAndProcessesLoseNoRunAndRewriteNone() throws Exception {
    Map<String, String> first = Writers.append("", home, 4, 2, 10);
    assertEquals(60, first.size(), "60 appends, 60 distinct ids");
    Map<Path, byte[]> before = contents();
    // the same 60 runs again, by the same writers at once: each is already stored, under its id
    Map<String, String> second = Writers.append("", home, 4, 2, 10);
    assertEquals(first, second, "each run has the id it was stored under");
    Map<Path, byte[]> after = contents();
    assertEquals(before.keySet(), after.keySet(), "no file added");
    before.forEach(
        (f, b) -> assertTrue(java.util.Arrays.equals(b, after.get(f)), f + " rewritten"));

    Map<String, String> all = new HashMap<>(first);
    try (HistoryStore s = HistoryStores.open("", home)) {
      List<StoredRun> runs = s.runs();
      assertEquals(60, runs.size());
      for (StoredRun r : runs) {
        String tag = all.get(r.id());
        assertEquals(tag, r.attributes().get("tag"), "run " + r.id() + " is the one appended");
        int i = Integer.parseInt(tag.substring(tag.indexOf('-') + 1));
        assertEquals(1000 + i, r.metrics().get(0).value());
        assertTrue(Double.isNaN(r.metrics().get(1).low()), "no interval stays no interval");
      }
      for (int k = 1; k < runs.size(); k++) {
        assertFalse(
            SeriesOf.OLDEST_FIRST.compare(runs.get(k - 1), runs.get(k)) > 0, "oldest first");
      }
    }
    try (Stream<Path> left = Files.list(home.resolve("history/runs"))) {
      assertEquals(
          List.of(),
          left.filter(f -> f.getFileName().toString().startsWith(".")).toList(),
          "no temporary file left behind");
    }
  }

  private Map<Path, byte[]> contents() throws Exception {
    try (Stream<Path> files = Files.list(home.resolve("history/runs"))) {
      return files.collect(
          Collectors.toMap(
              f -> f,
              f -> {
                try {
                  return Files.readAllBytes(f);
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              }));
    }
  }

  @Test
  void seriesAreNamedConfigSlashMetricAndMatchedWholeByTheGlob() throws Exception {
    try (HistoryStore s = HistoryStores.open("", home)) {
      assertEquals(List.of(), s.series(null), "an empty history has no series");
      StoredRun a = s.append(Appender.run("a", 2)).run();
      StoredRun b = s.append(Appender.run("b", 1)).run();
      List<Series> all = s.series(null);
      assertEquals(
          List.of("w clients=1 @t/p99", "w clients=1 @t/tps"),
          all.stream().map(Series::name).toList());
      Series tps = s.series("*/tps").get(0);
      assertEquals("tps", tps.metric());
      assertTrue(tps.higherIsBetter());
      assertFalse(s.series("*/p99").get(0).higherIsBetter());
      // b's run started a second earlier: it comes first, whatever the order of appends
      assertEquals(List.of(b.id(), a.id()), tps.points().stream().map(SeriesPoint::runId).toList());
      assertEquals(1001, tps.points().get(0).value());
      assertEquals(991, tps.points().get(0).low());
      assertEquals("c1", tps.points().get(0).commit());
      assertEquals(1, s.series("w clients=? @t/tps").size());
      assertEquals(List.of(), s.series("tps"), "the glob matches the whole name");
      assertEquals(List.of(), s.series("w clients=1 @t/tp"));
      assertEquals(1, s.series("w clients=1 @t/tps").size(), "a name is a glob of itself");
    }
  }

  @Test
  void aRunFileOfANewerFormatIsRefusedNotMisread() throws Exception {
    Path runs = home.resolve("history/runs");
    Files.createDirectories(runs);
    Files.writeString(
        runs.resolve("20991231T000000.000000Z-00000000.json"),
        "{\"format\": 99, \"id\": \"x\", \"time\": \"2099-12-31T00:00:00Z\", \"kind\": \"run\","
            + " \"attributes\": {}, \"metrics\": []}");
    try (HistoryStore s = HistoryStores.open("", home)) {
      NewerFormatException e = assertThrows(NewerFormatException.class, s::runs);
      assertTrue(e.getMessage().contains("newer wg1bench"), e.getMessage());
    }
  }
}
