package dev.wg1bench.script;

import static dev.wg1bench.script.ScriptTestSupport.compile;
import static dev.wg1bench.script.ScriptTestSupport.eval;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Long and deep expressions (issue 56): a run of one precedence is a loop at every stage, so a sum
 * of 20,000 terms works as in pgbench; nesting beyond {@link ExprParser#MAX_DEPTH} is refused with
 * the script's line, never a StackOverflowError.
 */
class DeepExpressionTest {

  @Test
  void aSumOf20000TermsParsesCompilesAndEvaluates() throws Exception {
    assertEquals(20_000L, eval("1" + "+1".repeat(19_999)));
    assertEquals(1L, eval("1" + "+1-1".repeat(10_000)));
    assertEquals(Boolean.TRUE, eval("false" + " OR false AND true".repeat(5_000) + " OR true"));
    // x & 1 # 1 flips the low bit: 10,000 times from 1 leaves 1
    assertEquals(1L, eval("1" + " & 1 # 1".repeat(10_000)));
  }

  /** The compiled chain needs no stack for its length: it runs on a thread of 64 KB. */
  @Test
  void aLongSumEvaluatesOnASmallStack() throws Exception {
    AtomicReference<Object> got = new AtomicReference<>();
    Thread t =
        new Thread(
            null,
            () -> {
              try {
                got.set(eval("0" + "+2".repeat(50_000)));
              } catch (Throwable e) {
                got.set(e);
              }
            },
            "small-stack",
            64 * 1024);
    t.start();
    t.join();
    assertEquals(100_000L, got.get());
  }

  /**
   * A chain keeps the nested form's order, nulls and errors: it fails at the step that overflows.
   */
  @Test
  void aChainFailsWhereTheNestedFormWould() {
    ScriptRuntimeException e =
        assertThrows(
            ScriptRuntimeException.class, () -> eval("9223372036854775807 - 1 + 1 + 1 - 5"));
    assertTrue(e.getMessage().endsWith("bigint add out of range"), e.getMessage());
    assertThrows(ScriptRuntimeException.class, () -> eval("1 + 1 + 1 / 0 + 1"));
  }

  @Test
  void nullsAndShortCircuitsCarryAlongAChain() throws Exception {
    assertNull(eval("1 + null + 2 + 3"));
    // a false left side decides the AND: the division by zero on its right is never evaluated
    assertEquals(Boolean.FALSE, eval("false AND 1 / 0 = 1 AND 1 / 0 = 1"));
    assertEquals(Boolean.TRUE, eval("true OR 1 / 0 = 1 OR 1 / 0 = 1"));
    assertNull(eval("null AND 1 / 0 = 1 AND true"));
  }

  @Test
  void nestingUpToTheLimitIsAcceptedAndOneMoreRefusedNamingTheLine() throws Exception {
    int n = ExprParser.MAX_DEPTH;
    // the outermost expression is one level: n - 1 parentheses inside it
    assertEquals(1L, eval("(".repeat(n - 1) + "1" + ")".repeat(n - 1)));
    ScriptException e =
        assertThrows(
            ScriptException.class,
            () ->
                compile(
                    "deep.sql",
                    "SELECT 1;\n\\set x " + "(".repeat(n) + "1" + ")".repeat(n) + "\n"));
    assertEquals(
        // the level past the limit starts after the n-th parenthesis
        "deep.sql:2: expression nested too deeply at column "
            + (n + 1)
            + ": the limit is "
            + n
            + " levels (each parenthesis, function argument, unary operator or right-hand operand"
            + " of a tighter operator is one)",
        e.getMessage());
  }

  @Test
  void everyKindOfNestingCountsAndIsRefusedNotOverflowed() {
    for (String deep :
        new String[] {
          "(".repeat(20_000) + "1" + ")".repeat(20_000),
          "-".repeat(20_000) + "1",
          "~".repeat(20_000) + "1",
          "NOT ".repeat(20_000) + "true",
          "abs(".repeat(20_000) + "1" + ")".repeat(20_000),
          "1" + "*(1+(2".repeat(5_000),
          "CASE WHEN true THEN ".repeat(5_000) + "1" + " END".repeat(5_000),
          "1 = (".repeat(5_000) + "1" + ")".repeat(5_000),
        }) {
      ScriptException e = assertThrows(ScriptException.class, () -> eval(deep));
      assertTrue(e.getMessage().contains("expression nested too deeply"), e.getMessage());
    }
  }
}
