package dev.wg1bench.script;

import static dev.wg1bench.script.ScriptTestSupport.compile;
import static dev.wg1bench.script.ScriptTestSupport.eval;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** \set expression semantics, checked against pgbench 15's documented behaviour. */
class ExpressionTest {

  private static String runtimeError(String expr) {
    ScriptRuntimeException e = assertThrows(ScriptRuntimeException.class, () -> eval(expr));
    return e.getMessage();
  }

  private static String parseError(String script) {
    ScriptException e = assertThrows(ScriptException.class, () -> compile("bad.sql", script));
    return e.getMessage();
  }

  @Test
  void precedence() throws Exception {
    assertEquals(7L, eval("1 + 2 * 3"));
    assertEquals(9L, eval("(1 + 2) * 3"));
    assertEquals(-1L, eval("1 - 2"));
    assertEquals(4L, eval("10 - 3 - 3"));
    assertEquals(-6L, eval("-2 * 3"));
    assertEquals(10L, eval("2 + 3 << 1")); // shifts bind looser than +
    assertEquals(0L, eval("1 | 2 # 3")); // same level, left to right
    assertEquals(-1L, eval("~0"));
    assertEquals(-3L, eval("~1 + 1")); // "~" has no unary precedence in pgbench: ~(1 + 1)
    assertEquals(Boolean.TRUE, eval("NOT 1 = 2"));
    assertEquals(Boolean.TRUE, eval("1 < 2 AND 3 > 2 OR false"));
    assertEquals(Boolean.TRUE, eval("false AND true OR true"));
    assertEquals(Boolean.TRUE, eval("1 + 1 = 2 IS TRUE"));
    assertEquals(Long.MIN_VALUE, eval("-9223372036854775808"));
    assertEquals(5L, eval("  + ( 5 )  "));
  }

  @Test
  void integerArithmetic() throws Exception {
    assertEquals(-3L, eval("-7 / 2"));
    assertEquals(3L, eval("7 / 2"));
    assertEquals(-1L, eval("-7 % 3"));
    assertEquals(1L, eval("7 % -3"));
    assertEquals(1L, eval("mod(7, 3)"));
    assertEquals(0L, eval("-9223372036854775808 % -1"));
    // pgbench 15 names the operation that overflowed
    assertTrue(runtimeError("9223372036854775807 + 1").endsWith("bigint add out of range"));
    assertTrue(runtimeError("-9223372036854775808 - 1").endsWith("bigint sub out of range"));
    assertTrue(runtimeError("4611686018427387904 * 2").endsWith("bigint mul out of range"));
    assertTrue(runtimeError("-9223372036854775808 / -1").endsWith("bigint div out of range"));
    assertEquals(Long.MIN_VALUE, eval("-4611686018427387904 * 2"));
    assertEquals("expr.sql:1: division by zero", runtimeError("1 / 0"));
    assertEquals("expr.sql:1: division by zero", runtimeError("1 % 0"));
    // pgbench: only integer division and modulo by zero fail; doubles follow IEEE
    assertEquals(Double.POSITIVE_INFINITY, eval("1.0 / 0"));
    assertEquals(Double.NEGATIVE_INFINITY, eval("-1 / 0.0"));
    assertTrue(Double.isNaN((Double) eval("0.0 / 0")));
    assertEquals("expr.sql:1: division by zero", runtimeError("5 % 0.0"));
    assertEquals(17.094, (Double) eval("least(-5.18, .0E0, 1.0/0) * -3.3"), 1e-12);
    // pgbench: abs() of the smallest bigint is itself (C negation), no error
    assertEquals(Long.MIN_VALUE, eval("abs(-9223372036854775808)"));
    assertTrue(parseError("\\set x 9223372036854775808\n").contains("bigint constant overflow"));
  }

  @Test
  void doublesAndMixedTypes() throws Exception {
    assertEquals(2.5, eval("5 / 2.0"));
    assertEquals(3.5, eval("1.5 + 2"));
    assertEquals(1000.0, eval("1e3"));
    assertEquals(0.5, eval(".5"));
    assertEquals(2.0, eval("2."));
    assertEquals(1L, eval("7.4 % 2")); // % coerces doubles to int (rint): 7 % 2
    assertEquals(0L, eval("7.5 % 2")); // rint rounds half to even: 8 % 2
    assertEquals(9L, eval("int(5.4 + 3.8)"));
    assertEquals(5432.0, eval("double(5432)"));
    assertEquals(1024.0, eval("pow(2, 10)"));
    assertEquals(1024.0, eval("power(2.0, 10)"));
    assertEquals(17L, eval("abs(-17)"));
    assertEquals(2.5, eval("abs(-2.5)"));
    assertEquals(Math.PI, eval("pi()"));
    assertEquals(Math.sqrt(2.0), eval("sqrt(2.0)"));
    assertEquals(1.0, eval("exp(0)"));
    assertEquals(0.0, eval("ln(1)"));
    assertEquals(1L, eval("least(3, 1, 2)"));
    assertEquals(7L, eval("greatest(3, 7, 5)"));
    assertEquals(1.0, eval("least(1, 2.5)")); // any double makes the result double
    assertEquals(2.5, eval("greatest(1, 2.5)"));
    assertTrue(runtimeError("int(1e30)").contains("double to int overflow"));
  }

