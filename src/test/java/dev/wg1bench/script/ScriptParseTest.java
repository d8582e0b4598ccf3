package dev.wg1bench.script;

import static dev.wg1bench.script.ScriptTestSupport.compile;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Splitting scripts into commands, SQL variable substitution and meta-command errors. */
class ScriptParseTest {

  private static List<Step> steps(String text) throws ScriptException {
    return compile("t.sql", text).steps();
  }

  private static SqlStep sql(Step s) {
    return assertInstanceOf(SqlStep.class, s);
  }

  private static String error(String text) {
    return assertThrows(ScriptException.class, () -> compile("t.sql", text)).getMessage();
  }

  @Test
  void multiLineAndSeveralPerLine() throws Exception {
    List<Step> s =
        steps("\n\nSELECT 1,\n  2\nFROM t; SELECT 3;SELECT 4\n;\n  ;\nSELECT 'x;y' -- c;\n;tail");
    assertEquals(5, s.size());
    assertEquals("SELECT 1,\n  2\nFROM t", sql(s.get(0)).jdbcSql());
    assertEquals(3, s.get(0).line());
    assertEquals("SELECT 3", sql(s.get(1)).jdbcSql());
    assertEquals(5, s.get(1).line());
    assertEquals("SELECT 4", sql(s.get(2)).text());
    assertEquals(5, s.get(2).line());
    assertEquals("SELECT 'x;y' -- c;", sql(s.get(3)).text());
    assertEquals(8, s.get(3).line());
    assertEquals("tail", sql(s.get(4)).text()); // non-blank text after the last ';'
    assertEquals(9, s.get(4).line());
  }

  @Test
  void variablesInSql() throws Exception {
    CompiledScript cs =
        compile(
            "v.sql",
            "\\set a 1\n"
                + "SELECT :a::text, ':a', \":a\", E'\\':a', $$ :a ; $$, $t$ ; :a $t$, :a /* :a ; */"
                + " -- :a ;\n , x[1:2], $1, a$b, ? ;\n");
    SqlStep s = sql(cs.steps().get(1));
    assertEquals(
        "SELECT ?::text, ':a', \":a\", E'\\':a', $$ :a ; $$, $t$ ; :a $t$, ? /* :a ; */"
            + " -- :a ;\n , x[1:2], $1, a$b, ??",
        s.jdbcSql());
    int a = cs.slotOf("a");
    assertArrayEquals(new int[] {a, a}, s.paramSlots());
    assertEquals(2, cs.steps().size());
  }

  @Test
  void dollarQuotedBody() throws Exception {
    List<Step> s =
        steps(
            "DO $body$\nBEGIN\n  PERFORM 1;\n  RAISE NOTICE 'x;';\nEND\n$body$;\n"
                + "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;\n");
    assertEquals(2, s.size());
    assertEquals(TxControl.NONE, sql(s.get(0)).tx());
    assertEquals(
        "DO $body$\nBEGIN\n  PERFORM 1;\n  RAISE NOTICE 'x;';\nEND\n$body$", sql(s.get(0)).text());
    assertEquals(7, s.get(1).line());
  }

  @Test
  void nestedCommentsAndParentheses() throws Exception {
    List<Step> s = steps("/* a /* b; */ c; */ SELECT (1;2) ; -- x;\nSELECT 2");
    assertEquals(2, s.size());
    assertEquals("SELECT (1;2)", sql(s.get(0)).text());
    assertEquals("SELECT 2", sql(s.get(1)).text());
    assertEquals(2, s.get(1).line());
  }

  @Test
  void transactionControl() throws Exception {
    String[][] cases = {
      {"BEGIN", "BEGIN"},
      {"begin isolation level repeatable read", "BEGIN"},
      {"BEGIN TRANSACTION", "BEGIN"},
      {"Start Transaction read only", "BEGIN"},
      {"/* x */ begin -- y", "BEGIN"},
      {"END", "COMMIT"},
      {"commit", "COMMIT"},
      {"COMMIT WORK", "COMMIT"},
      {"ROLLBACK", "ROLLBACK"},
      {"abort", "ROLLBACK"},
      {"ROLLBACK TO SAVEPOINT s", "NONE"},
      {"COMMIT PREPARED 'x'", "NONE"},
      {"COMMIT AND CHAIN", "NONE"},
      {"START something", "NONE"},
      {"SELECT 1", "NONE"},
      {"ENDX", "NONE"},
    };
    for (String[] c : cases) {
      assertEquals(TxControl.valueOf(c[1]), sql(steps(c[0] + " ;").get(0)).tx(), c[0]);
    }
  }

