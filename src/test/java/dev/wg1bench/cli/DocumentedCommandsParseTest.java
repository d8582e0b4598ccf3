package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command line printed in README.md and docs/ parses, in seconds: a misspelt option shows
 * here before the README tests (integration tests, minutes) run it.
 */
class DocumentedCommandsParseTest {
  @Test
  void everyDocumentedLineParses() throws IOException {
    List<String> failures = new ArrayList<>();
    for (ReadmeCommands.Documented d : ReadmeCommands.documented()) {
      String s = d.command().replaceAll("\\[[^\\]]*\\](\\.\\.\\.)?", " ").strip();
      String[] args =
          java.util.Arrays.stream(s.split("\\s+"))
              .map(t -> t.equals("URL") ? "jdbc:postgresql://127.0.0.1/test" : t)
              .toArray(String[]::new);
      try {
        Main.commandLine(args).parseArgs(args);
      } catch (CommandLine.ParameterException e) {
        failures.add(d.page() + ": " + d.command() + "\n  " + e.getMessage());
      }
    }
    assertEquals(List.of(), failures, String.join("\n", failures));
  }
}
