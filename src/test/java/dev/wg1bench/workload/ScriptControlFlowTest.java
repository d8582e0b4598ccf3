package dev.wg1bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.support.TestServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code \if}, {@code \aset} and pipelines on a real server, in every query mode: what the scripts
 * wrote is counted row by row.
 */
class ScriptControlFlowTest {

  private static Connection connect(QueryMode mode) throws SQLException {
    return new ConnectionFactory(
            TestServer.target(), new ClientSettings(mode, null, Map.of(), DriverKnobs.defaults()))
        .openClient();
  }

  private static void sql(Connection c, String... statements) throws SQLException {
    try (Statement st = c.createStatement()) {
      for (String s : statements) {
        st.execute(s);
      }
    }
  }

  private static long scalar(Connection c, String query) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(query)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static ClientSession session(String script) {
    ScriptWorkload w = new ScriptWorkload("t", List.of(new ScriptSource("t.sql", script, 1)));
    return w.open(new ClientContext(0, 1, 1, 42L, 1, false, Map.of(), 8, false));
  }

  /**
   * -r: an \\elif is one command, reached on every op, whichever branch was taken before it; an
   * \\else or \\endif counts when the branch it ends ran, as pgbench executes (and times) them; a
   * skipped inner \\if's \\endif does not count, the outer one's does.
   */
  @Test
  void perCommandFiguresFollowTheBranchesTaken() throws SQLException {
    String script =
        "\\set n random(1, 3)\n"
            + "\\if :n = 1\n"
            + "SELECT 1;\n"
            + "\\elif :n = 2\n"
            + "SELECT 2;\n"
            + "\\else\n"
            + "SELECT 3;\n"
            + "  \\if :n = 4\n"
            + "  SELECT 4;\n"
            + "  \\endif\n"
            + "\\endif\n";
    ScriptWorkload w = new ScriptWorkload("t", List.of(new ScriptSource("t.sql", script, 1)));
    try (Connection c = connect(QueryMode.PREPARED);
        ClientSession s = w.open(new ClientContext(0, 1, 1, 42L, 1, false, Map.of(), 8, true))) {
      OpCounts counts = new OpCounts();
      List<ScriptOutline.Command> commands = s.outline().get(0).commands();
      assertEquals(
          List.of(
              "\\set n random(1, 3)",
              "\\if :n = 1",
              "SELECT 1;",
              "\\elif :n = 2",
              "SELECT 2;",
              "\\else",
              "SELECT 3;",
              "\\if :n = 4",
              "SELECT 4;",
              "\\endif",
              "\\endif"),
          commands.stream().map(ScriptOutline.Command::text).toList());
      ErrorSamples stats = new ErrorSamples();
      OpCounts op = new OpCounts();
      int ops = 60;
      for (int i = 0; i < ops; i++) {
        assertTrue(run(s, c, op, stats));
        counts.add(op);
      }
      assertEquals(ops, cmd(counts, 0).ok);
      assertEquals(ops, cmd(counts, 1).ok);
      assertEquals(ops, cmd(counts, 3).ok, "\\elif is reached on every op");
      long one = cmd(counts, 2).ok;
      long two = cmd(counts, 4).ok;
      long three = cmd(counts, 6).ok;
      assertEquals(ops, one + two + three);
      assertTrue(one > 0 && two > 0 && three > 0, one + " " + two + " " + three);
      assertEquals(two, cmd(counts, 5).ok, "the \\else line ends the \\elif branch");
      assertEquals(three, cmd(counts, 7).ok, "the inner \\if runs in the \\else branch");
      assertEquals(0, cmd(counts, 8).ok);
      assertEquals(0, cmd(counts, 9).ok, "the inner \\endif ends a branch never taken");
      assertEquals(three, cmd(counts, 10).ok, "the outer \\endif ends the \\else branch");
      assertEquals(0, cmd(counts, 2).failed + cmd(counts, 2).retries);
      // what the socket saw during each command: a select's round trip and statement, none for a
      // meta command; every execution measured
      for (int k : new int[] {2, 4, 6}) {
        assertEquals(cmd(counts, k).ok, cmd(counts, k).roundTrips, "command " + k);
        assertEquals(cmd(counts, k).ok, cmd(counts, k).statements, "command " + k);
        assertEquals(cmd(counts, k).ok, cmd(counts, k).rows, "command " + k);
      }
      assertEquals(0, cmd(counts, 0).roundTrips + cmd(counts, 1).roundTrips);
      assertEquals(ops, cmd(counts, 1).wireOps);
      // an op that does not count leaves nothing behind
      assertTrue(run(s, c, op, stats));
      assertEquals(ops, cmd(counts, 0).ok);
    }
  }