  @Test
  void gset() throws Exception {
    CompiledScript cs =
        compile(
            "g.sql",
            "SELECT 1 AS one \\gset\n"
                + "SELECT :one;\n"
                + "SELECT 2 AS two;\n"
                + "\\gset p_\n"
                + "\\set z :p_two + 1\n");
    assertEquals("", sql(cs.steps().get(0)).gsetPrefix());
    assertEquals("SELECT 1 AS one", sql(cs.steps().get(0)).jdbcSql());
    assertNull(sql(cs.steps().get(1)).gsetPrefix());
    assertEquals("p_", sql(cs.steps().get(2)).gsetPrefix());
    assertEquals(4, cs.steps().size());

    // a prefix only admits names starting with it, and only afterwards
    Script s = Script.parse("g2.sql", "SELECT :p_x;\nSELECT 1 AS x \\gset p_\nSELECT :p_x, :q;\n");
    ScriptException e = assertThrows(ScriptException.class, () -> s.compile(Set.of()));
    assertEquals("g2.sql:1: undefined variable \"p_x\"", e.getMessage());
    ScriptException e2 =
        assertThrows(
            ScriptException.class,
            () ->
                Script.parse("g3.sql", "SELECT 1 AS x \\gset p_\nSELECT :p_x, :q;\n")
                    .compile(Set.of()));
    assertEquals("g3.sql:2: undefined variable \"q\"", e2.getMessage());
    assertEquals("t.sql:2: \\gset must follow an SQL command", error("\\set a 1\n\\gset\n"));
  }

  @Test
  void compoundSemicolon() throws Exception {
    List<Step> s = steps("SELECT 1 \\; SELECT 2;\n");
    assertEquals(1, s.size());
    assertEquals("SELECT 1 ; SELECT 2", sql(s.get(0)).jdbcSql());
  }

  @Test
  void directives() throws Exception {
    Script s =
        Script.parse(
            "d.sql",
            "-- @description TPC-B (sort of)\n"
                + "--@seed 2015 §3.3\n"
                + "  -- @isolation repeatable_read\n"
                + "-- plain comment\n"
                + "SELECT 1; -- @notadirective x\n");
    assertEquals(
        List.of(
            Map.entry("description", "TPC-B (sort of)"),
            Map.entry("seed", "2015 §3.3"),
            Map.entry("isolation", "repeatable_read")),
        List.copyOf(s.directives().entrySet()));
    CompiledScript cs = s.compile(Set.of());
    assertEquals("TPC-B (sort of)", cs.directives().get("description"));
    assertEquals(1, cs.steps().size());
    assertEquals(5, cs.steps().get(0).line());
    assertEquals("SELECT 1", sql(cs.steps().get(0)).jdbcSql());
  }

  @Test
  void sleep() throws Exception {
    CompiledScript cs =
        compile("s.sql", "\\sleep 2\n\\sleep 10 ms\n\\set d 7\n\\sleep :d us\n\\sleep 3 s\n");
    EvalContext ctx = new EvalContext(new Object[cs.slotCount()], new PgbenchRandom(1), 0);
    ScriptTestSupport.runSets(cs, ctx);
    SleepStep s0 = assertInstanceOf(SleepStep.class, cs.steps().get(0));
    assertEquals(2_000_000L, s0.delayMicros(ctx));
    assertEquals(10_000L, ((SleepStep) cs.steps().get(1)).delayMicros(ctx));
    assertEquals(7L, ((SleepStep) cs.steps().get(3)).delayMicros(ctx));
    assertEquals(3_000_000L, ((SleepStep) cs.steps().get(4)).delayMicros(ctx));
    assertEquals(
        "t.sql:1: unrecognized time unit \"min\", must be us, ms or s", error("\\sleep 1 min\n"));
    assertEquals(
        "t.sql:1: invalid sleep time \"x\", must be an integer or a :variable",
        error("\\sleep x\n"));
    assertEquals("t.sql:1: undefined variable \"nope\"", error("\\sleep :nope\n"));
  }

