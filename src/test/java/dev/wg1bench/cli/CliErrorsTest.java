package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import dev.wg1bench.workload.ScriptWorkload;
import dev.wg1bench.workload.Workload;
import dev.wg1bench.workload.WorkloadRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

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

  /**
   * The options several commands share are declared once, each range checked in one place: every
   * command says a bad value in the same words, before it connects anywhere.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "experiment brin --repeat 0|--repeat must be between 1 and 1000, got 0",
        "experiment brin --repeat 1001|--repeat must be between 1 and 1000, got 1001",
        "ssb queries --repeat 0|--repeat must be between 1 and 1000, got 0",
        "--workload tpcb --repeat 0|--repeat must be between 1 and 1000, got 0",
        "ssb generate --threads 0 -o x|--threads must be between 1 and 256, got 0",
        "init ssb --threads 300|--threads must be between 1 and 256, got 300",
        "init ssb --scale 200000|--scale must be between 0.0001 and 100000, got 200000",
        "diff a.json b.json --margin 200%|--margin must be between 0.1 and 100, got 200 (a"
            + " percentage)",
        "advise --margin 0|--margin must be between 0.1 and 100, got 0 (a percentage)",
        "diff a.json b.json --margin lots|--margin 'lots' must be a percentage, e.g. 5%",
        "merge a.json|merge needs -o FILE (--output)"
      })
  void sharedOptionsSayABadValueInOneWording(String spec) {
    String[] parts = spec.split("\\|", 2);
    assertOneLine(Cli.run(parts[0].split(" ")), 2, parts[1]);
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
        "--predict-rtt 0.5ms,abc|--predict-rtt 'abc' is not a round-trip time; use e.g. 0, 200us, 0.5ms or 2ms",
        "--predict-rtt 5|--predict-rtt '5' needs a unit",
        "--predict-rtt 20s|--predict-rtt '20s' is over 10s",
        "--predict-rtt 1ms,1000us|--predict-rtt lists 1ms twice",
        "--progress 10ms|--progress must be at least 100 ms",
        "--batch-size 0|--batch-size must be between 1 and 100000, got 0",
        "--jdbc-property prepareTreshold=3|'prepareTreshold' is not a pgjdbc property; closest: prepareThreshold",
        "--jdbc-property password=x|--jdbc-property password: give it in the URL",
        "--prepare-threshold 5|--prepare-threshold has no effect with --query-mode simple",
        "--binary-transfer maybe|'maybe' is not a boolean",
        "--fetch-size -1|--fetch-size must be between 0 and 100000000, got -1",
        "--rtt -1ms|--rtt' (DURATION): '-1ms' is negative; use e.g. 0, 200us, 0.5ms or 2ms",
        "--rtt abc|--rtt' (DURATION): 'abc' is not a round-trip time",
        "--rtt 11s|--rtt' (DURATION): '11s' is over 10s",
        "--rtt 5min|--rtt' (DURATION): '5min': unknown unit 'min' for a round-trip time",
        "--rtt 5|--rtt' (DURATION): '5' needs a unit",
        "--rtt 1ms --jdbc-property socketFactory=x.Y|--rtt 1ms cannot be combined with --jdbc-property socketFactory",
        "--warmup -1s|'-1s' is not a duration; use e.g. 10 (seconds), 10s, 500ms",
        "--iterations abc|'abc' is not an int",
        "--random-seed abc|'abc' is not a long",
        "--define x|--define 'x' must be NAME=VALUE, e.g. --define x=VALUE",
        "--set =1|--set '' is not a setting name (letters, digits, _ and .)",
        "--scale 0|--scale must be between 1 and 1000000, got 0",
        "--pool-size 0|--pool-size must be between 1 and 4, got 0",
        "--latency-limit abc|'abc' is not a duration",
        "--progress abc|'abc' is not a duration",
        "--rate -1|--rate must be > 0 and <= 10000000 ops/s, got -1.0",
        "--clients 20000|--clients must be between 1 and 10000, got 20000",
        "--isolation|Missing required parameter for option '--isolation' (LEVEL)",
        "--script|Missing required parameter for option '--script' (FILE[@WEIGHT])",
        "--script x.sql|--workload and --script exclude each other",
        "--jdbc-property socketTimeout=abc|--jdbc-property socketTimeout='abc' is not valid; expected an integer",
        "--jdbc-property tcpKeepAlive=yes|--jdbc-property tcpKeepAlive='yes' is not valid; expected true or false",
        "--jdbc-property sslmode=maybe|--jdbc-property sslmode: use --sslmode",
        "--target jdbc:postgresql://h:99999/x|port '99999' is not valid; expected a number from 1 to 65535",
        "--target postgresql://u@h:abc/x|port 'abc' is not valid; expected a number from 1 to 65535",
        "--target jdbc:postgresql://h/x?sslmode=bogus|--target 'jdbc:postgresql://h/x?sslmode=bogus': sslmode='bogus' is not valid; expected one of disable, allow, prefer, require, verify-ca, verify-full",
        "--target postgresql://u:Secret1@h/x?sslmode=bogus|--target 'postgresql://u:****@h/x?sslmode=bogus': sslmode='bogus' is not valid",
        "--target jdbc:postgresql://h/x?gssEncMode=no|gssEncMode='no' is not valid; expected one of disable, allow, prefer, require",
        "--target jdbc:postgresql://h/x?connectTimeout=5s|connectTimeout='5s' is not valid; expected an integer",
        "--target a=jdbc:postgresql://h/x --target a=jdbc:postgresql://h/y|--target names must differ",
        "--target embedded:9|--target embedded:9 is not a PostgreSQL major with embedded binaries; valid: 11, 12, 13, 14, 15, 16, 17, 18",
        "--password-file /nonexistent/pw --target jdbc:postgresql://h/x|--password-file /nonexistent/pw: cannot read it",
        "--output /proc/nope/r.json|--output /proc/nope/r.json: cannot write there (/proc/nope",
        "--output /tmp|--output /tmp: it is a directory",
        "--agent 3/3 --run-id r --target jdbc:postgresql://h/x|--agent I/N needs 0 <= I < N, got 3/3 (I counts from 0)",
        "--agent 0-3 --run-id r|--agent must be I/N with whole numbers (e.g. 0/3), got '0-3'",
        "--agent 0/3|--run-id must be 1-100 letters, digits, '.', '_', ':' or '-' (the same on every agent), got none",
        "--agent 0/3 --run-id a/b|--run-id must be 1-100 letters",
        "--run-id r|--run-id needs --agent I/N",
        "--agent 0/3 --run-id r|--agent needs a --target every agent reaches",
        "--agent 0/3 --run-id r --clients 2 --target jdbc:postgresql://h/x|--clients must be at least the number of agents (3) with --agent, got 2",
        "--agent 0/3 --run-id r --forks 0 --target jdbc:postgresql://h/x|--forks must be 1 with --agent",
        "--agent 0/2 --run-id r --clients 2,4 --target jdbc:postgresql://h/x|--agent needs one --clients value (the agents split it), got [2, 4]",
        "--agent 0/2 --run-id r --check --target jdbc:postgresql://h/x|--check cannot be used with --agent",
        "--agent 0/2 --run-id r --rendezvous-timeout 0|--rendezvous-timeout must be > 0",
        "-t 10 --agent 0/2 --run-id r --target jdbc:postgresql://h/x|-t (--transactions) cannot be used with --agent; use -T",
        "-t 10 --forks 2|--transactions runs in one fork, as pgbench runs once; give --forks 0 or 1, got 2",
        "-t 10 -T 5s|-t (--transactions) and -T (--duration) exclude each other, as in pgbench",
        "-t 0|--transactions must be between 1 and 2147483647, got 0",
        "-t 10 --warmup 5s|--transactions runs one iteration without warmup, as pgbench -t",
        "-t 10 --iterations 3|--transactions runs one iteration without warmup",
        "-S|--workload and -S exclude each other; give one of them (-S is --workload select_only",
        "-N|--workload and -N exclude each other",
        "-b select-only|--workload and -b exclude each other",
        "-j 0|-j (--jobs) must be between 1 and 2147483647, got 0",
        "-n --between-trials vacuum|-n (--no-vacuum) and --between-trials vacuum exclude each other",
        "--exit-on-abort --forks 0|--exit-on-abort needs --forks 1 or more",
        "--exit-on-abort --continue-on-error|--exit-on-abort and --continue-on-error exclude each other",
        "--aggregate-interval 5|--aggregate-interval needs -l (--log), as in pgbench",
        "--sampling-rate 0.1|--sampling-rate needs -l (--log), as in pgbench",
        "--log-prefix x|--log-prefix needs -l (--log), as in pgbench",
        "-l --sampling-rate 2|--sampling-rate must be > 0 and <= 1 (a fraction of ops), got 2.0",
        "-l --sampling-rate 0.5 --aggregate-interval 1|--sampling-rate and --aggregate-interval exclude each other",
        "-l --aggregate-interval 0|--aggregate-interval must be between 1 and 86400, got 0",
        "-l --repeat 2|-l (--log) writes one set of files for one trial",
        "-l --log-prefix /proc/nope/x|--log-prefix /proc/nope/x: cannot write there",
      })
  void badOptionValue(String option, String message) {
    String[] opt = option.split(" ");
    String[] args = new String[opt.length + 2];
    args[0] = "--workload";
    args[1] = "tpcb";
    System.arraycopy(opt, 0, args, 2, opt.length);
    assertOneLine(Cli.run(args), 2, message);
  }

  /** pgbench's -b names and prefixes, without --workload. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "-b tpcc|-b 'tpcc' is not a pgbench built-in script; valid: tpcb-like, simple-update,"
            + " select-only (or a prefix of one)",
        "-b s|-b 's' is ambiguous: it begins simple-update and select-only; valid:",
        "-b select-only@x|-b select-only@x: weight 'x' is not an integer from 0 to 2147483647",
        "-b select-only@0|--script weights must not all be 0",
        "-S --workload tpcb|--workload and -S exclude each other",
      })
  void pgbenchBuiltins(String option, String message) {
    assertOneLine(Cli.run(option.split(" ")), 2, message);
  }

  /** The flags pgbench users type are no longer taken for wg1bench's own with a wrong hint. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"-j 2", "-t 100", "-b select-only", "-S", "-N", "-n", "-l"})
  void pgbenchFlagsAreNotMistakenForOthers(String flags) {
    Cli r = Cli.run(("--bogus " + flags).split(" "));
    assertOneLine(r, 2, "Unknown option: '--bogus'");
    assertFalse(r.err.contains("did you mean"), r.err);
    assertFalse(r.err.contains(flags.split(" ")[0] + "'"), "flag itself refused: " + r.err);
  }

  @Test
  void unknownWorkloadListsTheValidOnes() {
    assertOneLine(
        Cli.run("--workload tpcx".split(" ")),
        2,
        "--workload 'tpcx' is not a workload (did you mean tpcb or tpcc?); valid: tpcb,"
            + " select_only");
  }

  @Test
  void noWorkload() {
    assertOneLine(Cli.run(), 2, "--workload, --script or --workload-class is required");
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
    Cli r = Cli.run("--workload", "tpcb", "--target", "jdbc:postgresql://127.0.0.1:1/nowhere");
    assertOneLine(r, 1, "target 127.0.0.1:1/nowhere", "Connection", "refused");
  }

  @Test
  void unknownHostAndNoListenerFailFastWithExit1() {
    Cli r = Cli.run("--workload", "tpcb", "--target", "jdbc:postgresql://nonexistent.invalid/db");
    assertOneLine(r, 1, "target nonexistent.invalid/db", "unknown host nonexistent.invalid");
    // another loopback address, nothing listening on the port
    r = Cli.run("--workload", "tpcb", "--target", "jdbc:postgresql://127.0.0.9:5999/db");
    assertOneLine(r, 1, "target 127.0.0.9:5999/db", "refused");
  }

  @Test
  void initCommandBadValues() {
    String url = "jdbc:postgresql://127.0.0.1:1/x";
    assertOneLine(
        Cli.run("init", "--target", url, "--scale", "abc"),
        2,
        "Invalid value for option '--scale': 'abc' is not an int");
    assertOneLine(
        Cli.run("init", "--target", url, "--fillfactor", "x"),
        2,
        "Invalid value for option '--fillfactor': 'x' is not an int");
    assertOneLine(Cli.run("init", "--target", "embedded"), 2, "give init an external --target");
    assertOneLine(Cli.run("init", "--bogus"), 2, "Unknown option: '--bogus'");
    assertOneLine(Cli.run("init", "--target", url), 1, "target 127.0.0.1:1/x", "refused");
  }

  /**
   * A failure late in init (here an event trigger that rejects the ALTER TABLE adding the primary
   * keys, after the data is committed) must not leave tables behind that look loaded; the message
   * says so, and a re-run succeeds.
   */
  @Test
  void failedInitLeavesNothingHalfBuiltAndCanBeReRun() throws Exception {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute(
          "CREATE OR REPLACE FUNCTION init_blocker() RETURNS event_trigger LANGUAGE plpgsql AS"
              + " $$ BEGIN RAISE EXCEPTION 'blocked by the test'; END $$");
      st.execute(
          "CREATE EVENT TRIGGER init_blocker ON ddl_command_end WHEN TAG IN ('ALTER TABLE')"
              + " EXECUTE FUNCTION init_blocker()");
    }
    String url = TestServer.url();
    try {
      assertOneLine(
          Cli.run("init", "--target", url, "--force"),
          1,
          "init failed while creating primary keys",
          "blocked by the test",
          "the pgbench tables were removed, nothing half-built is left: re-run init");
      assertEquals(
          0,
          PgbenchData.scalar(
              // in the schema init writes to: other tests keep tables of these names in schemas
              // of their own in the shared database
              "SELECT count(*) FROM pg_class WHERE relname IN ('pgbench_accounts',"
                  + " 'pgbench_branches', 'pgbench_tellers', 'pgbench_history')"
                  + " AND relnamespace = current_schema()::regnamespace"));
    } finally {
      try (Connection c = TestServer.connect();
          Statement st = c.createStatement()) {
        st.execute("DROP EVENT TRIGGER init_blocker");
        st.execute("DROP FUNCTION init_blocker()");
      }
    }
    Cli again = Cli.run("init", "--target", url);
    assertEquals(0, again.exit, again.toString());
    assertEquals(100_000, PgbenchData.scalar("SELECT count(*) FROM pgbench_accounts"));
    assertEquals(
        3,
        PgbenchData.scalar(
            "SELECT count(*) FROM pg_constraint WHERE contype = 'p' AND conrelid::regclass::text"
                + " LIKE 'pgbench_%'"));
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
    // the closing line times each step as pgbench -i does, so the two compare step by step
    assertTrue(
        forced.out.matches(
            "(?s).*done in [0-9.]+ s \\(drop tables [0-9.]+ s, create tables [0-9.]+ s,"
                + " client-side generate [0-9.]+ s, vacuum [0-9.]+ s, primary keys [0-9.]+ s;"
                + " scale 1, fillfactor 100\\)\\..*"),
        forced.out);
    assertEquals(0, PgbenchData.historyRows());
    assertEquals(100_000, PgbenchData.scalar("SELECT count(*) FROM pgbench_accounts"));
    assertEquals(7, PgbenchData.scalar("SELECT x FROM bystander"), "other tables untouched");
    assertOneLine(Cli.run("init"), 2, "init needs --target");
    assertOneLine(
        Cli.run("init", "--target", url, "--scale", "0"),
        2,
        "--scale must be between 1 and 1000000, got 0");
    assertOneLine(
        Cli.run("init", "--target", url, "--fillfactor", "5", "--force"),
        2,
        "--fillfactor must be between 10 and 100, got 5");
  }

  @Test
  void listShowsEveryWorkloadWithItsSeed() {
    Cli r = Cli.run("list");
    assertEquals(0, r.exit);
    List<Workload> all = WorkloadRegistry.all();
    // the registry itself holds the script, Java and SSB workloads the list must show
    assertTrue(all.stream().anyMatch(w -> w instanceof ScriptWorkload), "script workloads");
    assertTrue(all.stream().anyMatch(w -> !(w instanceof ScriptWorkload)), "Java workloads");
    assertTrue(all.stream().anyMatch(w -> w.schema() == Workload.Schema.SSB), "SSB workloads");
    List<String> rows = r.out.lines().skip(1).toList();
    // the workloads, then the applications written on the Java API (TPC-C)
    assertEquals(all.size() + WorkloadRegistry.applications().size(), rows.size(), r.out);
    for (WorkloadRegistry.Listed a : WorkloadRegistry.applications()) {
      assertTrue(rows.stream().anyMatch(l -> l.startsWith(a.name() + " ")), a.name() + r.out);
    }
    for (Workload w : all) {
      assertTrue(
          rows.stream().anyMatch(l -> l.startsWith(w.name() + " ") && l.contains(w.seed())),
          w.name() + " with seed " + w.seed() + " missing from list:\n" + r.out);
    }
  }
}
