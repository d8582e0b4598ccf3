package dev.wg1bench.script;

import static dev.wg1bench.script.ScriptTestSupport.compile;
import static dev.wg1bench.script.ScriptTestSupport.initialSlots;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What pgbench 15 (15.20) prints for each operator and function, and the error it stops with, as
 * read from its own output ({@code \set x debug(EXPR)}, {@code pgbench -n -t 1}); the engine must
 * give the same. {@code PgbenchParityTest} compares the two tools live where pgbench is installed;
 * this test keeps pgbench's answers where it is not.
 */
class PgbenchSemanticsTest {

  /** EXPR | pgbench's debug() output for it. */
  private static final String VALUES =
      """
          7 / 2 | int 3
          -7 / 2 | int -3
          -7 % 3 | int -1
          7 % -3 | int 1
          1.0 % 2 | int 1
          7.5 / 2 | double 3.75
          1.0 / 0 | double Infinity
          -1 / 0.0 | double -Infinity
          0.0 / 0 | double NaN
          least(-5.18, .0E0, 1.0/0) * -3.3 | double 17.094
          0.1 + 0.2 | double 0.3
          1e300 * 1e10 | double Infinity
          2 # 3 | 4 & 6 | int 4
          1 << 62 >> 3 | int 576460752303423488
          ~5 | int -6
          -9223372036854775808 | int -9223372036854775808
          9223372036854775807 / -1 | int -9223372036854775807
          -9223372036854775808 % -1 | int 0
          abs(-9223372036854775808) | int -9223372036854775808
          abs(-2.5) | double 2.5
          int(2.5) | int 2
          int(3.5) | int 4
          int(-2.5) | int -2
          double(3) | double 3
          sqrt(2) | double 1.4142135623731
          ln(10) | double 2.30258509299405
          exp(1) | double 2.71828182845905
          pow(2, 0.5) | double 1.4142135623731
          power(2, 10) | double 1024
          pi() | double 3.14159265358979
          greatest(1, 2.5, -3) | double 2.5
          least(3, 1, 2) | int 1
          123456789012345.678 | double 123456789012346
          0.000012345 | double 1.2345e-05
          1e15 | double 1e+15
          1e-5 | double 1e-05
          1 = 1.0 | boolean true
          2 <> 3 | boolean true
          2 != 2 | boolean false
          2 >= 3 | boolean false
          2.5 > 2 | boolean true
          true AND false | boolean false
          NULL AND false | null
          false AND NULL | boolean false
          true OR NULL | boolean true
          NULL OR true | null
          NOT true | boolean false
          NULL IS NULL | boolean true
          1 IS NULL | boolean false
          1 IS TRUE | boolean false
          true IS NOT FALSE | boolean true
          NULL ISNULL | boolean true
          1 NOTNULL | boolean true
          1 + NULL | null
          least(1, NULL) | null
          CASE WHEN 0 THEN 1 WHEN 2.5 THEN 2 ELSE 3 END | int 2
          CASE WHEN NULL THEN 1 END | null
          hash(10, 5432) | int -5817877081768721676
          hash_murmur2(10, 5432) | int -5817877081768721676
          hash_fnv1a(10, 5432) | int -7793829335365542153
          permute(0, 10, 5432) | int 6
          permute(-1, 7, 5432) | int 4
          permute(123456789, 1000000007, 42) | int 253707980
      """;

  /** EXPR | the error pgbench stops the client with when it evaluates it. */
  private static final String ERRORS =
      """
          (1<<62) + (1<<62) | bigint add out of range
          0 - (1<<62) - (1<<62) - (1<<62) | bigint sub out of range
          2 * (1<<62) | bigint mul out of range
          -9223372036854775808 / -1 | bigint div out of range
          1 / 0 | division by zero
          1 % 0 | division by zero
          5 % 0.0 | division by zero
          int(1E32) | double to int overflow for 100000000000000005366162204393472.000000
          int(0.0/0) | double to int overflow for NaN
          TRUE + 2 | cannot coerce boolean to int
          NOT 0.0 | cannot coerce double to boolean
          ln(TRUE) | cannot coerce boolean to double
          1 AND true | cannot coerce int to boolean
          false OR 0 | cannot coerce int to boolean
          random(5,3) | empty range given to random
          random(-9223372036854775808, 9223372036854775807) | random range is too large
          random_gaussian(0, 10, 1.0) | gaussian parameter must be at least 2.000000 (not 1.000000)
          random_exponential(0, 10, 0.0) | exponential parameter must be greater than zero (not 0.000000)
          random_zipfian(0, 10, 1) | zipfian parameter must be in range [1.001, 1000] (not 1.000000)
          random_zipfian(0, 10, 1000000) | zipfian parameter must be in range [1.001, 1000] (not 1000000.000000)
          permute(1, 0) | permute size parameter must be greater than zero
          true = 1 | cannot coerce boolean to int
      """;