  @Test
  void setrandomForms() throws Exception {
    CompiledScript cs =
        compile(
            "r.sql",
            "\\setrandom a 1 10\n\\setrandom b -5 :a uniform\n"
                + "\\setrandom c 1 100 gaussian 2.5\n\\setrandom d 1 100 exponential 3\n");
    EvalContext ctx = new EvalContext(new Object[cs.slotCount()], new PgbenchRandom(9), 0);
    for (int i = 0; i < 1000; i++) {
      ScriptTestSupport.runSets(cs, ctx);
      long a = (Long) ctx.slots()[cs.slotOf("a")];
      long b = (Long) ctx.slots()[cs.slotOf("b")];
      long c = (Long) ctx.slots()[cs.slotOf("c")];
      long d = (Long) ctx.slots()[cs.slotOf("d")];
      assertEquals(true, a >= 1 && a <= 10);
      assertEquals(true, b >= -5 && b <= a);
      assertEquals(true, c >= 1 && c <= 100);
      assertEquals(true, d >= 1 && d <= 100);
    }
    assertEquals(
        "t.sql:1: invalid distribution \"zipf\" in \"\\setrandom\"",
        error("\\setrandom a 1 10 zipf 2\n"));
    assertEquals(
        "t.sql:1: missing argument in command \"\\setrandom\"", error("\\setrandom a 1\n"));
    assertEquals("t.sql:1: invalid integer argument \"1.5\"", error("\\setrandom a 1.5 10\n"));
  }

  @Test
  void metaCommandErrors() {
    assertEquals("t.sql:2: unknown meta-command \"\\foo\"", error("SELECT 1;\n\\foo bar\n"));
    // pgbench: "missing command" / "missing argument" for \shell and \setshell without a command
    assertEquals("t.sql:1: missing command in command \"\\shell\"", error("\\shell\n"));
    assertEquals("t.sql:3: \\if without matching \\endif", error("\\set a 1\n\n  \\if :a\n"));
    assertEquals("t.sql:1: missing argument in command \"\\setshell\"", error("\\setshell x\n"));
    assertEquals("t.sql:2: unterminated quoted string", error("SELECT 1;\nSELECT 'abc;\n"));
    assertEquals("t.sql:1: unterminated dollar-quoted string", error("SELECT $$ x;\n"));
    assertEquals("t.sql:1: unterminated quoted identifier", error("SELECT \"x;\n"));
    assertEquals("t.sql:1: unterminated /* comment", error("/* SELECT 1;\n"));
    assertEquals("t.sql:2: undefined variable \"b\"", error("SELECT 1;\nSELECT :b;\n"));
    assertEquals("t.sql:1: invalid variable name: \"a-b\"", error("\\set a-b 1\n"));
  }

  @Test
  void conditionalsBecomeJumps() throws Exception {
    List<Step> s =
        steps(
            "\\set a 1\n" // 0
                + "\\if :a = 1\n" // 1 branch -> 4
                + "SELECT 1;\n" // 2
                + "\\elif :a = 2\n" // 3 jump -> 11, 4 branch -> 7
                + "SELECT 2;\n" // 5
                + "\\else\n" // 6 jump -> 11
                + "  \\if :a > 5\n" // 7 branch -> 10
                + "  SELECT 3;\n" // 8
                + "  \\endif\n" // 9 jump -> 10
                + "\\endif\n" // 10 jump -> 11
                + "SELECT 4;\n"); // 11
    assertEquals(12, s.size());
    assertEquals(4, assertInstanceOf(BranchStep.class, s.get(1)).elseTarget());
    assertEquals(2, s.get(1).line());
    assertEquals(11, assertInstanceOf(JumpStep.class, s.get(3)).target());
    assertEquals(7, assertInstanceOf(BranchStep.class, s.get(4)).elseTarget());
    assertEquals(11, assertInstanceOf(JumpStep.class, s.get(6)).target());
    // a false inner \if skips its own \endif but not the outer one (as pgbench runs them)
    assertEquals(10, assertInstanceOf(BranchStep.class, s.get(7)).elseTarget());
    assertEquals("SELECT 3", sql(s.get(8)).text());
    assertEquals(10, assertInstanceOf(JumpStep.class, s.get(9)).target());
    assertEquals(9, s.get(9).line());
    assertEquals(11, assertInstanceOf(JumpStep.class, s.get(10)).target());
    assertEquals(10, s.get(10).line());
    assertEquals("SELECT 4", sql(s.get(11)).text());
    // an \if ending the script jumps to the end
    List<Step> t = steps("\\if true\nSELECT 1;\n\\endif\n");
    assertEquals(3, assertInstanceOf(BranchStep.class, t.get(0)).elseTarget());
  }

