package dev.wg1bench.cli;

import static dev.wg1bench.replay.capture.HandMadeLogs.csv;
import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A replay's per-op figures (the JSON's {@code perOp}) are counted at each session's socket, as a
 * run's are: a replayed session of known statements gives exactly the round trips, completed
 * statements and rows the protocol requires. A replay's op is one query string sent as the log
 * holds it: each of the six below is one round trip in every query mode (a statement with values is
 * Parse/Bind/Execute/Sync written at once, or one Query with them inlined under -M simple), the
 * three-statement string one Query message with three CommandCompletes, the failed one none; the
 * connection's start-up is no op's.
 */
class ReplayPerOpTest {
  @TempDir Path dir;

  private static final String SESSION =
      log("1.a", "00.000", "connection authorized: user=alice database=app")
          + log("1.a", "00.100", "statement: BEGIN")
          + log("1.a", "00.200", "statement: SELECT 1")
          + log("1.a", "00.300", "statement: SELECT 1; SELECT 2; SELECT 3")
          + log("1.a", "00.400", "statement: COMMIT")
          + csv(
              "00.500",
              "1.a",
              "LOG",
              "00000",
              "execute <unnamed>: SELECT $1::int",
              "parameters: $1 = '5'",
              null,
              "psql",
              "client backend")
          + log("1.a", "00.600", "statement: SELECT 1/0")
          + csv(
              "00.601",
              "1.a",
              "ERROR",
              "22012",
              "division by zero",
              null,
              "SELECT 1/0",
              "psql",
              "client backend")
          + log("1.a", "00.700", "disconnection: session time: 0:00:00.700");

  /** Six query strings sent. */
  private static final double OPS = 6;

  @ParameterizedTest(name = "-M {0}")
  @ValueSource(strings = {"simple", "extended", "prepared"})
  void roundTripsAndStatementsPerReplayedStatementAreTheProtocols(String mode) throws Exception {
    Path csv = Files.writeString(dir.resolve("known.csv"), SESSION);
    Path out = dir.resolve("r.json");
    Cli r =
        Cli.run(
            "replay",
            csv.toString(),
            "--target",
            TestServer.url(),
            "-M",
            mode,
            "--speed",
            "max",
            "-o",
            out.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode result = Json.MAPPER.readTree(out.toFile());
    assertEquals(0, result.path("statementFidelity").path("divergent").asLong(), r.toString());
    JsonNode perOp = result.path("perOp");
    assertEquals(1.0, perOp.path("roundTrips").asDouble(), perOp.toString());
    // BEGIN, SELECT 1, three SELECTs in one string, COMMIT, SELECT $1; the failed one completes
    // none
    assertEquals(7 / OPS, perOp.path("statements").asDouble(), 1e-9, perOp.toString());
    assertEquals("completed", perOp.path("statementsFrom").asText(), perOp.toString());
    assertEquals(5 / OPS, perOp.path("rows").asDouble(), 1e-9, perOp.toString());
    assertTrue(perOp.path("bytesSent").asDouble() > 0, perOp.toString());
    assertTrue(perOp.path("serverMs").isNull(), perOp.toString());
    assertTrue(r.out.contains("per statement sent: 1.00 round trips"), r.out);
    // the client's CPU is the measurement's figure, per op (a statement sent)
    assertTrue(result.path("clientCpu").has("clientCpuMicrosPerOp"), result.toString());
  }

  /**
   * A replay result written before clientCpu became the measurement's ({@code cpuSeconds}, {@code
   * microsPerStatement}, {@code share}) still reads: report writes its pages, the figure unknown.
   */
  @Test
  void aResultWithTheEarlierClientCpuStillReads() throws Exception {
    Path csv = Files.writeString(dir.resolve("known.csv"), SESSION);
    Path out = dir.resolve("r.json");
    Cli r =
        Cli.run(
            "replay",
            csv.toString(),
            "--target",
            TestServer.url(),
            "--speed",
            "max",
            "-o",
            out.toString());
    assertEquals(0, r.exit, r.toString());
    String earlier =
        Files.readString(out)
            .replaceAll(
                "\"clientCpu\" : \\{[^}]*\\}",
                "\"clientCpu\" : {\"cpuSeconds\" : 0.5, \"microsPerStatement\" : 80.0,"
                    + " \"share\" : 0.1}");
    assertTrue(earlier.contains("microsPerStatement"), earlier);
    Files.writeString(out, earlier);
    Cli report = Cli.run("report", out.toString(), "--html", dir.resolve("html").toString());
    assertEquals(0, report.exit, report.toString());
  }
}
