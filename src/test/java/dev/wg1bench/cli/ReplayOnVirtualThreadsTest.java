package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * The contended log replayed with its sessions on virtual threads (--threads virtual, as an
 * application's JDBC calls may run): the order between sessions parks and wakes them like platform
 * threads, so every outcome, the final rows and the unbroken waits hold as they do there, and the
 * result says which threads ran. A Java 21+ runtime only (the java21 surefire execution).
 */
@Tag("java21")
@EnabledForJreRange(min = JRE.JAVA_21)
class ReplayOnVirtualThreadsTest extends ReplayContendedTest {
  @Test
  void theSessionsOnVirtualThreadsKeepEveryOutcomeAndTheRows() throws Exception {
    JsonNode result = replay("virtual", "--speed", "max", "--threads", "virtual");
    assertEquals(
        "virtual",
        result.get("settings").get("threads").asText(),
        result.get("settings").toString());
  }
}
