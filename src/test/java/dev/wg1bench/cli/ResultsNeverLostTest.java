package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.support.TestJava;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against a real server, the run's result is never lost nor another's replaced: a default name
 * taken by another run gets a suffix, an existing -o file is refused before the run unless --force,
 * a device stays a device (the suite runs as root, where a rename over /dev/full succeeds), and a
 * full disk saves the result elsewhere with one line and exit 1.
 */
class ResultsNeverLostTest {
  @TempDir Path tmp;

  private String[] run(String... extra) throws Exception {
    Path script = tmp.resolve("one.sql");
    Files.writeString(script, "SELECT 1;\n");
    List<String> a =
        new ArrayList<>(
            List.of(
                "--target",
                TestServer.url(),
                "--script",
                script.toString(),
                "--clients",
                "1",
                "-t",
                "20",
                "--forks",
                "0"));
    a.addAll(List.of(extra));
    return a.toArray(new String[0]);
  }

  @Test
  void anExistingOutputIsRefusedBeforeTheRunUnlessForced() throws Exception {
    Path json = tmp.resolve("r.json");
    Files.writeString(json, "{\"earlier\":true}");
    Cli r = Cli.run(run("-o", json.toString()));
    CliErrorsTest.assertOneLine(
        r, 2, "--output " + json + ": the file exists; give --force to replace it");
    assertFalse(r.out.contains("running "), "refused after the run started:\n" + r);
    assertEquals("{\"earlier\":true}", Files.readString(json));
    r = Cli.run(run("-o", json.toString(), "--force"));
    assertEquals(0, r.exit, r.toString());
    assertTrue(
        r.out.contains("result written to " + json + " (replaced the file there)"), r.toString());
    assertTrue(Files.readString(json).contains("\"trials\""));
  }

  @Test
  void devicesAreWrittenInPlaceAndAFullDiskKeepsTheResult() throws Exception {
    Cli r = Cli.run(run("-o", "/dev/null", "--csv", "/dev/null"));
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("result written to /dev/null\n"), r.toString());
    assertTrue(r.out.contains("csv written to /dev/null (the trials table only"), r.toString());
    assertFalse(Files.isRegularFile(Path.of("/dev/null")), "/dev/null became a file");
    assertFalse(Files.exists(Path.of("/dev/null-summary.csv")));

    // /dev/stdout is the process's own stdout, whatever it points to (here a file): a JVM of its
    // own, as a command in this one prints to its own writer and not to the process's stdout
    String own = ownProcess(run("-o", "/dev/stdout"));
    assertTrue(
        own.contains("\"trials\" : [") && own.contains("}\nresult written to /dev/stdout"), own);

    r = Cli.run(run("-o", "/dev/full"));
    CliErrorsTest.assertOneLine(
        r, 1, "wg1bench: cannot write the result to /dev/full (No space left on device); saved to");
    assertTrue(r.out.contains("tps"), "the summary is still shown:\n" + r);
    Matcher m = Pattern.compile("saved to (\\S+) instead").matcher(r.err);
    assertTrue(m.find(), r.err);
    Path saved = Path.of(m.group(1));
    assertTrue(Files.readString(saved).contains("\"trials\""), "the saved result");
    Files.delete(saved);
    assertFalse(Files.isRegularFile(Path.of("/dev/full")), "/dev/full became a file");

    Path json = tmp.resolve("r.json");
    r = Cli.run(run("-o", json.toString(), "--csv", "/dev/full"));
    CliErrorsTest.assertOneLine(r, 1, "cannot write the csv to /dev/full");
    assertTrue(Files.readString(json).contains("\"trials\""), "the JSON is written first");
    assertFalse(Files.exists(Path.of("/dev/full-summary.csv")), "a file made beside /dev/full");
  }

  /**
   * A run whose default name another run took (the names of the next two minutes made in advance,
   * so the run cannot miss them) writes NAME-2.json, says so, and leaves the other file alone.
   */
  @Test
  void aDefaultNameTakenByAnotherRunGetsItsOwn() throws Exception {
    Path results = Files.createDirectories(tmp.resolve("results"));
    LocalDateTime now = LocalDateTime.now();
    for (int s = -5; s < 120; s++) {
      String stamp = now.plusSeconds(s).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
      Files.writeString(results.resolve(stamp + "-custom.json"), "another run's");
    }
    String out = ownProcess(run());
    Matcher m =
        Pattern.compile("result written to (results/\\d{8}-\\d{6}-custom-2\\.json)").matcher(out);
    assertTrue(m.find(), out);
    assertTrue(Files.readString(tmp.resolve(m.group(1))).contains("\"trials\""));
    String taken = m.group(1).replace("-2.json", ".json");
    assertEquals("another run's", Files.readString(tmp.resolve(taken)));
  }

  /** What the command line prints in a JVM of its own run in {@code tmp}, which must exit 0. */
  private String ownProcess(String... args) throws Exception {
    List<String> cmd = TestJava.command();
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(List.of(args));
    Path log = Files.createTempFile(tmp, "run", ".log");
    Process p =
        new ProcessBuilder(cmd)
            .directory(tmp.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertTrue(p.waitFor(3, TimeUnit.MINUTES));
    String out = Files.readString(log);
    assertEquals(0, p.exitValue(), out);
    return out;
  }
}
