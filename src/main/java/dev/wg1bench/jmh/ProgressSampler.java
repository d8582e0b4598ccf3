package dev.wg1bench.jmh;

import dev.wg1bench.json.Json;
import dev.wg1bench.server.FixedRate;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * pgbench -P in a fork: every interval, one JSON line with the interval's ops/s, latency p50/p99,
 * retries and failures, appended to {@code progress-PID.jsonl} in the trial directory. The parent
 * prints the lines as they appear and keeps them as the result's time series.
 */
final class ProgressSampler implements Runnable {
  private final long intervalNanos;
  private final Path file;
  private final Recorder latency = new Recorder(3);
  final LongAdder ok = new LongAdder();
  final LongAdder failed = new LongAdder();
  final LongAdder retries = new LongAdder();
  final LongAdder skipped = new LongAdder();
  volatile String phase = "setup";
  private volatile boolean running = true;
  private final Thread thread;

  ProgressSampler(long intervalNanos, Path dir) {
    this.intervalNanos = intervalNanos;
    this.file = dir.resolve("progress-" + ProcessHandle.current().pid() + ".jsonl");
    this.thread = new Thread(this, "wg1bench-progress");
    thread.setDaemon(true);
    thread.start();
  }

  void record(long micros) {
    latency.recordValue(micros);
  }

  void stop() {
    running = false;
    thread.interrupt();
  }

  @Override
  public void run() {
    FixedRate rate = new FixedRate(intervalNanos, false, () -> running);
    Histogram h = null;
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      while (rate.await()) {
        h = latency.getIntervalHistogram(h);
        double seconds = intervalNanos / 1e9;
        long n = ok.sumThenReset();
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("t", rate.dueSeconds());
        line.put("phase", phase);
        line.put("ops", n);
        line.put("opsPerSecond", n / seconds);
        line.put("p50Ms", h.getTotalCount() == 0 ? null : h.getValueAtPercentile(50) / 1000.0);
        line.put("p99Ms", h.getTotalCount() == 0 ? null : h.getValueAtPercentile(99) / 1000.0);
        line.put("retries", retries.sumThenReset());
        line.put("failures", failed.sumThenReset());
        line.put("skipped", skipped.sumThenReset());
        w.write(Json.LINE.writeValueAsString(line));
        w.write('\n');
        w.flush();
      }
    } catch (IOException e) {
      System.err.println("wg1bench: progress file " + file + ": " + e.getMessage());
    }
  }
}
