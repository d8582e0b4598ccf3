package dev.wg1bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.wg1bench.plan.Timing;
import dev.wg1bench.support.Plans;
import java.time.Duration;
import java.util.LinkedHashMap;
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
        ConsoleReport.dataDiffers(data));
    data.put("embedded", "pgbench scale 10 (scale 10)");
    assertNull(ConsoleReport.dataDiffers(data));
    assertNull(ConsoleReport.dataDiffers(Map.of("one", "pgbench scale 1 (scale 1)")));
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
}
