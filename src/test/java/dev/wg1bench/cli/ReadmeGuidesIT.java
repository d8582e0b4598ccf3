package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runs, reports, history and replays printed in the guides (docs/guides/), run as printed (see
 * {@link ReadmeCommands}): a class of its own so that Failsafe runs them beside the README's and
 * the other pages' ({@link ReadmeExamplesIT}'s), after the README's init, whose tables their runs
 * against the local server read.
 */
class ReadmeGuidesIT {
  @TempDir Path tmp;

  @Test
  @Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES) // servers started
  void everyGuidesRunAndReportLineRunsAsPrinted() throws IOException {
    List<String> failures =
        new ReadmeCommands(tmp)
            .runLines(
                d ->
                    ReadmeCommands.owner(d).equals("ReadmeGuidesIT")
                        || ReadmeCommands.theReadmesInit(d));
    assertEquals(List.of(), failures, String.join("\n\n", failures));
  }
}
