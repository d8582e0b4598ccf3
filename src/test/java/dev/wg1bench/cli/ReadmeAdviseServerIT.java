package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The advise guide's run of every shipped claim against a named server, with the init before it, as
 * printed (see {@link ReadmeCommands}): one line as long as all the other advise lines together
 * ({@link ReadmeAdviseIT}'s), in a class of its own so that Failsafe runs the two side by side.
 */
class ReadmeAdviseServerIT {
  @TempDir Path tmp;

  @Test
  @Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES) // every shipped claim's blocks
  void theAdviseAgainstANamedServerRunsAsPrinted() throws IOException {
    List<String> failures =
        new ReadmeCommands(tmp)
            .runLines(d -> ReadmeCommands.owner(d).equals("ReadmeAdviseServerIT"));
    assertEquals(List.of(), failures, String.join("\n\n", failures));
  }
}
