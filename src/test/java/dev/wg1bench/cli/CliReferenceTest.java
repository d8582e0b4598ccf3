package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** docs/reference/cli.md is what the picocli model says today, every command included. */
class CliReferenceTest {
  @Test
  void theBuildGeneratedTheReferenceAndTheCommittedOneIsIt() throws IOException {
    // written by the build's process-classes phase (exec-maven-plugin), before any test runs
    assertTrue(
        Files.exists(CliReference.BUILT),
        CliReference.BUILT + " is missing: the build did not generate the reference");
    assertEquals(
        Files.readString(CliReference.BUILT),
        Files.readString(CliReference.FILE),
        "docs/reference/cli.md differs from the reference the build generated in "
            + CliReference.BUILT
            + ": copy it over (cp "
            + CliReference.BUILT
            + " "
            + CliReference.FILE
            + ") and commit it");
  }

  @Test
  void theCommittedReferenceIsTheGeneratedOne() throws IOException {
    String generated = CliReference.markdown();
    String committed = Files.readString(CliReference.FILE);
    assertEquals(
        generated,
        committed,
        "docs/reference/cli.md is out of date: regenerate it with 'mvn -B -q package -DskipTests"
            + " && cp target/generated-docs/cli.md docs/reference/cli.md' and commit it");
  }

  @Test
  void everyCommandHasASection() {
    String md = CliReference.markdown();
    for (String c :
        new String[] {"wg1bench", "wg1bench init", "wg1bench replay", "wg1bench advise"}) {
      assertTrue(md.contains("\n## " + c + "\n"), c);
    }
    Main.commandLine()
        .getSubcommands()
        .keySet()
        .forEach(name -> assertTrue(md.contains("\n## wg1bench " + name + "\n"), name));
  }
}