  @Test
  void conditionalErrorsNameTheLine() {
    assertEquals("t.sql:2: \\elif without matching \\if", error("SELECT 1;\n\\elif true\n"));
    assertEquals("t.sql:1: \\else without matching \\if", error("\\else\n"));
    assertEquals("t.sql:1: \\endif without matching \\if", error("\\endif\n"));
    assertEquals(
        "t.sql:4: \\else after \\else (line 3)",
        error("\\if true\nSELECT 1;\n\\else\n\\else\n\\endif\n"));
    assertEquals(
        "t.sql:3: \\elif after \\else (line 2)",
        error("\\if true\n\\else\n\\elif false\n\\endif\n"));
    assertEquals(
        "t.sql:1: \\if without matching \\endif",
        error("\\if true\n\\if false\n\\endif\n\\else\n"));
    assertEquals("t.sql:1: missing argument in command \"\\if\"", error("\\if\n\\endif\n"));
    assertEquals(
        "t.sql:2: too many arguments in command \"\\endif\"", error("\\if 1\n\\endif 2\n"));
    assertEquals("t.sql:1: undefined variable \"nope\"", error("\\if :nope\n\\endif\n"));
    assertEquals(
        "t.sql:1: syntax error in expression: unexpected end of expression at column 4",
        error("\\if 1 +\n\\endif\n"));
  }

  @Test
  void asetStoresEveryQueryOfACompoundCommand() throws Exception {
    CompiledScript cs =
        compile("a.sql", "SELECT 1 AS one \\; SELECT 2 AS p_two \\aset\nSELECT :one, :p_two;\n");
    SqlStep q = sql(cs.steps().get(0));
    assertEquals("SELECT 1 AS one ; SELECT 2 AS p_two", q.jdbcSql());
    assertEquals("", q.gsetPrefix());
    assertEquals(true, q.aset());
    CompiledScript p = compile("a.sql", "SELECT 2 AS two \\aset p_\nSELECT :p_two;\n");
    assertEquals("p_", sql(p.steps().get(0)).gsetPrefix());
    assertEquals("t.sql:1: \\aset must follow an SQL command", error("\\aset\n"));
    assertEquals(
        "t.sql:1: too many arguments in command \"\\aset\"", error("SELECT 1 \\aset a b\n"));
    assertEquals(
        "t.sql:2: undefined variable \"q_x\"", error("SELECT 1 AS x \\aset p_\nSELECT :q_x;\n"));
  }

  @Test
  void pipelinePartsAreOneStepEach() throws Exception {
    CompiledScript cs =
        compile(
            "p.sql",
            "\\set a 1\n"
                + "\\startpipeline\n"
                + "INSERT INTO t VALUES (:a) -- first\n;\n"
                + "\\set a :a + 1\n"
                + "SELECT :a, '?';\n"
                + "\\syncpipeline\n"
                + "SELECT 3;\n"
                + "\\endpipeline\n"
                + "\\startpipeline\n"
                + "\\endpipeline\n");
    List<Step> s = cs.steps();
    assertEquals(4, s.size());
    PipelineStep first = assertInstanceOf(PipelineStep.class, s.get(1));
    assertEquals(2, first.line());
    assertEquals(7, first.closeLine());
    assertTrue(first.opens());
    assertEquals(2, first.statements());
    assertEquals(3, first.body().size());
    assertEquals("INSERT INTO t VALUES (?) -- first\n;\nSELECT ?, '?'", first.jdbcSql());
    PipelineStep second = assertInstanceOf(PipelineStep.class, s.get(2));
    assertEquals(7, second.line());
    assertEquals(9, second.closeLine());
    assertFalse(second.opens());
    assertEquals("SELECT 3", second.jdbcSql());
    PipelineStep empty = assertInstanceOf(PipelineStep.class, s.get(3));
    assertEquals(0, empty.statements());
    assertNull(empty.jdbcSql());
  }

