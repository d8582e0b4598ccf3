package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The runs, init, reports and diffs printed in README.md and in docs/ outside the guides, run as
 * printed (see {@link ReadmeCommands} for what is adapted); the guides' are {@link
 * ReadmeGuidesIT}'s, the SSB, experiment and advise lines {@link ReadmeAnalysesIT}'s, {@link
 * ReadmeAdviseIT}'s and {@link ReadmeAdviseServerIT}'s. An integration test (mvn verify, not mvn
 * test).
 */
class ReadmeExamplesIT extends DocumentedLines {
  @Test
  void theParserFindsEveryExample() throws IOException {
    List<String> readme = ReadmeCommands.commands(Files.readString(Path.of("README.md")));
    assertTrue(readme.contains("--workload rr_write10"), readme.toString());
    List<String> c =
        ReadmeCommands.documented().stream().map(ReadmeCommands.Documented::command).toList();
    assertTrue(c.size() >= 20, c.toString());
    assertTrue(c.containsAll(readme), "README.md's lines run too: " + c);
    // the manual's pages are read too, not only the README
    assertTrue(
        c.stream().anyMatch(l -> l.startsWith("replay config/replay/example.csv")), c.toString());
    assertTrue(
        c.contains(
            "--workload write10 --target local=jdbc:postgresql://127.0.0.1:5432/test --target"
                + " embedded --scale 10 --clients 4 --query-mode prepared"),
        c.toString());
    // every line belongs to exactly one of the five README tests, and each has some
    java.util.Set<String> owners = new java.util.TreeSet<>();
    for (ReadmeCommands.Documented d : ReadmeCommands.documented()) {
      owners.add(ReadmeCommands.owner(d));
    }
    assertEquals(
        java.util.Set.of(
            "ReadmeExamplesIT",
            "ReadmeGuidesIT",
            "ReadmeAnalysesIT",
            "ReadmeAdviseIT",
            "ReadmeAdviseServerIT"),
        owners);
  }
}
