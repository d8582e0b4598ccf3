package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import dev.wg1bench.json.Json;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Your own code as a workload from the command line: every op's row is counted against the tool's
 * successful ops exactly, serialization failures are retried, an op that leaves its transaction
 * open fails and is rolled back, a class loads from --classpath in a forked JVM, and a class the
 * tool cannot use is one line.
 */
class JavaWorkloadTest {
  @TempDir Path dir;

  /** Inserts one row per op into the table named by -D table; its set-up makes the table. */
  public static class Counting implements JdbcWorkload {
    @Override
    public void setUp(DataSource ds) throws SQLException {
      try (Connection c = ds.getConnection();
          Statement st = c.createStatement()) {
        st.execute("CREATE TABLE IF NOT EXISTS " + table(null, c) + " (client int, n bigint)");
      }
    }

    private long n;

    @Override
    public void op(Op op) throws SQLException {
      try (PreparedStatement ps =
          op.connection().prepareStatement("INSERT INTO " + op.param("table") + " VALUES (?, ?)")) {
        ps.setInt(1, op.client());
        ps.setLong(2, n++);
        ps.executeUpdate();
      }
    }

    @Override
    public void check(DataSource ds, long committedOps) throws SQLException {
      long rows = count(ds, System.getProperty("wg1bench.test.table", ""));
      if (!System.getProperty("wg1bench.test.table", "").isEmpty() && rows != committedOps) {
        throw new AssertionError(rows + " rows for " + committedOps + " committed ops");
      }
    }
  }

  /** As Counting, and every third attempt fails with a serialization failure. */
  public static class Conflicting extends Counting {
    private int attempts;

    @Override
    public void op(Op op) throws SQLException {
      if (++attempts % 3 == 0) {
        throw new SQLException("could not serialize access (simulated)", "40001");
      }
      super.op(op);
    }
  }

  /** Every other op leaves its insert uncommitted. */
  public static class LeavesOpen extends Counting {
    private int ops;

    @Override
    public void op(Op op) throws SQLException {
      if (++ops % 2 == 0) {
        op.connection().setAutoCommit(false);
      }
      super.op(op);
    }
  }

  /** No public no-argument constructor. */
  /** Notes whether the pgbench tables were there when its set-up ran; its op reads nothing. */
  public static class OwnTablesOnly implements JdbcWorkload {
    static volatile Boolean pgbenchThere;

    @Override
    public void setUp(DataSource ds) throws SQLException {
      try (Connection c = ds.getConnection();
          Statement st = c.createStatement();
          ResultSet r = st.executeQuery("SELECT to_regclass('pgbench_accounts') IS NOT NULL")) {
        r.next();
        pgbenchThere = r.getBoolean(1);
      }
    }

    @Override
    public void op(Op op) throws SQLException {
      try (Statement st = op.connection().createStatement()) {
        st.execute("SELECT 1");
      }
    }
  }

  public static class NoConstructor implements JdbcWorkload {
    public NoConstructor(int x) {}

    @Override
    public void op(Op op) {}
  }

  /** Its set-up throws. */
  public static class BadSetUp implements JdbcWorkload {
    @Override
    public void setUp(DataSource ds) {
      throw new IllegalStateException("no schema here");
    }

    @Override
    public void op(Op op) {}
  }

  /** Its constructor throws, with a cause: the parent makes one to ask its tables. */
  public static class BadConstructor implements JdbcWorkload {
    public BadConstructor() {
      throw new IllegalStateException(
          "no config file", new java.io.FileNotFoundException("/etc/acme.conf"));
    }

    @Override
    public void op(Op op) {}
  }

  private static String table(String name, Connection c) {
    return System.getProperty("wg1bench.test.table");
  }

  private static long count(DataSource ds, String table) throws SQLException {
    try (Connection c = ds.getConnection()) {
      return count(c, table);
    }
  }

