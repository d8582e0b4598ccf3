package dev.wg1bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.support.Await;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestJava;
import dev.wg1bench.support.TestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar, as a user runs it: a separate JVM that forks JMH JVMs. Runs after {@code mvn
 * package} (failsafe), against the embedded server it starts itself and against the test server.
 */
class JarIT {
  static final String PLANTED = "Planted-Secret-0815";
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  static Path jar() {
    return Path.of(System.getProperty("wg1bench.jar", "target/wg1bench.jar"));
  }

  static Process start(Path log, String... args) throws IOException {
    List<String> cmd = TestJava.command();
    cmd.addAll(List.of("-jar", jar().toString()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** The README's first command, shortened: embedded server, one JMH fork, a JSON result. */
  @Test
  void readmeCommandRunsRrWrite10OnTheEmbeddedServer() throws Exception {
    Path log = tmp.resolve("out.txt");
    Path json = tmp.resolve("r.json");
    Process p =
        start(
            log,
            "--workload",
            "rr_write10",
            "--clients",
            "8",
            "--duration",
            "1s",
            "--iterations",
            "2",
            "--warmup",
            "500ms",
            "--output",
            json.toString());
    assertTrue(p.waitFor(3, TimeUnit.MINUTES), "timed out");
    String out = Files.readString(log);
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("started an embedded PostgreSQL"), out);
    assertTrue(out.contains("tps = "), out);
    JsonNode t = JSON.readTree(json.toFile()).get("trials").get(0);
    assertEquals("embedded", t.get("targetKind").asText());
    assertEquals(
        "on", t.get("server").get("settings").get("synchronous_commit").asText(), "stock settings");
    assertEquals("on", t.get("server").get("settings").get("fsync").asText(), "stock settings");
    JsonNode m = t.get("measurement");
    assertTrue(m.get("ops").asLong() > 0, out);
    assertEquals(0, m.get("failedOps").asLong(), out);
    assertEquals(0, m.get("retries").asLong(), out);
    assertEquals("repeatable read", t.get("client").get("isolation").asText());
    Matcher dir = Pattern.compile("data in (\\S+), removed at exit").matcher(out);
    assertTrue(dir.find(), out);
    assertFalse(Files.exists(Path.of(dir.group(1))), "embedded data directory left behind");
  }

  /** Against a URL with a password: the forked JMH JVM's command line never holds it. */
  @Test
  void forkCommandLineNeverHoldsThePassword() throws Exception {
    PgbenchData.reset();
    Path log = tmp.resolve("out.txt");
    Path json = tmp.resolve("r.json");
    Process p =
        start(
            log,
            "--workload",
            "select_only",
            "--target",
            "t=" + TestServer.url("password=" + PLANTED),
            // the fork lives its JVM's start and these 3 s: dozens of looks at its command line
            "--duration",
            "1s",
            "--iterations",
            "2",
            "--warmup",
            "1s",
            "--output",
            json.toString());
    Set<String> forkCommandLines = ConcurrentHashMap.newKeySet();
    while (p.isAlive()) {
      p.descendants()
          .forEach(
              ph ->
                  ph.info()
                      .commandLine()
                      .filter(c -> c.contains("wg1bench.trial"))
                      .ifPresent(forkCommandLines::add));
      ProcessHandle.current().info();
      Thread.sleep(50);
    }
    String out = Files.readString(log);
    assertEquals(0, p.exitValue(), out);
    assertFalse(forkCommandLines.isEmpty(), "never saw the JMH fork");
    for (String c : forkCommandLines) {
      assertFalse(c.contains(PLANTED), "password on the fork's command line: " + c);
    }
    assertFalse(out.contains(PLANTED), "password in the console output");
    assertFalse(Files.readString(json).contains(PLANTED), "password in the JSON");
  }

  /**
   * Ctrl-C mid-run, sent to wg1bench alone (as kill, a CI runner or a service manager sends it; a
   * terminal's Ctrl-C reaches the JMH fork too): the run stops, its JMH fork ends, the embedded
   * server stops and its files are removed. Waits for named phases, never a fixed time: the first
   * progress line (the fork is measuring), then the process's end. How long the stop takes is
   * measured by bench/interrupt.sh, not asserted here.
   */
  @Test
  void interruptStopsTheEmbeddedServerAndRemovesItsFiles() throws Exception {
    Path log = tmp.resolve("out.txt");
    Process p =
        start(log, "--workload", "tpcb", "--duration", "5m", "--warmup", "0", "--progress", "1");
    Pattern dataLine = Pattern.compile("data in (\\S+), removed at exit");
    Pattern progressLine = Pattern.compile("(?m)^progress: ");
    Await.until(
        Duration.ofMinutes(3),
        "the data directory and the first progress line",
        () -> {
          String out = read(log);
          return !p.isAlive() || dataLine.matcher(out).find() && progressLine.matcher(out).find();
        },
        () -> read(log));
    assertTrue(p.isAlive(), read(log));
    Matcher m = dataLine.matcher(read(log));
    assertTrue(m.find(), read(log));
    Path data = Path.of(m.group(1));
    assertTrue(Files.isDirectory(data));
    List<ProcessHandle> forks = p.descendants().filter(JarIT::isFork).toList();
    assertFalse(forks.isEmpty(), "no JMH fork is measuring: " + read(log));
    // SIGINT, unless whoever started this build ignores it (a shell's background job does, and the
    // JVM keeps an ignored SIGINT ignored): then SIGTERM, which the JVM handles the same way
    String signal = ignoresSigint(p.pid()) ? "-TERM" : "-INT";
    new ProcessBuilder("kill", signal, Long.toString(p.pid())).start().waitFor();
    assertTrue(p.waitFor(3, TimeUnit.MINUTES), "did not stop after kill " + signal);
    String out = read(log);
    assertTrue(out.contains("wg1bench: stopping: ending 1 JMH fork(s)"), out);
    assertFalse(out.contains("\tat "), "a stack trace on Ctrl-C: " + out);
    for (ProcessHandle f : forks) {
      // it was ended before wg1bench's exit; the kernel may take a moment to reap it
      Await.until(Duration.ofMinutes(1), "the JMH fork " + f.pid() + " to end", () -> !f.isAlive());
    }
    assertFalse(Files.exists(data), "data directory left behind: " + data);
    boolean postgresLeft =
        ProcessHandle.allProcesses()
            .anyMatch(
                ph -> ph.info().commandLine().map(c -> c.contains(data.toString())).orElse(false));
    assertFalse(postgresLeft, "a postgres process still runs on " + data);
  }

  private static boolean isFork(ProcessHandle ph) {
    return ph.info().commandLine().map(c -> c.contains("ForkedMain")).orElse(false);
  }

  /** Bit 2 of /proc/PID/status SigIgn: SIGINT is ignored by that process. */
  private static boolean ignoresSigint(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseLong(line.substring(7).strip(), 16) & 0x2) != 0;
      }
    }
    return false;
  }

  private static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "";
    }
  }
}