  private static List<String[]> rows(String table) {
    List<String[]> rows = new ArrayList<>();
    for (String line : table.strip().split("\n")) {
      int bar = line.lastIndexOf(" | ");
      rows.add(new String[] {line.substring(0, bar).strip(), line.substring(bar + 3).strip()});
    }
    return rows;
  }

  private static Object eval(String expr) throws ScriptException {
    CompiledScript cs = compile("expr.sql", "\\set x " + expr + "\n");
    EvalContext ctx = new EvalContext(initialSlots(cs), new PgbenchRandom(1), 42L);
    ScriptTestSupport.runSets(cs, ctx);
    return ctx.slots()[cs.slotOf("x")];
  }

  @Test
  void everyOperatorAndFunctionGivesPgbenchsValue() throws Exception {
    List<String[]> rows = rows(VALUES);
    assertEquals(63, rows.size());
    for (String[] r : rows) {
      assertEquals(r[1], Values.describe(eval(r[0])), r[0]);
    }
  }

  @Test
  void everyRuntimeErrorHasPgbenchsMessage() throws Exception {
    List<String[]> rows = rows(ERRORS);
    assertEquals(22, rows.size());
    for (String[] r : rows) {
      ScriptRuntimeException e = assertThrows(ScriptRuntimeException.class, () -> eval(r[0]), r[0]);
      assertEquals(r[1], e.detail(), r[0]);
      assertEquals("expr.sql:1: " + r[1], e.getMessage(), r[0]);
    }
  }

  /**
   * pgbench 15 with {@code --random-seed=5432 -c 1}: random(10, 19) then random_exponential(100,
   * 199, 10.0), random_gaussian(1000, 1999, 10.0), random_zipfian(1, 9, 1.3) in one op print 17,
   * 104, 1498 and 3; :default_seed is 7590783070443337668, permute(3, 10) 4 and hash(5)
   * -3737051609159039827.
   */
  @Test
  void seededStreamsOfOneClientArePgbenchs() {
    PgbenchRandom r = PgbenchRandom.forClient(5432, 0);
    assertEquals(17, r.uniform(10, 19));
    assertEquals(104, r.exponential(100, 199, 10.0));
    assertEquals(1498, r.gaussian(1000, 1999, 10.0));
    assertEquals(3, r.zipfian(1, 9, 1.3));
    long seed = PgbenchRandom.defaultSeed(5432, 1);
    assertEquals(7590783070443337668L, seed);
    assertEquals(4, FunctionNodes.permute(3, 10, seed));
    assertEquals(-3737051609159039827L, FunctionNodes.murmur2(5, seed));
  }

  /**
   * pgbench 15 with {@code --random-seed=5432 -c 3 -j 1}: client 0, 1 and 2's first random(1,
   * 1000000) are 856256, 506940 and 318233 (the same with any -j); :default_seed is
   * -1082569615652803502 for three clients, permute(5, 1000) 133 and hash_fnv1a(5) % 1000 -446.
   */
  @Test
  void eachClientsStreamAndTheDefaultSeedFollowPgbenchsDerivation() {
    long[] first = {856256, 506940, 318233};
    for (int c = 0; c < 3; c++) {
      assertEquals(first[c], PgbenchRandom.forClient(5432, c).uniform(1, 1000000), "client " + c);
    }
    long seed = PgbenchRandom.defaultSeed(5432, 3);
    assertEquals(-1082569615652803502L, seed);
    assertEquals(133, FunctionNodes.permute(5, 1000, seed));
    assertEquals(-446, FunctionNodes.fnv1a(5, seed) % 1000);
  }

  /**
   * pgbench 15 with {@code --random-seed=5432 -c 1 -j 1 -t 12 -f s1.sql@1 -f s2.sql@3} runs the
   * scripts 2 1 2 2 2 2 2 2 1 2 2 2 (1-based).
   */
  @Test
  void weightedScriptChoiceFollowsPgbenchsThreadStream() {
    PgbenchRandom chooser = PgbenchRandom.chooserFor(5432, 1, 0, true);
    StringBuilder runs = new StringBuilder();
    for (int i = 0; i < 12; i++) {
      // pgbench: w = random(0, total - 1), the first script whose cumulative weight exceeds w
      long w = chooser.uniform(0, 3);
      runs.append(w < 1 ? "1 " : "2 ");
    }
    assertEquals("2 1 2 2 2 2 2 2 1 2 2 2", runs.toString().strip());
  }

  /** pgbench's \setshell reads the first line with strtol() and keeps an int. */
  @Test
  void setshellResultIsReadAsPgbenchReadsIt() {
    assertEquals(42L, ShellStep.strtolInt("42\n"));
    assertEquals(-7L, ShellStep.strtolInt("  -7  \n"));
    assertEquals(0L, ShellStep.strtolInt("\n"));
    assertEquals(null, ShellStep.strtolInt("one\n"));
    assertEquals(null, ShellStep.strtolInt("4 2\n"));
    // (int) strtol(): truncated to 32 bits
    assertEquals(1L, ShellStep.strtolInt("4294967297"));
  }
}
