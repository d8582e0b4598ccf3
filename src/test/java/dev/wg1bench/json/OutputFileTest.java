package dev.wg1bench.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.RunFailure;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a result goes: a guarded name never replaces another run's file, a special file is written
 * in place (these tests run as root in CI, where a rename over /dev/null succeeds), and a result
 * that cannot be written is saved elsewhere with one line saying where.
 */
class OutputFileTest {
  @TempDir Path tmp;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aGuardedNameTakenByAnotherRunGetsItsOwnSuffix() throws Exception {
    Path name = tmp.resolve("results/20261205-010203-custom.json");
    OutputFile.guard(name);
    OutputFile.Written first = OutputFile.write(name, bytes("{\"run\":1}"), "result");
    // a second run of the same second guards the same name
    OutputFile.guard(name);
    OutputFile.Written second = OutputFile.write(name, bytes("{\"run\":2}"), "result");
    assertEquals(name, first.path());
    assertEquals(tmp.resolve("results/20261205-010203-custom-2.json"), second.path());
    assertEquals(second.path(), OutputFile.actual(name));
    assertEquals("{\"run\":1}", Files.readString(name));
    assertEquals("{\"run\":2}", Files.readString(second.path()));
    // the same run writing its result again (advise adds its RTT sweep) replaces its own file
    OutputFile.Written again = OutputFile.write(name, bytes("{\"run\":2.1}"), "result");
    assertEquals(second.path(), again.path());
    assertFalse(again.replaced());
    assertEquals("{\"run\":1}", Files.readString(name));
  }

  @Test
  void anUnguardedFileIsReplacedAndTheLineSaysSo() throws Exception {
    Path f = tmp.resolve("r.json");
    Files.writeString(f, "old");
    OutputFile.Written w = OutputFile.write(f, bytes("new"), "result");
    assertTrue(w.replaced());
    assertTrue(w.toString().contains("replaced"), w.toString());
    assertEquals("new", Files.readString(f));
  }

  @Test
  void devNullStaysADevice() {
    OutputFile.Written w = OutputFile.write(Path.of("/dev/null"), bytes("{}"), "result");
    assertEquals(Path.of("/dev/null"), w.path());
    assertFalse(Files.isRegularFile(Path.of("/dev/null")), "/dev/null replaced by a file");
    assertTrue(OutputFile.special(Path.of("/dev/null")));
    assertEquals(null, OutputFile.unwritable(Path.of("/dev/null")));
  }

  @Test
  void aFifoIsWrittenInPlace() throws Exception {
    Path fifo = tmp.resolve("pipe");
    assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
    Process reader = new ProcessBuilder("cat", fifo.toString()).start();
    OutputFile.write(fifo, bytes("{\"via\":\"fifo\"}"), "result");
    assertTrue(reader.waitFor(1, TimeUnit.MINUTES));
    assertEquals("{\"via\":\"fifo\"}", new String(reader.getInputStream().readAllBytes()));
    assertFalse(Files.isRegularFile(fifo), "the FIFO was replaced by a file");
  }

  @Test
  void aFullDiskSavesTheResultElsewhereInOneLine() throws Exception {
    Path full = Path.of("/dev/full");
    RunFailure e =
        assertThrows(
            RunFailure.class, () -> OutputFile.write(full, bytes("{\"kept\":true}"), "result"));
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertTrue(
        e.getMessage().startsWith("cannot write the result to /dev/full (No space left on device)"),
        e.getMessage());
    assertEquals("{\"kept\":true}", Files.readString(saved(e)));
    Files.delete(saved(e));
    assertFalse(Files.isRegularFile(full), "/dev/full replaced by a file");
    assertFalse(Files.exists(Path.of("/dev/full-2")));
  }

  @Test
  void aDirectoryThatCannotBeMadeSavesTheResultElsewhere() throws Exception {
    // a file where the result's directory should be: what a directory removed and replaced, or
    // permissions lost, look like to a root process that no permission stops
    Path blocker = tmp.resolve("results");
    Files.writeString(blocker, "not a directory");
    Path f = blocker.resolve("r.json");
    OutputFile.guard(f);
    RunFailure e =
        assertThrows(RunFailure.class, () -> OutputFile.write(f, bytes("{\"a\":1}"), "result"));
    assertTrue(e.getMessage().startsWith("cannot write the result to " + f), e.getMessage());
    assertEquals("{\"a\":1}", Files.readString(saved(e)));
    Files.delete(saved(e));
  }

  private static Path saved(RunFailure e) {
    Matcher m = Pattern.compile("saved to (\\S+) instead").matcher(e.getMessage());
    assertTrue(m.find(), e.getMessage());
    return Path.of(m.group(1));
  }
}
