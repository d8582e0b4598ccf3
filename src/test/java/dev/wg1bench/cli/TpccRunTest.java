package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.support.TestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --workload tpcc}: the transactions' counts read back from the rows they added, the mix
 * from the deck, clause 3.3.2's conditions after a run (and a planted break found by --check), and
 * a database without the tables refused in one line naming the command that loads them.
 */
class TpccRunTest {
  static final String SCHEMA = "tpcc_run_test";

  /** The nine tables, as the workload names them to the tool (JdbcWorkload.tables()). */
  static final java.util.List<String> NINE = new dev.wg1bench.tpcc.Tpcc().tables();

  @TempDir Path dir;

  static String url() {
    return TestServer.url("currentSchema=" + SCHEMA);
  }

  @BeforeAll
  static void load() throws SQLException {
    execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
    Cli r = Cli.run("init", "--workload", "tpcc", "--scale", "1", "--force", "--target", url());
    assertEquals(0, r.exit, r.toString());
  }

  static void execute(String sql) throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("SET search_path = " + SCHEMA + ", public");
      st.execute(sql);
    }
  }

  static long scalar(String sql) throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("SET search_path = " + SCHEMA);
      try (ResultSet rs = st.executeQuery(sql)) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private Cli run(String name, String... extra) {
    String[] base = {
      "--workload",
      "tpcc",
      "--forks",
      "0",
      "--max-tries",
      "10",
      "--target",
      url(),
      "-o",
      dir.resolve(name + ".json").toString()
    };
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return Cli.run(args);
  }

  /** The measurement of the run written as NAME.json. */
  private JsonNode measurement(String name) throws java.io.IOException {
    return Json.MAPPER
        .readTree(dir.resolve(name + ".json").toFile())
        .get("trials")
        .get(0)
        .get("measurement");
  }

  /** Each step's completions, by name, and "NAME rolled back" its by-design rollbacks. */
  private Map<String, Long> steps(String name) throws Exception {
    JsonNode m = measurement(name);
    Map<String, Long> out = new HashMap<>();
    for (JsonNode c : m.get("scripts").get(0).get("commands")) {
      out.put(c.get("text").asText(), c.get("count").asLong());
      out.put(c.get("text").asText() + " rolled back", c.get("rolledBack").asLong());
    }
    assertEquals(0, m.get("totalFailedOps").asLong(), m.toString());
    return out;
  }

  @Test
  void committedTransactionsAreTheRowsAddedAndTheDeckDealsTheMix() throws Exception {
    long orders = scalar("SELECT count(*) FROM orders");
    long history = scalar("SELECT count(*) FROM history");
    Cli r = run("mix", "-c", "4", "-t", "200", "--check");
    assertEquals(0, r.exit, r.toString());
    // --check names the conditions of clause 3.3.2 it checked, each with how it came out
    assertTrue(
        r.out.contains(
            "check: ok (TPC-C 3.3.2.1 (W_YTD = sum(D_YTD)) ok; TPC-C 3.3.2.2 (D_NEXT_O_ID - 1 ="
                + " max(O_ID) = max(NO_O_ID)) ok; TPC-C 3.3.2.3 ("),
        r.out);
    assertTrue(r.out.contains("TPC-C 3.3.2.9 (") && !r.out.contains("3.3.2.5"), r.out);
    // the console and the JSON say what ran in the same words as list: TPC-C, from TPC-C 5.11
    assertTrue(r.out.contains("workload: tpcc (TPC-C 5.11)"), r.out);
    JsonNode json = Json.MAPPER.readTree(dir.resolve("mix.json").toFile());
    assertEquals("TPC-C 5.11", json.get("seed").asText(), json.toString());
    assertTrue(
        json.get("workloadDescription").asText().startsWith("TPC-C's five transactions"),
        json.toString());
    Map<String, Long> s = steps("mix");
    long rolledBack = s.get("new_order rolled back");
    long newOrders = s.get("new_order") - rolledBack;
    // two passes of the 100-card deck per client: 45 + 43 + 4 + 4 + 4 cards each
    assertEquals(4 * 2 * 45L, s.get("new_order"), s.toString());
    // only New-Order rolls back by design
    assertEquals(0L, s.get("payment rolled back"), s.toString());
    assertEquals(4 * 2 * 43L, s.get("payment"), s.toString());
    assertEquals(4 * 2 * 4L, s.get("order_status"), s.toString());
    assertEquals(4 * 2 * 4L, s.get("delivery"), s.toString());
    assertEquals(4 * 2 * 4L, s.get("stock_level"), s.toString());
    // a committed New-Order adds one order, a rolled-back one none; a Payment one history row
    assertEquals(newOrders, scalar("SELECT count(*) FROM orders") - orders);
    assertEquals(s.get("payment"), scalar("SELECT count(*) FROM history") - history);
    // NOPM: the committed New-Orders per minute of the measured window, on new_order's line
    double seconds = measurement("mix").get("measuredSeconds").asDouble();
    String nopm = String.format(java.util.Locale.ROOT, "%.1f", newOrders * 60.0 / seconds);
    assertTrue(
        r.out
            .lines()
            .anyMatch(l -> l.contains("new_order (count") && l.contains("; " + nopm + "/min")),
        nopm + " in " + r.out);
  }

  /**
   * With a warmup, the measured windows count fewer transactions than the data shows; each step's
   * whole-trial counts are what the rows say, through a forked JVM's report and the console.
   */
  @Test
  void theWholeTrialsCountsAreTheRowsAddedWhateverTheWarmup() throws Exception {
    long orders = scalar("SELECT count(*) FROM orders");
    long history = scalar("SELECT count(*) FROM history");
    Path out = dir.resolve("whole.json");
    Cli r =
        Cli.run(
            "--workload",
            "tpcc",
            "--target",
            url(),
            "-c",
            "2",
            "--forks",
            "1",
            "--warmup",
            "1s",
            "--duration",
            "1s",
            "--iterations",
            "1",
            "-o",
            out.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode m = measurement("whole");
    Map<String, JsonNode> whole = new HashMap<>();
    for (JsonNode c : m.get("scripts").get(0).get("commands")) {
      JsonNode w = c.get("wholeTrial");
      assertTrue(w.get("count").asLong() >= c.get("count").asLong(), c.toString());
      whole.put(c.get("text").asText(), w);
    }
    assertEquals(0, m.get("totalFailedOps").asLong(), m.toString());
    JsonNode no = whole.get("new_order");
    long committed = no.get("count").asLong() - no.get("rolledBack").asLong();
    assertEquals(committed, scalar("SELECT count(*) FROM orders") - orders, no.toString());
    assertEquals(
        whole.get("payment").get("count").asLong(),
        scalar("SELECT count(*) FROM history") - history);
    long all = 0;
    for (JsonNode w : whole.values()) {
      all += w.get("count").asLong();
    }
    // the steps' whole-trial counts add up to the trial's ops (each op is one transaction)
    assertEquals(m.get("totalOps").asLong(), all, whole.toString());
    assertTrue(all >= m.get("ops").asLong(), "the warmup's transactions are in: " + m);
    // the console names the whole trial's counts where they differ from the windows'
    assertEquals(all > m.get("ops").asLong(), r.out.contains("; whole trial: count "), r.out);
  }

  @Test
  void checkNamesTheClauseABrokenConditionBelongsTo() throws Exception {
    execute("UPDATE district SET d_ytd = d_ytd + 1 WHERE d_w_id = 1 AND d_id = 1");
    try {
      Cli r = run("broken", "-c", "1", "-t", "5", "--check");
      assertEquals(1, r.exit, r.toString());
      assertTrue(
          (r.out + r.err).contains("TPC-C 3.3.2.1 (W_YTD = sum(D_YTD)) fails in 1 place(s)"),
          r.toString());
    } finally {
      execute("UPDATE district SET d_ytd = d_ytd - 1 WHERE d_w_id = 1 AND d_id = 1");
    }
  }

  @Test
  void theFullCheckEvaluatesAllTwelveConditionsAndNamesABrokenOne() throws Exception {
    Cli ok = run("full", "-c", "2", "-t", "50", "--check", "-D", "check=full");
    assertEquals(0, ok.exit, ok.toString());
    assertTrue(ok.out.contains("check: ok"), ok.out);
    for (int n = 1; n <= 12; n++) {
      assertTrue(ok.out.contains("TPC-C 3.3.2." + n + " ("), n + ": " + ok.out);
    }
    // 3.3.2.12 is one only the full check reads: the cheap check passes a break of it
    execute(
        "UPDATE customer SET c_balance = c_balance + 1 WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 7");
    try {
      Cli cheap = run("cheap", "-c", "1", "-t", "5", "--check");
      assertEquals(0, cheap.exit, cheap.toString());
      Cli full = run("broken-full", "-c", "1", "-t", "5", "--check", "-D", "check=full");
      assertEquals(1, full.exit, full.toString());
      String said = full.out + full.err;
      assertTrue(said.contains("TPC-C 3.3.2.12 (C_BALANCE + C_YTD_PAYMENT"), said);
      assertTrue(said.contains("fails in 1 place(s), first customer 1/2/7"), said);
      assertTrue(said.contains("check FAILED: TPC-C 3.3.2.10 ("), said);
      // 3.3.2.10 reads the same balance
      assertTrue(said.contains("TPC-C 3.3.2.10 (C_BALANCE = sum(delivered OL_AMOUNT)"), said);
    } finally {
      execute(
          "UPDATE customer SET c_balance = c_balance - 1 WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 7");
    }
  }

  @Test
  void aCheckDepthOtherThanFullIsRefusedBeforeTheRun() throws Exception {
    long orders = scalar("SELECT count(*) FROM orders");
    Cli r = run("depth", "-c", "1", "-t", "5", "--check", "-D", "check=most");
    // bad input: exit 2, one line in the workload's words, no exception's class name
    assertEquals(2, r.exit, r.toString());
    assertTrue(
        r.err.contains("workload tpcc: -D check=most is not valid: the only value is full"), r.err);
    assertTrue(!r.err.contains("Exception"), r.err);
    assertEquals(orders, scalar("SELECT count(*) FROM orders"));
  }

  /**
   * Keying and think times: after its first transaction a terminal waits at least the next one's
   * keying time (2 s at the least, clause 5.2.5.7), so a 3 s trial of 2 terminals completes at most
   * two transactions each; what ran is in the data as without them; a value other than true or
   * false is refused.
   */
  @Test
  void keyingAndThinkTimesPaceEachTerminal() throws Exception {
    long orders = scalar("SELECT count(*) FROM orders");
    Cli r = run("keying", "-c", "2", "-T", "3s", "--warmup", "0", "-D", "keyandthink=true");
    assertEquals(0, r.exit, r.toString());
    JsonNode m = measurement("keying");
    long total = m.get("totalOps").asLong();
    // a lower bound on time, so an upper bound on the count: what holds on any machine
    assertTrue(total <= 4, "two terminals, 2 s at least between two: " + m);
    if (m.has("scripts") && !m.get("scripts").isNull()) {
      for (JsonNode c : m.get("scripts").get(0).get("commands")) {
        if (c.get("text").asText().equals("new_order")) {
          JsonNode w = c.get("wholeTrial");
          assertEquals(
              w.get("count").asLong() - w.get("rolledBack").asLong(),
              scalar("SELECT count(*) FROM orders") - orders);
        }
      }
    }
    Cli bad = run("keying-bad", "-c", "1", "-t", "1", "-D", "keyandthink=yes");
    assertEquals(2, bad.exit, bad.toString());
    assertTrue(bad.err.contains("-D keyandthink=yes is not valid: true"), bad.err);
  }

  /**
   * TPC-C names its nine tables (JdbcWorkload.tables()): --table-option sets the storage parameters
   * on each before the trial, as the seed's long runs set autovacuum's, and --progress samples each
   * one's size and dead tuples from the server.
   */
  @Test
  void tableOptionsAndServerSamplesReachTheNineTables() throws Exception {
    try {
      Cli r =
          run(
              "options",
              "-c",
              "2",
              "-t",
              "20",
              "--progress",
              "1",
              "--table-option",
              "autovacuum_vacuum_scale_factor=0.01",
              "--table-option",
              "autovacuum_vacuum_threshold=0");
      assertEquals(0, r.exit, r.toString());
      for (String t : NINE) {
        long set =
            scalar(
                "SELECT count(*) FROM pg_class c, unnest(c.reloptions) o WHERE c.oid = '"
                    + t
                    + "'::regclass AND o IN ('autovacuum_vacuum_scale_factor=0.01',"
                    + " 'autovacuum_vacuum_threshold=0')");
        assertEquals(2, set, t);
      }
      JsonNode samples =
          Json.MAPPER
              .readTree(dir.resolve("options.json").toFile())
              .get("trials")
              .get(0)
              .get("serverSamples");
      assertTrue(samples.size() >= 1, samples.toString());
      JsonNode first = samples.get(0).get("tables");
      assertEquals(9, first.size(), first.toString());
      assertTrue(first.get("stock").get("tableBytes").asLong() > 0, first.toString());
    } finally {
      for (String t : NINE) {
        execute(
            "ALTER TABLE "
                + t
                + " RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold)");
      }
    }
  }

  @Test
  void listShowsTpcc() {
    Cli r = Cli.run("list");
    assertEquals(0, r.exit, r.toString());
    // its source is the standard it implements, and it is described as TPC-C, not as a user's class
    assertTrue(
        r.out
            .lines()
            .anyMatch(
                l ->
                    l.matches("tpcc +TPC-C 5\\.11 +TPC-C's five transactions.*")
                        && l.contains("init")),
        r.out);
  }

  /**
   * Serializable on one warehouse with many clients: the serialization failures and deadlocks are
   * retried under --max-tries and counted, and the conditions hold after it (whether or not any
   * retry happened: the counts must agree with the rows either way).
   */
  @Test
  void aSerializableRunOnOneWarehouseKeepsTheConditionsAndCountsItsRetries() throws Exception {
    long orders = scalar("SELECT count(*) FROM orders");
    long history = scalar("SELECT count(*) FROM history");
    Cli r =
        run(
            "serializable",
            "-c",
            "8",
            "-t",
            "100",
            "--isolation",
            "serializable",
            "--check",
            "-D",
            "check=full");
    assertTrue(r.out.contains("check: ok"), r.out);
    JsonNode m = measurement("serializable");
    // exit 3 only when some op still failed after its 10 tries, and then they are counted
    assertEquals(m.get("totalFailedOps").asLong() > 0 ? 3 : 0, r.exit, r.toString());
    long retries = 0;
    Map<String, Long> s = new HashMap<>();
    Map<String, Long> dealt = new HashMap<>();
    for (JsonNode c : m.get("scripts").get(0).get("commands")) {
      retries += c.get("retries").asLong();
      s.put(c.get("text").asText(), c.get("count").asLong() - c.get("rolledBack").asLong());
      dealt.put(c.get("text").asText(), c.get("count").asLong() + c.get("failures").asLong());
    }
    // a retry repeats its transaction (Op.attempt()): one whole deck per client, retried or not
    assertEquals(8 * 45L, dealt.get("new_order"), dealt.toString());
    assertEquals(8 * 43L, dealt.get("payment"), dealt.toString());
    assertEquals(8 * 4L, dealt.get("delivery"), dealt.toString());
    // the steps' retries are the run's: every retry is counted on the step that caused it
    assertEquals(m.get("retries").asLong(), retries, m.toString());
    assertTrue(r.out.contains("number of retries: " + retries + " "), r.out);
    // each op either succeeded or failed: nothing lost between the two counts
    assertEquals(8 * 100L, m.get("totalOps").asLong() + m.get("totalFailedOps").asLong());
    assertEquals(s.getOrDefault("new_order", 0L), scalar("SELECT count(*) FROM orders") - orders);
    assertEquals(s.getOrDefault("payment", 0L), scalar("SELECT count(*) FROM history") - history);
  }

  /**
   * The embedded default is made for the run and removed at exit, so no init could load it: the run
   * loads its warehouses there itself (--scale W), as pgbench's and SSB's tables are, and its
   * transactions keep clause 3.3.2's conditions on what it loaded.
   */
  @Test
  void theEmbeddedServerLoadsItsOwnWarehouses() throws Exception {
    Path json = dir.resolve("embedded.json");
    Cli r =
        Cli.run(
            "--workload",
            "tpcc",
            "--target",
            "embedded",
            "--forks",
            "0",
            "-c",
            "2",
            "-t",
            "20",
            "--check",
            "-o",
            json.toString());
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("target embedded: loading tpcc at scale 1"), r.out);
    assertTrue(r.out.contains("data: TPC-C, 1 warehouse(s), loaded on the fresh server"), r.out);
    assertTrue(r.out.contains("check: ok (TPC-C 3.3.2.1 (W_YTD = sum(D_YTD)) ok;"), r.out);
    JsonNode m = Json.MAPPER.readTree(json.toFile()).get("trials").get(0).get("measurement");
    assertEquals(40, m.get("totalOps").asLong() + m.get("totalFailedOps").asLong(), m.toString());
  }

  @Test
  void aDatabaseWithoutTheTablesIsRefusedInOneLine() throws SQLException {
    execute("CREATE SCHEMA IF NOT EXISTS tpcc_run_test_empty");
    Cli r =
        Cli.run(
            "--workload",
            "tpcc",
            "--forks",
            "0",
            "-t",
            "1",
            "--target",
            TestServer.url("currentSchema=tpcc_run_test_empty"));
    assertEquals(1, r.exit, r.toString());
    assertEquals(1, r.err.strip().lines().count(), r.err);
    assertTrue(
        r.err.contains(
            "table warehouse does not exist: load TPC-C's tables first with"
                + " 'wg1bench init --workload tpcc --scale W --target URL'"),
        r.err);
  }
}
