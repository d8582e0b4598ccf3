package dev.wg1bench.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.server.Targets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API's knob methods land in the plan the engine runs, as their command-line options do. */
class ApiKnobsTest {
  @Test
  void driverKnobsLandInThePlan(@TempDir Path dir) {
    Wg1bench w =
        Wg1bench.workload("tpcb")
            .fetchSize(50)
            .jdbcProperty("socketTimeout", "30")
            .jdbcProperty("ApplicationName", "api")
            .statementTimeout(Duration.ofMillis(250));
    RunPlan p = w.plan(dir.resolve("r.json"), List.of(Targets.defaultTarget()));
    assertEquals(50, p.driver().fetchSize());
    // a second property adds to the first, as a second --jdbc-property does
    assertEquals("30", p.driver().properties().get("socketTimeout"));
    assertEquals("api", p.driver().properties().get("ApplicationName"));
    assertEquals(
        "250ms", dev.wg1bench.plan.Knobs.STATEMENT_TIMEOUT.labels(p).get("statementTimeout"));
  }
}
