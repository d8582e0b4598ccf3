package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replay command's usage errors and its no-server paths: one line, exit code, no trace. */
class ReplayCliTest {
  @TempDir Path dir;

  private Path log(String name, String text) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, text);
    return f;
  }

  private static final String CSV =
      "2024-05-01 12:00:00.100 UTC,\"alice\",\"app\",1,,1.a,1,,,,0,LOG,00000,"
          + "\"statement: SELECT 1\",,,,,,,,,\"psql\",\"client backend\",,0\n";

  @Test
  void captureSettingsNeedNoLog() {
    Cli r = Cli.run("replay", "--capture-settings");
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("logging_collector = on"), r.out);
    assertTrue(r.out.contains("log_statement = 'all'"), r.out);
  }

  @Test
  void usageErrorsAreOneLineWithExitTwo() throws Exception {
    Path csv = log("a.csv", CSV);
    String t = "--target=jdbc:postgresql://127.0.0.1:1/x";
    assertUsage(Cli.run("replay", t), "wg1bench: replay needs at least one LOG file");
    assertUsage(
        Cli.run("replay", csv.toString(), t, "--speed", "0"),
        "wg1bench: --speed must be a number > 0 and <= 1000000, or max, got 0");
    assertUsage(
        Cli.run("replay", dir.resolve("none.csv").toString(), t),
        "wg1bench: LOG " + dir.resolve("none.csv") + ": no such file");
    assertUsage(
        Cli.run("replay", log("b.log", "hello\n").toString(), t),
        "wg1bench: b.log:1: not a csvlog, jsonlog or stderr log");
    assertUsage(
        Cli.run("replay", csv.toString(), t, "--warmup", "5s"),
        "wg1bench: --warmup 5s needs --fresh: a warm-up plays the log's writes, and only --fresh"
            + " restores the database before the measured trial (or --warmup 0)");
    assertUsage(
        Cli.run("replay", csv.toString(), t, "--fresh", "--warmup", "soon"),
        "wg1bench: --warmup 'soon' is not a duration; use e.g. 10 (seconds), 10s, 500ms, 2m or"
            + " 1h");
    assertUsage(
        Cli.run("replay", csv.toString(), t, "--fresh=bogus"),
        "wg1bench: --fresh bogus: must be template, template=NAME or dump=FILE");
    assertUsage(
        Cli.run("replay", csv.toString(), t, "--fresh", "--map-database", "app=other"),
        "wg1bench: --fresh restores the target URL's database only");
    assertUsage(Cli.run("replay", csv.toString()), "wg1bench: replay needs --target URL");
  }

  /** Sessions on virtual threads need a runtime that has them: one line, before any connection. */
  @Test
  @org.junit.jupiter.api.condition.EnabledForJreRange(
      max = org.junit.jupiter.api.condition.JRE.JAVA_20)
  void virtualThreadsAreRefusedOnARuntimeWithoutThem() throws Exception {
    assertUsage(
        Cli.run(
            "replay",
            log("a.csv", CSV).toString(),
            "--target=jdbc:postgresql://127.0.0.1:1/x",
            "--threads",
            "virtual"),
        "wg1bench: --threads virtual needs a Java 21+ runtime, got Java ");
  }

  @Test
  void dryRunReadsTheLogAndConnectsToNothing() throws Exception {
    Cli r = Cli.run("replay", log("a.csv", CSV + CSV.substring(0, 40)).toString(), "--dry-run");
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("1 sessions, 1 statements, 1 transactions"), r.out);
    assertTrue(r.out.contains("skipped lines: 1"), r.out);
    assertTrue(r.out.contains("a.csv:2: record cut off at the end of the file"), r.out);
  }

  /**
   * A log with a deadlock says before the replay that its victim is the server's choice by time,
   * which a replay may not repeat: a divergence there is the server's, and said to be possible.
   */
  @Test
  void aLogWithADeadlockSaysItsVictimMayDiffer() throws Exception {
    String csv =
        line("00.100", "1.a", "LOG,00000,\"statement: BEGIN\",,,,,,")
            + line(
                "00.200", "1.a", "LOG,00000,\"statement: UPDATE t SET x = 1 WHERE id = 2\",,,,,,")
            + line(
                "00.300",
                "1.a",
                "ERROR,40P01,\"deadlock detected\",\"Process 1 waits for ShareLock on"
                    + " transaction 7; blocked by process 2.\",,,,,\"UPDATE t SET x = 1 WHERE id"
                    + " = 2\"")
            + line("00.400", "1.a", "LOG,00000,\"statement: ROLLBACK\",,,,,,");
    Cli r = Cli.run("replay", log("d.csv", csv).toString(), "--dry-run");
    assertEquals(0, r.exit, r.toString());
    assertTrue(
        r.out.contains(
            "the log holds 1 deadlock (40P01), 1 with the cycle in its DETAIL: the server chooses"
                + " a deadlock's victim by time"),
        r.out);
    assertFalse(
        Cli.run("replay", log("a.csv", CSV).toString(), "--dry-run").out.contains("deadlock"));
  }

  /** A csvlog record of user alice's session {@code id} at 12:00:{@code seconds}. */
  private static String line(String seconds, String id, String rest) {
    return "2024-05-01 12:00:"
        + seconds
        + " UTC,\"alice\",\"app\",1,,"
        + id
        + ",1,,,,0,"
        + rest
        + ",,,\"psql\",\"client backend\",,0\n";
  }

  @Test
  void anUnreachableTargetFailsOnceWithExitOne() throws Exception {
    Cli r =
        Cli.run(
            "replay",
            log("a.csv", CSV).toString(),
            "--target=jdbc:postgresql://127.0.0.1:1/x?user=postgres",
            "-o",
            dir.resolve("r.json").toString());
    assertEquals(1, r.exit, r.toString());
    assertTrue(r.err.startsWith("wg1bench: target 127.0.0.1:1/x: "), r.err);
    assertFalse(r.err.contains("\tat "), "no stack trace: " + r.err);
  }

  private static void assertUsage(Cli r, String start) {
    assertEquals(2, r.exit, r.toString());
    assertTrue(r.err.startsWith(start), r.toString());
    assertEquals(1, r.err.strip().lines().count(), r.err);
  }

  /**
   * A log of more sessions than --clients allows, none overlapping, is no usage error about an
   * option never given: the replay goes on to connect (here refused: exit 1, one line).
   */
  @Test
  void aLogOfMoreSessionsThanClientsAllowIsNoUsageError() throws Exception {
    Path csv = log("serial.csv", dev.wg1bench.replay.capture.HandMadeLogs.serialSessions(10_001));
    Cli r = Cli.run("replay", csv.toString(), "--target=jdbc:postgresql://127.0.0.1:1/x");
    assertFalse(r.err.contains("--clients"), r.toString());
    assertEquals(1, r.exit, r.toString());
    assertTrue(r.out.contains("10001 sessions"), r.toString());
    assertTrue(r.err.startsWith("wg1bench: target 127.0.0.1:1/x: "), r.toString());
    assertEquals(1, r.err.strip().lines().count(), r.toString());
  }
}