  @Test
  void pipelineErrorsNameTheLine() {
    assertEquals(
        "t.sql:2: \\startpipeline without matching \\endpipeline",
        error("SELECT 1;\n\\startpipeline\nSELECT 2;\n"));
    assertEquals(
        "t.sql:1: \\endpipeline without matching \\startpipeline", error("\\endpipeline\n"));
    assertEquals(
        "t.sql:1: \\syncpipeline without matching \\startpipeline", error("\\syncpipeline\n"));
    assertEquals(
        "t.sql:3: \\startpipeline: already in a pipeline (started at line 1)",
        error("\\startpipeline\nSELECT 1;\n\\startpipeline\n"));
    assertEquals(
        "t.sql:2: \\gset cannot be used in a pipeline (the pipeline started at line 1 sends its"
            + " statements before any result is read)",
        error("\\startpipeline\nSELECT 1 AS x \\gset\n\\endpipeline\n"));
    assertEquals(
        "t.sql:2: \\if inside a pipeline is not supported by wg1bench (the pipeline started at"
            + " line 1 is sent as one batch)",
        error("\\startpipeline\n\\if true\n\\endif\n\\endpipeline\n"));
    assertEquals(
        "t.sql:1: too many arguments in command \"\\startpipeline\"",
        error("\\startpipeline now\n"));
  }

  @Test
  void setUsesOnlyEarlierAssignments() {
    assertEquals("t.sql:1: undefined variable \"x\"", error("\\set x :x + 1\n"));
    assertEquals("t.sql:1: undefined variable \"later\"", error("SELECT :later;\n\\set later 1\n"));
  }

  /** What pgbench 15 refuses before running (exit 1 there, a one-line usage error here). */
  @Test
  void scriptsPgbenchRefusesBeforeRunning() {
    // pgbench: empty command list for script "t.sql"
    assertEquals("t.sql:1: empty command list for script", error(""));
    assertEquals("t.sql:2: empty command list for script", error("-- only a comment\n"));
    // pgbench: too many function arguments, maximum is 16 (it fails every evaluation)
    assertEquals(
        "t.sql:1: too many function arguments, maximum is 16 (\"least\" has 17)",
        error("\\set i least(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)\n"));
    // pgbench: unrecognized time unit, must be us, ms or s
    assertTrue(error("\\sleep 1 week\n").contains("unrecognized time unit"));
    assertTrue(error("\\sleep 2weeks\n").contains("unrecognized time unit"));
    assertEquals("t.sql:1: invalid variable name: \"bad!\"", error("\\setshell bad! echo 1\n"));
  }

  /** pgbench splits "\sleep 2ms" into the number and its unit. */
  @Test
  void sleepUnitMayBeAttached() throws Exception {
    EvalContext ctx = new EvalContext(new Object[0], new PgbenchRandom(1), 0);
    assertEquals(2_000L, sleep("\\sleep 2ms\n").delayMicros(ctx));
    assertEquals(5L, sleep("\\sleep 5us\n").delayMicros(ctx));
    assertEquals(3_000_000L, sleep("\\sleep 3s\n").delayMicros(ctx));
    assertEquals(3_000_000L, sleep("\\sleep 3\n").delayMicros(ctx));
    assertEquals(7_000L, sleep("\\sleep 7 ms\n").delayMicros(ctx));
    // a variable is read as pgbench reads it, with atoi(): 1.5 is 1, a word is 0
    CompiledScript cs =
        Script.parse("t.sql", "\\set d 1.5\n\\sleep :d ms\n\\sleep :w us\n").compile(Set.of("w"));
    Object[] slots = cs.newSlots(Map.of("w", "abc"));
    EvalContext vars = new EvalContext(slots, new PgbenchRandom(1), 0);
    ((SetStep) cs.steps().get(0)).execute(vars);
    assertEquals(1_000L, ((SleepStep) cs.steps().get(1)).delayMicros(vars));
    assertEquals(0L, ((SleepStep) cs.steps().get(2)).delayMicros(vars));
  }

  private static SleepStep sleep(String text) throws ScriptException {
    return assertInstanceOf(SleepStep.class, steps(text).get(0));
  }
}
