package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.load.ssb.SsbLoader;
import dev.wg1bench.ssb.SsbDigest;
import dev.wg1bench.ssb.SsbQuery;
import dev.wg1bench.ssb.SsbSuite;
import dev.wg1bench.support.TestServer;
import dev.wg1bench.workload.Workload;
import dev.wg1bench.workload.WorkloadRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Star Schema Benchmark end to end on a real server: {@code init ssb} at SF 0.01 in each
 * variant, row counts of CHECKSUMS.md, the 13 query results against the shipped digests with and
 * without parallel plans, the safety rule, {@code ssb generate} against dbgen's sha256, bad input.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SsbTest {
  /** Rows at SF 0.01 (CHECKSUMS.md); date is the full 2557-day table, not dbgen's truncated 25. */
  static final Map<String, Long> ROWS_SF001 =
      Map.of("part", 2000L, "supplier", 20L, "customer", 300L, "date", 2557L, "lineorder", 60176L);

  /** dbgen's files at SF 0.01 (CHECKSUMS.md). */
  static final Map<String, String> SHA256_SF001 =
      Map.of(
          "customer.tbl", "c82a776ba66bedf340adac8289d91b013285534df80edf456a31bec70aa029ea",
          "date.tbl", "20342ada3f2185b008ea9961cc4ce7bd4379844a1216388e720da52d4a3143c2",
          "lineorder.tbl", "36bdb8fc2c6edfd9b4b54114d57921b0099dc5ffba55f4b29c7e409c55063e4b",
          "part.tbl", "5aec4de726245b1075d6c557ec2bd13693339267c0527e2ce86e8a1255e7eff9",
          "supplier.tbl", "ac6c8f1f9538495612438706bd261ca50f446407ab10efba40e6616c474263b4");

  /** Parallel plans even on tiny tables, so the parallel executor is really exercised. */
  static final List<String> PARALLEL =
      List.of(
          "SET max_parallel_workers_per_gather = 2",
          "SET parallel_setup_cost = 0",
          "SET parallel_tuple_cost = 0",
          "SET min_parallel_table_scan_size = 0",
          "SET min_parallel_index_scan_size = 0");

  @TempDir Path tmp;

  @ParameterizedTest(name = "init ssb --scale 0.01 --force, {0}")
  @ValueSource(strings = {"plain", "indexes", "partitioned"})
  @Order(1)
  void loadsEveryVariantWithTheReferenceResults(String variant) throws SQLException {
    List<String> args =
        new ArrayList<>(
            List.of("init", "ssb", "--scale", "0.01", "--force", "--target", TestServer.url()));
    if (!variant.equals("plain")) {
      args.add("--" + variant);
    }
    Cli r = Cli.run(args.toArray(String[]::new));
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains("generate+copy") && r.out.contains("analyze"), r.out);
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      for (Map.Entry<String, Long> e : ROWS_SF001.entrySet()) {
        assertEquals(e.getValue(), count(st, "SELECT count(*) FROM " + e.getKey()), e.getKey());
      }
      assertEquals(
          1, count(st, "SELECT count(*) FROM pg_constraint WHERE conname = 'lineorder_pkey'"));
      long indexes =
          count(
              st,
              "SELECT count(*) FROM pg_indexes WHERE tablename = 'lineorder'"
                  + " AND indexname LIKE 'idx_lo_%'");
      assertEquals(variant.equals("indexes") ? 4 : 0, indexes);
      long partitions =
          count(
              st,
              "SELECT count(*) FROM pg_inherits WHERE inhparent IN"
                  + " ('lineorder'::regclass, 'date'::regclass)");
      assertEquals(variant.equals("partitioned") ? 168 : 0, partitions);
      assertEquals(new SsbLoader.Loaded("0.01", variant), SsbLoader.detect(c));

      st.execute("SET max_parallel_workers_per_gather = 0");
      assertReferenceDigests(c, variant + ", no parallel workers");
      for (String s : PARALLEL) {
        st.execute(s);
      }
      assertReferenceDigests(c, variant + ", parallel plans");
    }
    Cli v = Cli.run("ssb", "verify", "--target", TestServer.url());
    assertEquals(0, v.exit, v.toString());
    assertEquals(
        13, v.out.lines().filter(l -> l.matches("q\\d\\.\\d +same \\(\\d+ rows\\)")).count());
  }

  private static void assertReferenceDigests(Connection c, String what) throws SQLException {
    Map<String, SsbDigest> got = SsbSuite.digests(c);
    assertEquals(SsbQuery.NAMES, List.copyOf(got.keySet()));
    for (Map.Entry<String, SsbDigest> e : got.entrySet()) {
      SsbDigest ref = SsbDigest.reference("0.01", e.getKey());
      assertNotNull(ref, "reference for " + e.getKey());
      assertEquals(ref, e.getValue(), e.getKey() + " (" + what + ")");
    }
  }

  @Test
  @Order(2)
  void refusesToReplaceTablesHoldingRowsWithoutForce() throws SQLException {
    Cli r = Cli.run("init", "ssb", "--scale", "0.01", "--target", TestServer.url());
    CliErrorsTest.assertOneLine(r, 2, "init ssb: table part already holds rows", "--force");
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      assertEquals(60176, count(st, "SELECT count(*) FROM lineorder"));
    }
  }

  @Test
  @Order(3)
  void aFailedReplaceLeavesTheOldTablesAndNoOtherTableIsTouched() throws SQLException {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("CREATE VIEW ssb_test_dependent AS SELECT lo_orderkey FROM lineorder");
      try {
        Cli r = Cli.run("init", "ssb", "--scale", "0.01", "--force", "--target", TestServer.url());
        CliErrorsTest.assertOneLine(r, 1, "init ssb", "ssb_test_dependent");
        assertEquals(60176, count(st, "SELECT count(*) FROM lineorder"));
        assertEquals(60176, count(st, "SELECT count(*) FROM ssb_test_dependent"));
      } finally {
        st.execute("DROP VIEW ssb_test_dependent");
      }
    }
  }

  @Test
  void generateWritesDbgensBytes() throws Exception {
    Path dir = tmp.resolve("sf001");
    Cli r =
        Cli.run(
            "ssb",
            "generate",
            "--scale",
            "0.01",
            "--output",
            dir.toString(),
            "--dbgen-truncated-date");
    assertEquals(0, r.exit, r.toString());
    for (Map.Entry<String, String> e : SHA256_SF001.entrySet()) {
      byte[] data = Files.readAllBytes(dir.resolve(e.getKey()));
      String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
      assertEquals(e.getValue(), sha, e.getKey());
    }
  }

  @Test
  void badScaleIsOneLineAndExit2() {
    String url = TestServer.url();
    CliErrorsTest.assertOneLine(
        Cli.run("init", "ssb", "--scale", "0", "--target", url), 2, "--scale", "got 0");
    CliErrorsTest.assertOneLine(
        Cli.run("init", "ssb", "--scale", "abc", "--target", url), 2, "--scale", "abc");
    CliErrorsTest.assertOneLine(
        Cli.run("init", "ssb", "--scale", "1.5", "--target", url), 2, "--scale", "1.5");
    CliErrorsTest.assertOneLine(
        Cli.run("ssb", "generate", "--scale", "0", "--output", tmp.toString()), 2, "--scale");
    CliErrorsTest.assertOneLine(
        Cli.run("ssb", "generate", "--scale", "abc", "--output", tmp.toString()),
        2,
        "--scale",
        "abc");
    CliErrorsTest.assertOneLine(Cli.run("ssb"), 2, "generate, verify or queries");
    CliErrorsTest.assertOneLine(
        Cli.run("ssb", "queries", "--repeat", "0", "--target", url), 2, "--repeat", "got 0");
  }

  @Test
  void theQueriesAreWorkloads() {
    List<Workload> ssb =
        WorkloadRegistry.all().stream().filter(w -> w.schema() == Workload.Schema.SSB).toList();
    assertEquals(14, ssb.size());
    assertEquals("ssb", ssb.get(0).name());
    for (int i = 0; i < 13; i++) {
      Workload w = ssb.get(i + 1);
      assertEquals("ssb_" + SsbQuery.NAMES.get(i), w.name());
      assertEquals("2020 §6.2.2", w.seed());
      w.check(Set.of("scale", "client_id", "nclients"));
    }
  }

  private static long count(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