  /**
   * -r in a pipeline: pgbench lists its \\startpipeline, each command in it and the \\endpipeline,
   * each reached once per op; the batch's round trip is the \\endpipeline's, and an error in the
   * batch is charged to it.
   */
  @Test
  void pipelineCommandsAreListedOneByOne() throws SQLException {
    String script =
        "\\set d 1\n"
            + "\\startpipeline\n"
            + "SELECT pg_sleep(0.002);\n"
            + "\\set d :d - 1\n"
            + "SELECT 1 / :d;\n"
            + "\\endpipeline\n"
            + "SELECT 2;\n";
    ScriptWorkload w = new ScriptWorkload("t", List.of(new ScriptSource("t.sql", script, 1)));
    try (Connection c = connect(QueryMode.PREPARED);
        ClientSession s = w.open(new ClientContext(0, 1, 1, 42L, 1, false, Map.of(), 8, true))) {
      OpCounts counts = new OpCounts();
      assertEquals(
          List.of(
              "\\set d 1",
              "\\startpipeline",
              "SELECT pg_sleep(0.002);",
              "\\set d :d - 1",
              "SELECT 1 / :d;",
              "\\endpipeline",
              "SELECT 2;"),
          s.outline().get(0).commands().stream().map(ScriptOutline.Command::text).toList());
      ErrorSamples stats = new ErrorSamples();
      OpCounts op = new OpCounts();
      int ops = 5;
      for (int i = 0; i < ops; i++) {
        // 1 / 0 fails the batch: every op fails at its \\endpipeline
        assertFalse(run(s, c, op, stats));
        counts.add(op);
      }
      for (int k = 0; k <= 4; k++) {
        assertEquals(ops, cmd(counts, k).ok, "command " + k);
        assertEquals(0, cmd(counts, k).failed, "command " + k);
      }
      assertEquals(0, cmd(counts, 5).ok, "the failed batch's \\endpipeline did not complete");
      assertEquals(ops, cmd(counts, 5).failed);
      assertEquals(0, cmd(counts, 6).ok);
    }
    String ok = script.replace("\\set d :d - 1", "\\set d :d + 1");
    ScriptWorkload good = new ScriptWorkload("t", List.of(new ScriptSource("t.sql", ok, 1)));
    try (Connection c = connect(QueryMode.PREPARED);
        ClientSession s = good.open(new ClientContext(0, 1, 1, 42L, 1, false, Map.of(), 8, true))) {
      OpCounts counts = new OpCounts();
      ErrorSamples stats = new ErrorSamples();
      OpCounts op = new OpCounts();
      int ops = 5;
      for (int i = 0; i < ops; i++) {
        assertTrue(run(s, c, op, stats), () -> stats.samples().toString());
        counts.add(op);
      }
      for (int k = 0; k <= 6; k++) {
        assertEquals(ops, cmd(counts, k).ok, "command " + k);
      }
      // the batch's round trip (pg_sleep included) is the \\endpipeline's
      assertTrue(
          cmd(counts, 5).latencyNanos >= ops * 2_000_000L,
          Long.toString(cmd(counts, 5).latencyNanos));
      assertTrue(
          cmd(counts, 2).latencyNanos < cmd(counts, 5).latencyNanos,
          Long.toString(cmd(counts, 2).latencyNanos));
    }
  }

  /**
   * pgbench stores the columns of the LAST query of a compound command under \\gset; the first
   * query's column of the same name must not win, and one only it has must not be stored.
   */
  @ParameterizedTest
  @EnumSource(QueryMode.class)
  void gsetAfterACompoundCommandStoresTheLastResult(QueryMode mode) throws SQLException {
    String script =
        "\\set only_first 7\n"
            + "SELECT 1 AS v, 99 AS only_first \\; UPDATE cf_gset SET v = v WHERE false \\;"
            + " SELECT 2 AS v \\gset\n"
            + "INSERT INTO cf_gset VALUES (:v, :only_first);\n";
    try (Connection c = connect(mode);
        ClientSession s = session(script)) {
      sql(c, "DROP TABLE IF EXISTS cf_gset", "CREATE TABLE cf_gset (v int, only_first int)");
      ErrorSamples stats = new ErrorSamples();
      OpCounts op = new OpCounts();
      assertTrue(run(s, c, op, stats), () -> stats.samples().toString());
      assertEquals(1, scalar(c, "SELECT count(*) FROM cf_gset WHERE v = 2 AND only_first = 7"));
      // a compound command ending in a statement without rows has nothing to store: an error
      ClientSession none =
          session("SELECT 1 AS v \\; UPDATE cf_gset SET v = v WHERE false \\gset\n");
      assertFalse(run(none, c, op, stats));
      // pgbench: "expected one row, got 0"
      assertTrue(stats.lastMessage.contains("expected one row, got 0"), stats.lastMessage);
      none.close();
      sql(c, "DROP TABLE cf_gset");
    }
  }

