package dev.wg1bench.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Follows the forks' progress files and prints each new line as it appears, as pgbench -P does;
 * keeps every point for the result's time series, so the console and the JSON agree.
 */
final class ProgressTail implements AutoCloseable {
  private final Path dir;
  private final PrintStream out;
  private final Map<Path, Long> offsets = new HashMap<>();
  private final List<JsonNode> points = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;

  ProgressTail(Path dir, PrintStream out) {
    this.dir = dir;
    this.out = out;
    this.thread = new Thread(this::loop, "wg1bench-progress-tail");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      poll();
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized void poll() {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f :
          files.filter(p -> p.getFileName().toString().startsWith("progress-")).sorted().toList()) {
        long off = offsets.getOrDefault(f, 0L);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "r")) {
          if (raf.length() <= off) {
            continue;
          }
          raf.seek(off);
          byte[] b = new byte[(int) (raf.length() - off)];
          raf.readFully(b);
          String chunk = new String(b, StandardCharsets.UTF_8);
          int end = chunk.lastIndexOf('\n');
          if (end < 0) {
            continue;
          }
          for (String line : chunk.substring(0, end).split("\n")) {
            JsonNode n = Json.MAPPER.readTree(line);
            points.add(n);
            print(n);
          }
          offsets.put(f, off + chunk.substring(0, end + 1).getBytes(StandardCharsets.UTF_8).length);
        }
      }
    } catch (IOException e) {
      // the directory goes away at the end of the trial; nothing more to follow
    }
  }

  private void print(JsonNode n) {
    out.printf(
        Locale.ROOT,
        "progress: %6.1f s, %9.1f ops/s, lat p50 %s ms, p99 %s ms, retries %d, failed %d%s [%s]%n",
        n.get("t").asDouble(),
        n.get("opsPerSecond").asDouble(),
        ms(n.get("p50Ms")),
        ms(n.get("p99Ms")),
        n.get("retries").asLong(),
        n.get("failures").asLong(),
        n.get("skipped").asLong() > 0 ? ", skipped " + n.get("skipped").asLong() : "",
        n.get("phase").asText());
  }

  private static String ms(JsonNode v) {
    return v == null || v.isNull() ? "-" : String.format(Locale.ROOT, "%.3f", v.asDouble());
  }

  /** Stops following after a last look, and returns every point seen. */
  synchronized List<JsonNode> finish() {
    running = false;
    thread.interrupt();
    poll();
    return List.copyOf(points);
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
