package dev.wg1bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
    List<String> cmd =
        new ArrayList<>(
            List.of(
                ProcessHandle.current().info().command().orElse("java"), "-jar", jar().toString()));
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
            "3s",
            "--iterations",
            "3",
            "--warmup",
            "1s",
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
            "--duration",
            "4s",
            "--iterations",
            "4",
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

  /** Ctrl-C (SIGINT/SIGTERM) mid-run: the embedded server stops and its files are removed. */
  @Test
  void interruptStopsTheEmbeddedServerAndRemovesItsFiles() throws Exception {
    Path log = tmp.resolve("out.txt");
    Process p = start(log, "--workload", "tpcb", "--duration", "60s", "--warmup", "0");
    Path data = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline && data == null) {
      Matcher m = Pattern.compile("data in (\\S+), removed at exit").matcher(Files.readString(log));
      if (m.find() && Files.readString(log).contains("running tpcb")) {
        data = Path.of(m.group(1));
      }
      Thread.sleep(100);
    }
    assertTrue(data != null, Files.readString(log));
    assertTrue(Files.isDirectory(data));
    Thread.sleep(1500);
    new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "did not stop after SIGINT");
    final Path d = data;
    assertFalse(Files.exists(d), "data directory left behind: " + d);
    boolean postgresLeft =
        ProcessHandle.allProcesses()
            .anyMatch(
                ph -> ph.info().commandLine().map(c -> c.contains(d.toString())).orElse(false));
    assertFalse(postgresLeft, "a postgres process still runs on " + d);
  }
}