  @Test
  void doubleFormatting() {
    assertEquals("0.3", Values.formatDouble(0.1 + 0.2));
    assertEquals("1.5", Values.formatDouble(1.5));
    assertEquals("100", Values.formatDouble(100.0));
    assertEquals("0.333333333333333", Values.formatDouble(1.0 / 3));
    assertEquals("1e+20", Values.formatDouble(1e20));
    assertEquals("1.23e-05", Values.formatDouble(1.23e-5));
    assertEquals("0.0001", Values.formatDouble(1e-4));
    assertEquals("1.23456789012346e+17", Values.formatDouble(123456789012345678.0));
    assertEquals("-2.5", Values.formatDouble(-2.5));
    // PostgreSQL's snprintf, which pgbench uses: debug(1.0/0) prints "double Infinity"
    assertEquals("Infinity", Values.formatDouble(Double.POSITIVE_INFINITY));
    assertEquals("-Infinity", Values.formatDouble(Double.NEGATIVE_INFINITY));
    assertEquals("NaN", Values.formatDouble(Double.NaN));
    assertEquals("0", Values.formatDouble(0.0));
    assertEquals("3.14159265358979", Values.toText(Math.PI));
    assertEquals("42", Values.toText(42L));
    assertEquals("NULL", Values.toText(null));
    assertEquals("double 2.5", Values.describe(2.5));
    assertEquals("int 7", Values.describe("7"));
  }

  @Test
  void comparisonsAndLogic() throws Exception {
    assertEquals(Boolean.TRUE, eval("1 < 2"));
    assertEquals(Boolean.FALSE, eval("2 <= 1"));
    assertEquals(Boolean.TRUE, eval("3 >= 3"));
    assertEquals(Boolean.TRUE, eval("1 = 1.0"));
    assertEquals(Boolean.TRUE, eval("1 <> 2"));
    assertEquals(Boolean.TRUE, eval("1 != 2"));
    assertEquals(Boolean.FALSE, eval("5 > 5"));
    // pgbench's AND/OR take booleans only (coerceToBool)
    assertEquals(Boolean.FALSE, eval("true and false"));
    assertEquals(Boolean.TRUE, eval("false or true"));
    assertTrue(runtimeError("true and 0").contains("cannot coerce int to boolean"));
    assertTrue(runtimeError("0 or true").contains("cannot coerce int to boolean"));
    assertEquals(Boolean.FALSE, eval("NOT TRUE"));
    assertTrue(runtimeError("NOT 1").contains("cannot coerce int to boolean"));
    assertTrue(runtimeError("true = 1").contains("cannot coerce boolean to int"));
    assertTrue(parseError("\\set x 1 < 2 < 3\n").contains("syntax error"));
  }

  @Test
  void nulls() throws Exception {
    assertNull(eval("null"));
    assertNull(eval("1 + null"));
    assertNull(eval("least(1, null)"));
    assertEquals(Boolean.TRUE, eval("null IS NULL"));
    assertEquals(Boolean.TRUE, eval("null ISNULL"));
    assertEquals(Boolean.FALSE, eval("1 IS NULL"));
    assertEquals(Boolean.TRUE, eval("1 IS NOT NULL"));
    assertEquals(Boolean.TRUE, eval("1 NOTNULL"));
    assertEquals(Boolean.TRUE, eval("(1 < 2) IS TRUE"));
    assertEquals(Boolean.FALSE, eval("1 IS TRUE")); // IS does not coerce, as pgbench
    assertEquals(Boolean.TRUE, eval("false is not true"));
    assertNull(eval("null AND true"));
    assertNull(eval("true AND null"));
    assertEquals(Boolean.FALSE, eval("false AND null"));
  }

  @Test
  void caseExpression() throws Exception {
    assertEquals(20L, eval("CASE WHEN 1 > 2 THEN 10 WHEN 2 > 1 THEN 20 ELSE 30 END"));
    assertEquals(30L, eval("case when false then 10 else 30 end"));
    assertNull(eval("CASE WHEN 0 THEN 1 END"));
    assertEquals(2L, eval("1 + CASE WHEN 1 THEN 1 END"));
  }

  @Test
  void keywordsAreCaseInsensitiveAndWhitespaceFree() throws Exception {
    assertEquals(3L, eval("RANDOM(3,3)"));
    assertEquals(Boolean.TRUE, eval("NoT FaLsE"));
    assertEquals(6L, eval("(1+2)*2"));
  }

