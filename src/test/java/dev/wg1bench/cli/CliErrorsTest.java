package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad input gets one line naming the option, the value and what is valid; exit 2 for usage, 1 for
 * runtime failures; never a stack trace; nothing destroyed.
 */
class CliErrorsTest {
  @TempDir Path tmp;

  static void assertOneLine(Cli r, int exit, String... fragments) {
    assertEquals(exit, r.exit, r.toString());
    String err = r.err.strip();
    assertEquals(1, err.lines().count(), "expected one line:\n" + r);
    assertFalse(
        err.contains("\tat ") || err.contains("Exception"),
        "no stack trace or exception names:\n" + r);
    for (String f : fragments) {
      assertTrue(err.contains(f), "'" + f + "' missing from: " + err);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "--clients 0|--clients must be between 1 and 10000, got 0",
        "--clients abc|'abc' is not an int",
        "--isolation snapshot|'snapshot' is not one of read_committed, repeatable_read, serializable",
        "--query-mode fast|'fast' is not one of simple, extended, prepared",
        "--duration 10x|'10x' is not a duration",
        "--duration 0|--duration must be > 0",
        "--iterations 0|--iterations must be between 1 and 1000, got 0",
        "--max-tries 0|--max-tries must be between 1 and 1000000, got 0",
        "--forks -1|--forks must be between 0 and 100, got -1",
        "--set synchronous_commit|--set",
        "--sslmode maybe|--sslmode 'maybe' is not one of disable, allow, prefer, require, verify-ca, verify-full",
        "--target ftp://host/db|--target 'ftp://host/db' is not a PostgreSQL URL",
        "--target jdbc:postgresql://host|has no database name",
        "--bogus|Unknown option: '--bogus'",
        "--exit-on-error --forks 0|--exit-on-error needs --forks 1 or more",
        "--clients 4 --pool-size 9|--pool-size must be between 1 and 4, got 9",
        "--rate 0|--rate must be > 0",
        "--rate fast|'fast' is not a double",
        "--latency-limit 0|--latency-limit must be > 0",
        "--progress 10ms|--progress must be at least 100 ms",
        "--batch-size 0|--batch-size must be between 1 and 100000, got 0",
        "--jdbc-property prepareTreshold=3|'prepareTreshold' is not a pgjdbc property; closest: prepareThreshold",
        "--jdbc-property password=x|--jdbc-property password: give it in the URL",
        "--prepare-threshold 5|--prepare-threshold has no effect with --query-mode simple",
        "--binary-transfer maybe|'maybe' is not a boolean",
        "--fetch-size -1|--fetch-size must be between 0 and 100000000, got -1",
      })
  void badOptionValue(String option, String message) {
    String[] opt = option.split(" ");
    String[] args = new String[opt.length + 2];
    args[0] = "--workload";
    args[1] = "tpcb";
    System.arraycopy(opt, 0, args, 2, opt.length);
    assertOneLine(Cli.run(args), 2, message);
  }

  @Test
  void unknownWorkloadListsTheValidOnes() {
    assertOneLine(
        Cli.run("--workload tpcc".split(" ")),
        2,
        "--workload 'tpcc' is not a workload; valid: tpcb, select_only");
  }

  @Test
  void noWorkload() {
    assertOneLine(Cli.run(), 2, "--workload or --script is required");
  }

  @Test
  void scriptErrorsNameFileAndLine() throws Exception {
    Path bad = tmp.resolve("bad.sql");
    Files.writeString(bad, "\\set aid random(1, 10)\n\\frobnicate 3\nSELECT 1;\n");
    assertOneLine(Cli.run("--script", bad.toString()), 2, "bad.sql:2: unknown meta-command");
    Files.writeString(bad, "\\set aid random(1, 10\nSELECT 1;\n");
    assertOneLine(Cli.run("--script", bad.toString()), 2, "bad.sql:1:");
    Files.writeString(bad, "SELECT :nope;\n");
    assertOneLine(Cli.run("--script", bad.toString()), 2, "bad.sql:1: undefined variable \"nope\"");
    assertOneLine(
        Cli.run("--script", tmp.resolve("missing.sql").toString()), 2, "missing.sql: no such file");
  }

  @Test
  void unreachableServerFailsFastWithExit1() {
    long t0 = System.nanoTime();
    Cli r = Cli.run("--workload", "tpcb", "--target", "jdbc:postgresql://127.0.0.1:1/nowhere");
    assertOneLine(r, 1, "target 127.0.0.1:1/nowhere", "Connection", "refused");
    assertTrue((System.nanoTime() - t0) / 1e9 < 10, "took too long");
  }

  @Test
  void unknownSessionSettingIsAUsageError() throws Exception {
    PgbenchData.reset();
    Cli r =
        Cli.run(
            "--workload",
            "select_only",
            "--target",
            TestServer.url(),
            "--set",
            "no_such_setting=1");
    assertOneLine(r, 2, "--set", "no_such_setting");
  }

  @Test
  void missingTablesNameTheInitCommand() throws Exception {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA IF NOT EXISTS empty_schema");
    }
    String url = TestServer.url("currentSchema=empty_schema");
    Cli r = Cli.run("--workload", "tpcb", "--target", "t=" + url);
    assertOneLine(r, 1, "pgbench tables are missing", "wg1bench.jar init --scale 10 --target");
  }

  @Test
  void initNeverDropsTablesHoldingRowsUnlessForced() throws Exception {
    PgbenchData.reset();
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute(
          "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, 1, 42, now())");
      st.execute("CREATE TABLE IF NOT EXISTS bystander(x int)");
      st.execute("INSERT INTO bystander VALUES (7)");
    }
    String url = TestServer.url();
    assertOneLine(Cli.run("init", "--target", url), 2, "already holds rows", "--force");
    assertEquals(1, PgbenchData.historyRows(), "nothing dropped without --force");
    Cli forced = Cli.run("init", "--target", url, "--force");
    assertEquals(0, forced.exit, forced.toString());
    assertEquals(0, PgbenchData.historyRows());
    assertEquals(100_000, PgbenchData.scalar("SELECT count(*) FROM pgbench_accounts"));
    assertEquals(7, PgbenchData.scalar("SELECT x FROM bystander"), "other tables untouched");
    assertOneLine(Cli.run("init"), 2, "init needs --target");
    assertOneLine(
        Cli.run("init", "--target", url, "--scale", "0"), 2, "--scale must be >= 1, got 0");
    assertOneLine(
        Cli.run("init", "--target", url, "--fillfactor", "5", "--force"),
        2,
        "--fillfactor must be between 10 and 100, got 5");
  }

  @Test
  void listShowsEveryWorkloadWithItsSeed() {
    Cli r = Cli.run("list");
    assertEquals(0, r.exit);
    for (String w :
        new String[] {
          "tpcb",
          "select_only",
          "select_range",
          "update1",
          "write1",
          "write10",
          "rr_write10",
          "insert8",
          "insert8_multirow"
        }) {
      assertTrue(
          r.out.lines().anyMatch(l -> l.startsWith(w + " ")), w + " missing from list:\n" + r.out);
    }
    assertTrue(r.out.contains("2015 §3.6.3"));
  }
}
