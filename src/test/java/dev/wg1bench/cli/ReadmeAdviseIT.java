package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The advise lines of README.md and docs/, run as printed (see {@link ReadmeCommands}), but for
 * those against a named server ({@link ReadmeAdviseServerIT}'s): a class of its own, since its
 * claims' blocks hold much of the documented lines' time, so that Failsafe runs them beside the
 * other README tests, not after them.
 */
class ReadmeAdviseIT {
  @TempDir Path tmp;

  @Test
  @Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES) // every shipped claim's blocks
  void everyAdviseLineRunsAsPrinted() throws IOException {
    List<String> failures =
        new ReadmeCommands(tmp).runLines(d -> ReadmeCommands.owner(d).equals("ReadmeAdviseIT"));
    assertEquals(List.of(), failures, String.join("\n\n", failures));
  }
}