  @Test
  void hashes() throws Exception {
    // examples from the pgbench 15 documentation
    assertEquals(-5817877081768721676L, eval("hash(10, 5432)"));
    assertEquals(-5817877081768721676L, eval("hash_murmur2(10, 5432)"));
    assertEquals(-7793829335365542153L, eval("hash_fnv1a(10, 5432)"));
    // one-argument forms use the context's default seed (42 in these tests)
    assertEquals(eval("hash(77, 42)"), eval("hash(77)"));
    assertEquals(eval("hash_fnv1a(77, 42)"), eval("hash_fnv1a(77)"));
    assertNotEquals(eval("hash(77, 42)"), eval("hash(77, 43)"));
  }

  @Test
  void permuteIsABijection() throws Exception {
    for (long size : new long[] {2, 3, 10, 17, 1000}) {
      Set<Long> seen = new HashSet<>();
      for (long i = 0; i < size; i++) {
        long p = FunctionNodes.permute(i, size, 12345);
        assertTrue(p >= 0 && p < size);
        seen.add(p);
      }
      assertEquals(size, seen.size());
    }
    assertEquals(0L, eval("permute(5, 1)"));
    assertEquals(eval("permute(3, 100, 42)"), eval("permute(3, 100)"));
    assertTrue(runtimeError("permute(1, 0)").contains("size parameter must be greater than zero"));
  }

  @Test
  void variablesIncludingStrings() throws Exception {
    CompiledScript cs =
        Script.parse("d.sql", "\\set a :d + 1\n\\set b :f * 2\n\\set c :t AND true\n")
            .compile(Set.of("d", "f", "t"));
    Object[] slots = new Object[cs.slotCount()];
    slots[cs.slotOf("d")] = "12"; // raw -D define
    slots[cs.slotOf("f")] = " 1.5";
    slots[cs.slotOf("t")] = "yes";
    EvalContext ctx = new EvalContext(slots, new PgbenchRandom(1), 0);
    ScriptTestSupport.runSets(cs, ctx);
    assertEquals(13L, slots[cs.slotOf("a")]);
    assertEquals(3.0, slots[cs.slotOf("b")]);
    assertEquals(Boolean.TRUE, slots[cs.slotOf("c")]);

    Object[] fromMap = cs.newSlots(Map.of("d", "5", "f", 2, "t", "x"));
    assertEquals(5L, fromMap[cs.slotOf("d")]);
    assertEquals(2L, fromMap[cs.slotOf("f")]);
    assertEquals("x", fromMap[cs.slotOf("t")]);
    ScriptRuntimeException e =
        assertThrows(
            ScriptRuntimeException.class,
            () -> ScriptTestSupport.runSets(cs, new EvalContext(fromMap, new PgbenchRandom(1), 0)));
    // pgbench: malformed variable "t" value: "x"
    assertEquals("d.sql:3: malformed variable \"t\" value: \"x\"", e.getMessage());
    assertEquals(3, e.line());
  }

  @Test
  void syntaxErrors() {
    assertEquals(
        "bad.sql:2: syntax error in expression: unexpected end of expression at column 5",
        parseError("\\set a 1\n\\set b (1 +\n"));
    assertTrue(parseError("\\set a 1 +* 2\n").startsWith("bad.sql:1: syntax error"));
    assertTrue(parseError("\\set a (1\n").startsWith("bad.sql:1: syntax error"));
    assertTrue(parseError("\\set a 1 2\n").startsWith("bad.sql:1: syntax error"));
    assertTrue(parseError("\\set a 1 @ 2\n").contains("unexpected character \"@\""));
    assertTrue(parseError("\\set a foo\n").contains("unexpected word \"foo\""));
    assertTrue(parseError("\\set a CASE 1 END\n").startsWith("bad.sql:1: syntax error"));
    assertTrue(parseError("\\set a 1 IS 2\n").startsWith("bad.sql:1: syntax error"));
    assertEquals("bad.sql:1: missing argument in command \"\\set\"", parseError("\\set a\n"));
    assertEquals(
        "bad.sql:3: unknown function \"foo\"", parseError("SELECT 1;\n\n\\set x foo(1)\n"));
    assertEquals(
        "bad.sql:1: wrong number of arguments for function \"random\": expected 2, got 1",
        parseError("\\set x random(1)\n"));
    assertTrue(parseError("\\set x least()\n").contains("expected at least 1, got 0"));
    assertTrue(parseError("\\set x hash(1, 2, 3)\n").contains("expected 1 or 2, got 3"));
    assertTrue(parseError("\\set x pi(1)\n").contains("expected 0, got 1"));
  }

  @Test
  void continuationLines() throws Exception {
    CompiledScript cs = compile("c.sql", "\\set x 1 + \\\n  2\nSELECT :x;\n");
    assertEquals(2, cs.steps().size());
    assertEquals(3, cs.steps().get(1).line());
    EvalContext ctx = new EvalContext(new Object[cs.slotCount()], new PgbenchRandom(1), 0);
    ScriptTestSupport.runSets(cs, ctx);
    assertEquals(3L, ctx.slots()[cs.slotOf("x")]);
  }
}
