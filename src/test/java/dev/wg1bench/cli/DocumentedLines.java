package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One of the README tests: the documented lines {@link ReadmeCommands#owner} gives to the class by
 * its name, run as printed in their pages' order, each class in a Failsafe JVM of its own with its
 * own server.
 */
abstract class DocumentedLines {
  @TempDir Path tmp;

  /** A line of another class's that this one runs too, before its own: data its lines read. */
  boolean alsoRuns(ReadmeCommands.Documented d) {
    return false;
  }

  @Test
  @Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES) // servers, advise's blocks
  void everyLineRunsAsPrinted() throws IOException {
    String me = getClass().getSimpleName();
    List<String> failures =
        new ReadmeCommands(tmp).runLines(d -> ReadmeCommands.owner(d).equals(me) || alsoRuns(d));
    assertEquals(List.of(), failures, String.join("\n\n", failures));
  }
}
