package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's runs, init, reports and diffs, run as printed (see {@link ReadmeCommands} for what
 * is adapted); its SSB, experiment and advise lines are {@link ReadmeAnalysesIT}'s. An integration
 * test (mvn verify, not mvn test).
 */
class ReadmeExamplesIT {
  @TempDir Path tmp;

  @Test
  void theParserFindsEveryExample() throws IOException {
    List<String> c = ReadmeCommands.commands(Files.readString(Path.of("README.md")));
    assertTrue(c.size() >= 20, c.toString());
    assertTrue(c.contains("--workload rr_write10"), c.toString());
    assertTrue(
        c.contains(
            "--workload write10 --target local=jdbc:postgresql://127.0.0.1:5432/test --target"
                + " embedded --scale 10 --clients 4 --query-mode prepared"),
        c.toString());
    // every line belongs to one of the two README tests, and each has some
    assertTrue(c.stream().anyMatch(ReadmeCommands::analysis), c.toString());
    assertTrue(c.stream().anyMatch(l -> !ReadmeCommands.analysis(l)), c.toString());
  }

  @Test
  @Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES) // servers started
  void everyRunAndReportLineRunsAsPrinted() throws IOException {
    List<String> failures = new ReadmeCommands(tmp).runAll(c -> !ReadmeCommands.analysis(c));
    assertEquals(List.of(), failures, String.join("\n\n", failures));
  }
}
