package dev.wg1bench.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The pgbench script parser, compiler and evaluator fed arbitrary and mutated scripts (issue 56): a
 * script is compiled, or refused with one line naming it and a line ({@link ScriptException}, exit
 * 2); a compiled {@code \set} evaluates, or fails with a {@link ScriptRuntimeException} (an op
 * failure); nothing else escapes: no StackOverflowError, no RuntimeException of the parser's.
 */
class ScriptPropertiesTest {
  private static final String VALID =
      "\\set aid random(1, 100000 * :scale)\n"
          + "\\set bid random(1, 1 * :scale)\n"
          + "\\set delta random(-5000, 5000)\n"
          + "\\set x (:aid + :bid) * 2 - :delta / 3 % 7\n"
          + "\\if :x > 10 AND NOT :x = 11\n"
          + "\\set y CASE WHEN :x IS NULL THEN 0 ELSE abs(:x) END\n"
          + "\\else\n"
          + "\\set y greatest(:x, 1, 2.5) + pow(2, 3) + hash(:x) + permute(:aid, 100)\n"
          + "\\endif\n"
          + "BEGIN;\n"
          + "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
          + "SELECT abalance FROM pgbench_accounts WHERE aid = :aid \\gset\n"
          + "\\sleep 1 ms\n"
          + "END;\n";

  /** Parses, compiles and evaluates; asserts only the documented outcomes. */
  static void compilesOrRefusesInOneLine(String text) {
    CompiledScript cs;
    try {
      cs = ScriptTestSupport.compile("fuzz.sql", text);
    } catch (ScriptException e) {
      String m = e.getMessage();
      assertTrue(m.startsWith("fuzz.sql:"), m);
      assertEquals(1, m.lines().count(), m);
      return;
    }
    EvalContext ctx =
        new EvalContext(ScriptTestSupport.initialSlots(cs), new PgbenchRandom(7), 42L);
    for (Step s : cs.steps()) {
      if (s instanceof SetStep set) {
        try {
          set.execute(ctx);
        } catch (ScriptRuntimeException e) {
          assertEquals(1, e.getMessage().strip().lines().count(), e.getMessage());
        }
      }
    }
  }

  @Property(tries = 300)
  void arbitraryText(@ForAll @Size(max = 300) String text) {
    compilesOrRefusesInOneLine(text);
  }

  @Property(tries = 300)
  void mutatedScripts(@ForAll("mutations") String text) {
    compilesOrRefusesInOneLine(text);
  }

  @Property(tries = 200)
  void arbitraryExpressions(@ForAll("expressions") String expr) {
    compilesOrRefusesInOneLine("\\set a " + expr + "\nSELECT :a;\n");
  }

  @Property(tries = 30)
  void deepNestingOfEveryKind(
      @ForAll @IntRange(min = 1, max = 5000) int depth, @ForAll("openers") String opener) {
    String close = opener.endsWith("(") ? ")" : opener.startsWith("CASE") ? " END" : "";
    compilesOrRefusesInOneLine(
        "\\set a " + opener.repeat(depth) + "1" + close.repeat(depth) + "\nSELECT :a;\n");
  }

  @Property(tries = 20)
  void longRunsOfOneOperator(
      @ForAll @IntRange(min = 1, max = 20_000) int terms, @ForAll("operators") String op) {
    compilesOrRefusesInOneLine("\\set a 1" + (op + "1").repeat(terms) + "\nSELECT :a;\n");
  }

  @Provide
  Arbitrary<String> openers() {
    return Arbitraries.of("(", "-", "+", "~", "NOT ", "abs(", "1+(", "2*(", "CASE WHEN true THEN ");
  }

  @Provide
  Arbitrary<String> operators() {
    return Arbitraries.of("+", "-", "*", "/", "%", "&", "|", "#", "<<", ">>", " AND ", " OR ", "=");
  }

  /** Tokens of the expression language, huge numbers and variables among them, in any order. */
  @Provide
  Arbitrary<String> expressions() {
    Arbitrary<String> token =
        Arbitraries.oneOf(
            Arbitraries.of(
                "(",
                ")",
                "+",
                "-",
                "*",
                "/",
                "%",
                "<<",
                ">>",
                "~",
                "&",
                "|",
                "#",
                "=",
                "<>",
                "<",
                ">=",
                "AND",
                "OR",
                "NOT",
                "IS",
                "NULL",
                "TRUE",
                "CASE",
                "WHEN",
                "THEN",
                "ELSE",
                "END",
                ",",
                "random(",
                "abs(",
                "pi()",
                "hash(",
                ":scale",
                ":nope",
                "9223372036854775807",
                "9223372036854775808",
                "-9223372036854775808",
                "1e308",
                "1e400",
                "0.0",
                "1.5e-400",
                "99999999999999999999999999"),
            Arbitraries.strings().withChars("0123456789.e").ofMinLength(1).ofMaxLength(30));
    return token.list().ofMaxSize(25).map(l -> String.join(" ", l));
  }

  /** The valid script with characters deleted, replaced or inserted, meta-commands among them. */
  @Provide
  Arbitrary<String> mutations() {
    Arbitrary<String> piece =
        Arbitraries.of(
            "\\",
            "\\frobnicate",
            "\\set",
            "\\if",
            "\\endif",
            "\\else",
            "\\gset",
            "\\startpipeline",
            "\\endpipeline",
            "\\shell",
            "\\sleep",
            ":",
            "'",
            "\"",
            "/*",
            "*/",
            "--",
            ";",
            "\\;",
            "\n",
            "\0",
            "(",
            ")",
            "random(",
            "9223372036854775808",
            "\u00e9",
            "\ud83d\ude00");
    Arbitrary<int[]> at =
        Combinators.combine(
                Arbitraries.integers().between(0, VALID.length()),
                Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, 27))
            .as((p, k, c) -> new int[] {p, k, c});
    Arbitrary<List<String>> pieces = piece.list().ofSize(28);
    return Combinators.combine(at.list().ofMaxSize(8), pieces)
        .as(
            (edits, ps) -> {
              StringBuilder b = new StringBuilder(VALID);
              for (int[] e : edits) {
                int p = Math.min(e[0], b.length());
                String s = ps.get(e[2]);
                if (e[1] == 0 && p < b.length()) {
                  b.delete(p, Math.min(b.length(), p + s.length()));
                } else if (e[1] == 1 && p < b.length()) {
                  b.replace(p, Math.min(b.length(), p + s.length()), s);
                } else {
                  b.insert(p, s);
                }
              }
              return b.toString();
            });
  }
}
