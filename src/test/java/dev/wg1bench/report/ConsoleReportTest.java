package dev.wg1bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.wg1bench.plan.Timing;
import dev.wg1bench.support.Plans;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Console lines that are pure functions of their inputs. */
class ConsoleReportTest {

  @Test
  void targetsHoldingDifferentDataAreFlagged() {
    Map<String, String> data = new LinkedHashMap<>();
    data.put("local", "pgbench scale 10 (scale 10)");
    data.put("embedded", "pgbench scale 1 (scale 1)");
    assertEquals(
        "warning: the targets hold different data (local: pgbench scale 10 (scale 10), embedded:"
            + " pgbench scale 1 (scale 1)); the ratios compare databases, not only servers",
        ConsoleTables.dataDiffers(data));
    data.put("embedded", "pgbench scale 10 (scale 10)");
    assertNull(ConsoleTables.dataDiffers(data));
    assertNull(ConsoleTables.dataDiffers(Map.of("one", "pgbench scale 1 (scale 1)")));
  }

  @Test
  void expectedWallTimeCountsForksWarmupAndTrials() {
    Timing t = Plans.timing(Duration.ofSeconds(5), Duration.ofSeconds(10), 5, 1);
    assertEquals(
        "expected wall time: about 19 s (1 fork x (~4 s JVM start and setup + 5 s warmup + 10 s"
            + " measured))",
        WallTime.expected(t, 1));
    Timing two = Plans.timing(Duration.ZERO, Duration.ofSeconds(30), 3, 2);
    assertEquals(
        "expected wall time: about 204 s (3 trials x 2 forks x (~4 s JVM start and setup + 0 ms"
            + " warmup + 30 s measured))",
        WallTime.expected(two, 3));
  }

  /**
   * The summary and the trial lines, now written from the column declarations, keep the layout they
   * had when they were printf patterns (the patterns are the oracle here).
   */
  @Test
  void summaryAndTrialLinesKeepTheirLayout() {
    dev.wg1bench.result.BenchmarkRun run = ReportFixtures.run();
    java.util.Set<String> keys = new java.util.LinkedHashSet<>(List.of("target", "clients"));
    StringBuilder want = new StringBuilder(System.lineSeparator());
    want.append(
        String.format(
            "%-44s %3s %11s %23s %9s %9s %7s %7s %12s%n",
            "point",
            "n",
            "median tps",
            "min .. max",
            "p50 ms",
            "p99 ms",
            "failed",
            "retries",
            "total failed"));
    for (dev.wg1bench.result.PointSummary p : run.summary()) {
      want.append(
          String.format(
              java.util.Locale.ROOT,
              "%-44s %3d %11.1f %23s %9.3f %9.3f %7d %7d %12d%n",
              ConsoleReport.describe(p.point(), keys),
              p.trials(),
              p.medianTps(),
              String.format(java.util.Locale.ROOT, "%.1f .. %.1f", p.minTps(), p.maxTps()),
              p.medianP50Ms(),
              p.medianP99Ms(),
              p.failedOps(),
              p.retries(),
              p.totalFailedOps()));
    }
    String got = print(out -> ConsoleTables.summary(run, keys, out));
    assertEquals(want.toString(), got.substring(0, want.length()));

    // a trial whose failures are broken down by kind, where the fixture has one
    dev.wg1bench.result.TrialResult t =
        run.trials().stream()
            .filter(x -> !x.measurement().failures().isEmpty())
            .findFirst()
            .orElse(run.trials().get(0));
    dev.wg1bench.result.Measurement m = t.measurement();
    String line =
        String.format(
            java.util.Locale.ROOT,
            "[%d/%d] %s #%d: tps %s, p50 %.3f ms, p99 %.3f ms, failed %d%s, retries %d%n",
            t.sequence(),
            36,
            ConsoleReport.describe(t.point(), keys),
            t.repeat(),
            ConsoleReport.tps(m),
            m.latencyMs().p50(),
            m.latencyMs().p99(),
            m.failedOps(),
            m.failures().isEmpty() ? "" : " (" + kinds(m.failures()) + ")",
            m.retries());
    assertEquals(line, print(out -> ConsoleReport.trialLine(t, 36, keys, out)));
  }

  private static String kinds(Map<String, Long> f) {
    List<String> parts = new java.util.ArrayList<>();
    f.forEach((k, v) -> parts.add(k + " " + v));
    return String.join(", ", parts);
  }

  private static String print(java.util.function.Consumer<java.io.PrintStream> write) {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    java.io.PrintStream out =
        new java.io.PrintStream(b, true, java.nio.charset.StandardCharsets.UTF_8);
    write.accept(out);
    return b.toString(java.nio.charset.StandardCharsets.UTF_8);
  }
}