  @ParameterizedTest
  @EnumSource(QueryMode.class)
  void ifBranchesFollowTheCounterReadByAset(QueryMode mode) throws SQLException {
    String script =
        "SELECT count(*) AS n, 'x' AS unused FROM cf_if \\aset\n"
            + "\\if :n % 3 = 0\n"
            + "  INSERT INTO cf_if VALUES (:n, 'a');\n"
            + "\\elif :n % 3 = 1\n"
            + "  \\if :n > 5\n"
            + "    INSERT INTO cf_if VALUES (:n, 'B');\n"
            + "  \\else\n"
            + "    INSERT INTO cf_if VALUES (:n, 'b');\n"
            + "  \\endif\n"
            + "\\else\n"
            + "  INSERT INTO cf_if VALUES (:n, 'c');\n"
            + "\\endif\n";
    try (Connection c = connect(mode);
        ClientSession s = session(script)) {
      sql(c, "DROP TABLE IF EXISTS cf_if", "CREATE TABLE cf_if (n int PRIMARY KEY, k text)");
      ErrorSamples stats = new ErrorSamples();
      OpCounts op = new OpCounts();
      OpCounts all = new OpCounts();
      for (int i = 0; i < 12; i++) {
        assertTrue(run(s, c, op, stats), () -> stats.samples().toString());
        all.add(op);
      }
      assertEquals(12, scalar(c, "SELECT count(*) FROM cf_if"));
      // every row sits in the branch its counter selects, the nested one included
      assertEquals(
          12,
          scalar(
              c,
              "SELECT count(*) FROM cf_if WHERE k = CASE n % 3 WHEN 0 THEN 'a' WHEN 1 THEN"
                  + " CASE WHEN n > 5 THEN 'B' ELSE 'b' END ELSE 'c' END"));
      assertEquals(2, scalar(c, "SELECT count(*) FROM cf_if WHERE k = 'B'"));
      assertEquals(24, all.statements);
      sql(c, "DROP TABLE cf_if");
    }
  }

