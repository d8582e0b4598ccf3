package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.support.Await;
import dev.wg1bench.support.TestJava;
import dev.wg1bench.support.TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run with a password, stopped mid-trial by SIGTERM or SIGKILL: no file under its temporary
 * directory (the trial directories, JMH's own files) ever holds the password, while the fork
 * measures or after the parent died. The fork gets it from the parent through a socket, never a
 * file; a SIGTERM also removes the trial directory. The JVM runs with its own java.io.tmpdir so the
 * scan sees only its files; its JMH fork inherits it.
 */
class SecretOffDiskTest {
  static final String PLANTED = "Planted-Secret-8123";

  @TempDir Path tmp;

  @Test
  void sigkillMidRunLeavesNoPasswordOnDisk() throws Exception {
    Path temp = Files.createDirectories(tmp.resolve("t"));
    Path log = tmp.resolve("kill.log");
    Process p = start(temp, log);
    List<ProcessHandle> forks = measuring(p, log);
    assertNoPasswordMidRun(temp);
    p.destroyForcibly(); // SIGKILL: no hook runs
    assertTrue(p.waitFor(1, TimeUnit.MINUTES));
    // the orphaned fork still runs its clients: it asked for the password long ago
    assertNoPassword(temp, "after SIGKILL of wg1bench");
    forks.forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle f : forks) {
      Await.until(Duration.ofMinutes(1), "the fork " + f.pid() + " to end", () -> !f.isAlive());
    }
    assertNoPassword(temp, "after the fork ended too");
  }

  @Test
  void sigtermMidRunLeavesNoPasswordAndNoTrialDirectory() throws Exception {
    Path temp = Files.createDirectories(tmp.resolve("t"));
    Path log = tmp.resolve("term.log");
    Process p = start(temp, log);
    List<ProcessHandle> forks = measuring(p, log);
    assertNoPasswordMidRun(temp);
    p.destroy(); // SIGTERM
    assertTrue(p.waitFor(3, TimeUnit.MINUTES), "did not stop after SIGTERM");
    assertNoPassword(temp, "after SIGTERM");
    forks.forEach(ProcessHandle::destroyForcibly);
    try (Stream<Path> s = Files.list(temp)) {
      List<Path> left =
          s.filter(f -> f.getFileName().toString().startsWith("wg1bench-trial-")).toList();
      assertEquals(List.of(), left, "trial directories left after SIGTERM");
    }
    assertFalse(read(log).contains("\tat "), read(log));
  }

  private Process start(Path temp, Path log) throws IOException {
    Path script = tmp.resolve("one.sql");
    Files.writeString(script, "SELECT 1;\n");
    List<String> cmd = TestJava.command();
    cmd.add("-Djava.io.tmpdir=" + temp);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(
        List.of(
            "--target",
            TestServer.url("password=" + PLANTED),
            "--script",
            script.toString(),
            "--clients",
            "2",
            "--duration",
            "5m",
            "--warmup",
            "0",
            "--iterations",
            "1",
            "--forks",
            "1",
            "--progress",
            "1",
            "--output",
            tmp.resolve("r.json").toString()));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** Waits for the first progress line (the fork has its password and measures); its forks. */
  private static List<ProcessHandle> measuring(Process p, Path log) throws Exception {
    Await.until(
        Duration.ofMinutes(3),
        "the first progress line",
        () -> !p.isAlive() || read(log).contains("progress: "),
        () -> read(log));
    assertTrue(p.isAlive(), read(log));
    // its only child is the JMH fork (a long class path can hide the fork's command line)
    List<ProcessHandle> forks = p.descendants().toList();
    assertFalse(forks.isEmpty(), "no JMH fork: " + read(log));
    return forks;
  }

  /** Every regular file under {@code dir}, read as bytes: none holds the password. */
  private static List<Path> assertNoPassword(Path dir, String when) throws IOException {
    byte[] planted = PLANTED.getBytes(StandardCharsets.UTF_8);
    List<Path> scanned = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path f : s.filter(Files::isRegularFile).toList()) {
        byte[] b;
        try {
          b = Files.readAllBytes(f);
        } catch (java.nio.file.NoSuchFileException gone) {
          continue;
        }
        scanned.add(f);
        assertFalse(indexOf(b, planted) >= 0, "the password is in " + f + " " + when);
      }
    }
    return scanned;
  }

  /** Mid-run the scan sees the trial's own file: it looks where the trial lives. */
  private static void assertNoPasswordMidRun(Path dir) throws IOException {
    List<Path> scanned = assertNoPassword(dir, "while the fork measures");
    assertTrue(
        scanned.stream().anyMatch(f -> f.getFileName().toString().equals("trial.json")),
        "no trial file under " + dir + ": " + scanned);
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "";
    }
  }
}