  private static long count(Connection c, String table) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet r = st.executeQuery("SELECT count(*) FROM " + table)) {
      r.next();
      return r.getLong(1);
    }
  }

  private Cli run(String table, String cls, String... more) {
    System.setProperty("wg1bench.test.table", table);
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            "--workload-class",
            cls,
            "-D",
            "table=" + table,
            "-c",
            "2",
            // a number of ops, not a window a loaded machine could leave without one
            "-t",
            "20",
            "--forks",
            "0",
            "--target",
            TestServer.url(),
            "-o",
            dir.resolve(table + ".json").toString()));
    args.addAll(List.of(more));
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS " + table);
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
    return Cli.run(args.toArray(String[]::new));
  }

  private JsonNode measurement(String table) throws Exception {
    return Json.MAPPER
        .readTree(dir.resolve(table + ".json").toFile())
        .get("trials")
        .get(0)
        .get("measurement");
  }

  private static long rows(String table) throws SQLException {
    try (Connection c = TestServer.connect()) {
      return count(c, table);
    }
  }

  @Test
  void everyCommittedOpIsOneRowAndTheCheckSaysSo() throws Exception {
    Cli r = run("jw_counting", Counting.class.getName(), "--check");
    assertEquals(0, r.exit, r.toString());
    JsonNode m = measurement("jw_counting");
    assertTrue(m.get("ops").asLong() > 0, m.toString());
    assertEquals(m.get("totalOps").asLong(), rows("jw_counting"), "rows against committed ops");
    assertEquals(0, m.get("totalFailedOps").asLong());
    // what was checked is the class's check(), not "no guarantee"
    assertTrue(r.out.contains("check: ok (check() of workload class:"), r.out);
  }

  /**
   * A workload class's statements are its own JDBC calls, which the runner does not see: they are
   * counted at the connections' sockets, as the server completed them (one INSERT per op here,
   * exactly), never shown as 0 or as not counted where the socket could read them.
   */
  @Test
  void aWorkloadClassesStatementsAreCountedAtTheSocket() throws Exception {
    Path csv = dir.resolve("jw_stmts.csv");
    Cli r = run("jw_stmts", Counting.class.getName(), "--csv", csv.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode m = measurement("jw_stmts");
    long ops = m.get("ops").asLong();
    assertTrue(ops > 0, m.toString());
    assertEquals(0, m.get("failedOps").asLong(), m.toString());
    assertEquals(ops, m.get("statements").asLong(), m.toString());
    JsonNode perOp = m.get("perOp");
    assertEquals(1.0, perOp.get("statements").asDouble(), 0.0, perOp.toString());
    assertEquals("completed", perOp.get("statementsFrom").asText(), perOp.toString());
    assertEquals(1.0, perOp.get("roundTrips").asDouble(), 0.0, perOp.toString());
    assertFalse(r.out.contains("statements/s = not counted"), r.out);
    assertTrue(r.out.contains("per op: 1.00 round trips, 1.00 statements (completed)"), r.out);
    List<String> lines = Files.readAllLines(csv);
    List<String> header = List.of(lines.get(0).split(","));
    String[] row = lines.get(1).split(",", -1);
    assertEquals(1.0, Double.parseDouble(row[header.indexOf("statementsPerOp")]), 0.0);
    assertEquals(1.0, Double.parseDouble(row[header.indexOf("roundTripsPerOp")]), 0.0);
  }

  @Test
  void aFreshServerGetsNoPgbenchTablesForAClass() {
    OwnTablesOnly.pgbenchThere = null;
    // no --target: the embedded server, started fresh for this run
    Cli r =
        Cli.run(
            "--workload-class",
            OwnTablesOnly.class.getName(),
            "-c",
            "1",
            "-T",
            "500ms",
            "--warmup",
            "0",
            "--iterations",
            "1",
            "--forks",
            "0",
            "-o",
            dir.resolve("fresh.json").toString());
    assertEquals(0, r.exit, r.toString());
    assertEquals(Boolean.FALSE, OwnTablesOnly.pgbenchThere, "set-up saw pgbench_accounts");
    assertFalse(r.out.contains("creating pgbench tables"), r.out);
  }

  @Test
  void serializationFailuresAreRetriedUnderMaxTries() throws Exception {
    Cli r = run("jw_conflicting", Conflicting.class.getName(), "--max-tries", "3");
    assertEquals(0, r.exit, r.toString());
    JsonNode m = measurement("jw_conflicting");
    assertTrue(m.get("retries").asLong() > 0, m.toString());
    assertEquals(m.get("retries").asLong(), m.get("retriedOps").asLong(), "one retry each");
    assertEquals(0, m.get("totalFailedOps").asLong());
    assertEquals(m.get("totalOps").asLong(), rows("jw_conflicting"));
  }

  @Test
  void withoutRetriesTheyFailAndAreCountedAsSerializationFailures() throws Exception {
    Cli r = run("jw_conflicting1", Conflicting.class.getName());
    assertEquals(3, r.exit, r.toString());
    JsonNode m = measurement("jw_conflicting1");
    assertEquals(m.get("failedOps").asLong(), m.get("failures").get("serialization").asLong());
    assertEquals(m.get("totalOps").asLong(), rows("jw_conflicting1"));
  }

  @Test
  void anOpThatLeavesItsTransactionOpenFailsAndIsRolledBack() throws Exception {
    Cli r = run("jw_open", LeavesOpen.class.getName());
    assertEquals(3, r.exit, r.toString());
    JsonNode m = measurement("jw_open");
    long ok = m.get("totalOps").asLong();
    long failed = m.get("totalFailedOps").asLong();
    assertTrue(failed > 0 && Math.abs(ok - failed) <= 2, "every other op fails: " + m);
    assertEquals(ok, rows("jw_open"), "the open transactions were rolled back");
    assertTrue(r.out.contains("the op ended inside a transaction"), r.out);
  }

  @Test
  void aClassFromTheClassPathRunsInAForkedJvm() throws Exception {
    Path src = dir.resolve("src/acme/Plain.java");
    Files.createDirectories(src.getParent());
    Files.writeString(
        src,
        "package acme;\n"
            + "public class Plain implements dev.wg1bench.api.JdbcWorkload {\n"
            + "  public void op(dev.wg1bench.api.Op op) throws Exception {\n"
            + "    try (var st = op.connection().createStatement()) {\n"
            + "      st.execute(\"INSERT INTO \" + op.param(\"table\") + \" VALUES (1, 1)\");\n"
            + "    }\n"
            + "  }\n"
            + "}\n");
    Path classes = dir.resolve("classes");
    int javac =
        ToolProvider.getSystemJavaCompiler()
            .run(
                null,
                null,
                null,
                "-cp",
                System.getProperty("java.class.path"),
                "-d",
                classes.toString(),
                src.toString());
    assertEquals(0, javac);
    Cli missing = run("jw_forked", "acme.Plain");
    assertEquals(2, missing.exit, missing.toString());
    assertTrue(missing.err.contains("--workload-class acme.Plain: no such class"), missing.err);
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE jw_forked (client int, n bigint)");
    }
    System.setProperty("wg1bench.test.table", "jw_forked");
    Cli r =
        Cli.run(
            "--workload-class",
            "acme.Plain",
            "--classpath",
            classes.toString(),
            "-D",
            "table=jw_forked",
            "-c",
            "2",
            "-T",
            "1s",
            "--warmup",
            "0",
            "--iterations",
            "1",
            "--forks",
            "1",
            "--target",
            TestServer.url(),
            "-o",
            dir.resolve("f.json").toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode m =
        Json.MAPPER
            .readTree(dir.resolve("f.json").toFile())
            .get("trials")
            .get(0)
            .get("measurement");
    assertTrue(m.get("ops").asLong() > 0, m.toString());
    assertEquals(m.get("totalOps").asLong(), rows("jw_forked"));
  }

  @Test
  void aClassTheToolCannotUseIsOneLine() {
    String t = "--target=" + TestServer.url();
    assertUsage(
        Cli.run("--workload-class", "com.acme.Nowhere", t),
        "wg1bench: --workload-class com.acme.Nowhere: no such class on the class path");
    assertUsage(
        Cli.run("--workload-class", String.class.getName(), t),
        "wg1bench: --workload-class java.lang.String does not implement"
            + " dev.wg1bench.api.JdbcWorkload");
    assertUsage(
        Cli.run("--workload-class", NoConstructor.class.getName(), t),
        "wg1bench: --workload-class "
            + NoConstructor.class.getName()
            + " has no public no-argument");
    assertUsage(
        Cli.run("--workload-class", Counting.class.getName(), "--workload", "tpcb", t),
        "wg1bench: --workload-class excludes --workload");
    // a class that names no tables (JdbcWorkload.tables()) has none to set storage parameters on
    assertUsage(
        Cli.run(
            "--workload-class",
            Counting.class.getName(),
            "--table-option",
            "fillfactor=80",
            "--forks",
            "0",
            "-t",
            "1",
            t),
        "wg1bench: --table-option needs a workload with known tables (pgbench, ssb, or a workload"
            + " class that names its tables), not");
  }

  @Test
  void aSetUpThatThrowsIsOneLineNamingItExitOne() {
    Cli r = run("jw_badsetup", BadSetUp.class.getName());
    assertEquals(1, r.exit, r.toString());
    assertTrue(r.err.contains("setUp() of workload class:" + BadSetUp.class.getName()), r.err);
    assertTrue(r.err.contains("no schema here"), r.err);
    assertFalse(r.err.contains("\tat "), "no stack trace: " + r.err);
  }

  @Test
  void aConstructorThatThrowsIsOneLineNamingTheClassAndCauseExitOne() {
    Cli r = run("jw_badconstructor", BadConstructor.class.getName());
    assertEquals(1, r.exit, r.toString());
    assertEquals(
        "wg1bench: --workload-class "
            + BadConstructor.class.getName()
            + ": new BadConstructor() threw java.lang.IllegalStateException: no config file"
            + " (caused by java.io.FileNotFoundException: /etc/acme.conf)",
        r.err.strip());
  }

  private static void assertUsage(Cli r, String start) {
    assertEquals(2, r.exit, r.toString());
    assertTrue(r.err.startsWith(start), r.err);
    assertEquals(1, r.err.strip().lines().count(), r.err);
  }
}