  @ParameterizedTest
  @EnumSource(QueryMode.class)
  void asetStoresEveryQueryAndKeepsVariablesOnNoRow(QueryMode mode) throws SQLException {
    String script =
        "SELECT 1 AS one \\; SELECT g AS last, 2 AS two FROM generate_series(1, 3) g \\aset\n"
            + "SELECT 100 AS one WHERE false \\aset\n"
            + "INSERT INTO cf_aset VALUES (:one, :two, :last);\n";
    try (Connection c = connect(mode);
        ClientSession s = session(script)) {
      sql(c, "DROP TABLE IF EXISTS cf_aset", "CREATE TABLE cf_aset (a int, b int, c int)");
      ErrorSamples stats = new ErrorSamples();
      OpCounts op = new OpCounts();
      assertTrue(run(s, c, op, stats), () -> stats.samples().toString());
      // both queries stored, the last row won, and a query without rows assigned nothing
      assertEquals(1, scalar(c, "SELECT count(*) FROM cf_aset WHERE a = 1 AND b = 2 AND c = 3"));
      sql(c, "DROP TABLE cf_aset");
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = QueryMode.class,
      names = {"EXTENDED", "PREPARED"})
  void pipelineSendsEveryStatementWithTheValuesOfItsTime(QueryMode mode) throws SQLException {
    String script =
        "\\set v 1\n"
            + "\\startpipeline\n"
            + "INSERT INTO cf_pipe VALUES (:v, 'first') -- a comment ends the line\n;\n"
            + "\\set v :v + 10\n"
            + "INSERT INTO cf_pipe VALUES (:v, 'second');\n"
            + "\\syncpipeline\n"
            + "UPDATE cf_pipe SET k = k || '!' WHERE n = :v;\n"
            + "SELECT * FROM cf_pipe;\n"
            + "\\endpipeline\n";
    try (Connection c = connect(mode);
        ClientSession s = session(script)) {
      sql(c, "DROP TABLE IF EXISTS cf_pipe", "CREATE TABLE cf_pipe (n int, k text)");
      ErrorSamples stats = new ErrorSamples();
      OpCounts op = new OpCounts();
      assertTrue(run(s, c, op, stats), () -> stats.samples().toString());
      assertEquals(4, op.statements);
      assertEquals(1, scalar(c, "SELECT count(*) FROM cf_pipe WHERE n = 1 AND k = 'first'"));
      assertEquals(1, scalar(c, "SELECT count(*) FROM cf_pipe WHERE n = 11 AND k = 'second!'"));
      assertEquals(2, scalar(c, "SELECT count(*) FROM cf_pipe"));
      sql(c, "DROP TABLE cf_pipe");
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = QueryMode.class,
      names = {"EXTENDED", "PREPARED"})
  void anErrorAbortsTheWholePipelinePart(QueryMode mode) throws SQLException {
    String script =
        "\\startpipeline\n"
            + "INSERT INTO cf_abort VALUES (1);\n"
            + "SELECT 1 / 0;\n"
            + "INSERT INTO cf_abort VALUES (2);\n"
            + "\\endpipeline\n";
    try (Connection c = connect(mode);
        ClientSession s = session(script)) {
      sql(c, "DROP TABLE IF EXISTS cf_abort", "CREATE TABLE cf_abort (n int)");
      ErrorSamples stats = new ErrorSamples();
      OpCounts op = new OpCounts();
      assertFalse(run(s, c, op, stats));
      assertEquals(1, op.failed);
      assertTrue(stats.samples().containsKey("other/22012"), stats.samples().toString());
      // the statements before the error are rolled back with it, those after never ran
      assertEquals(0, scalar(c, "SELECT count(*) FROM cf_abort"));
      sql(c, "DROP TABLE cf_abort");
    }
  }

  @Test
  void pipelineNeedsTheExtendedProtocolAsInPgbench() throws SQLException {
    try (Connection c = connect(QueryMode.SIMPLE);
        ClientSession s = session("SELECT 1;\n\\startpipeline\nSELECT 2;\n\\endpipeline\n")) {
      ErrorSamples stats = new ErrorSamples();
      OpCounts op = new OpCounts();
      assertFalse(run(s, c, op, stats));
      assertEquals(1, (long) op.failures.get("script"));
      assertEquals(
          "t.sql:2: a pipeline needs the extended query protocol (-M extended or -M prepared), as"
              + " in pgbench",
          stats.samples().get("script/-").firstMessage);
    }
  }

  /**
   * pgbench aborts the client with "end of script reached without completing the last transaction":
   * here the op fails, its work is rolled back and it is not counted as successful.
   */
  @ParameterizedTest
  @EnumSource(QueryMode.class)
  void anOpEndingInsideATransactionFailsAndIsRolledBack(QueryMode mode) throws SQLException {
    try (Connection c = connect(mode);
        ClientSession s = session("BEGIN;\nINSERT INTO cf_open VALUES (1);\n")) {
      sql(c, "DROP TABLE IF EXISTS cf_open", "CREATE TABLE cf_open (v int)");
      ErrorSamples stats = new ErrorSamples();
      OpCounts op = new OpCounts();
      for (int i = 0; i < 3; i++) {
        assertFalse(run(s, c, op, stats));
      }
      assertTrue(
          stats.lastMessage.endsWith(
              "t.sql:2: end of script reached without completing the last transaction"),
          stats.lastMessage);
      assertEquals(0, scalar(c, "SELECT count(*) FROM cf_open"));
      assertTrue(c.getAutoCommit());
      // the connection is usable again: a script that commits runs and its row stays
      ClientSession ok = session("BEGIN;\nINSERT INTO cf_open VALUES (2);\nEND;\n");
      assertTrue(run(ok, c, op, stats), stats.lastMessage);
      ok.close();
      assertEquals(1, scalar(c, "SELECT count(*) FROM cf_open"));
      sql(c, "DROP TABLE cf_open");
    }
  }

  /** Command {@code i}'s figures of the one script "t.sql", as a client's counts hold them. */
  /** One op as the op path runs it: its value cleared as it begins, recorded into as it runs. */
  private static boolean run(ClientSession s, Connection c, OpCounts op, ErrorSamples errors)
      throws SQLException {
    op.clear();
    return s.runOp(c, op, errors);
  }

  private static OpCounts cmd(OpCounts counts, int i) {
    return counts.partOrEmpty("t.sql").partOrEmpty(ScriptOutline.commandKey(i));
  }
}
