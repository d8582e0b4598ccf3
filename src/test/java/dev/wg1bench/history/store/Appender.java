package dev.wg1bench.history.store;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A writer in a process of its own, for the tests of concurrent appends: appends runs tagged {@code
 * WRITER-I} to a history and prints each stored id as {@code id TAG}. Also a helper for the tests
 * that make such runs.
 */
public final class Appender {
  private Appender() {}

  /**
   * A run whose figures name its writer and its place, so a rewritten run would show: p99 is the
   * tag's hash, so two writers' runs are two runs (a run's id is made from its figures).
   */
  static StoredRun run(String tag, int i) {
    return new StoredRun(
        null,
        Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i),
        "run",
        Map.of("tag", tag, "commit", "c" + i),
        List.of(
            new StoredMetric("w clients=1 @t", "tps", true, 1000 + i, 990 + i, 1010 + i),
            new StoredMetric(
                "w clients=1 @t", "p99", false, tag.hashCode(), Double.NaN, Double.NaN)));
  }

  /**
   * Args: LOCATION (empty for the folder) HOME WRITER COUNT GO: opens the history, prints {@code
   * ready}, waits (a minute at most) for the file GO to exist, then appends.
   */
  public static void main(String[] args) throws Exception {
    String location = args[0];
    Path home = Path.of(args[1]);
    String writer = args[2];
    int count = Integer.parseInt(args[3]);
    Path go = Path.of(args[4]);
    try (HistoryStore s = HistoryStores.open(location, home)) {
      System.out.println("ready");
      System.out.flush();
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (!java.nio.file.Files.exists(go)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("no go file " + go + " within a minute");
        }
        Thread.sleep(1);
      }
      for (int i = 0; i < count; i++) {
        String tag = writer + "-" + i;
        StoredRun r = s.append(run(tag, i)).run();
        System.out.println(r.id() + " " + tag);
      }
    }
  }
}
