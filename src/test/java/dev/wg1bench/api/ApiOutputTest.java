package dev.wg1bench.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where an API run writes its result: the user's file when they asked for one, kept; otherwise a
 * temporary file, deleted when the run ends however it ends, so a test suite of a thousand runs
 * leaves nothing behind in the temporary directory.
 */
class ApiOutputTest {
  @TempDir Path dir;

  @Test
  void aResultNobodyAskedToKeepLeavesNoFile() {
    AtomicReference<Path> used = new AtomicReference<>();
    String r =
        ApiRegistrations.withOutput(
            null,
            "wg1bench-test-",
            p -> {
              assertTrue(Files.exists(p), "the run has a file to write to");
              used.set(p);
              return "done";
            });
    assertEquals("done", r);
    assertFalse(Files.exists(used.get()), used.get() + " is left behind");
  }

  @Test
  void aRunThatFailsLeavesNoFileEither() {
    AtomicReference<Path> used = new AtomicReference<>();
    assertThrows(
        IllegalStateException.class,
        () ->
            ApiRegistrations.withOutput(
                null,
                "wg1bench-test-",
                p -> {
                  used.set(p);
                  throw new IllegalStateException("the run failed");
                }));
    assertFalse(Files.exists(used.get()), used.get() + " is left behind");
  }

  @Test
  void theUsersOwnFileIsKept() throws Exception {
    Path mine = dir.resolve("mine.json");
    ApiRegistrations.withOutput(
        mine,
        "wg1bench-test-",
        p -> {
          assertEquals(mine, p);
          try {
            Files.writeString(p, "{}");
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          return null;
        });
    assertEquals("{}", Files.readString(mine));
  }
}
